import DualcamCalibrationFiles
import DualcamGeometry
import TestSupport
import XCTest

final class CalibrationPatternTests: XCTestCase {
    func testParsesChessboardAndCharuco() throws {
        let chess = try BoardTarget(parsing: "chessboard:9x6:25mm")
        XCTAssertEqual(chess.kind, .chessboard(columns: 9, rows: 6))
        XCTAssertClose(chess.squareSize, 0.025, relative: 1e-15)
        XCTAssertEqual(chess.cornerPoints.count, 54)
        XCTAssertEqual(chess.cornerPoints[10], Vector3(0.025, 0.025, 0), "row by row: index 10 is (1, 1)")
        let charuco = try BoardTarget(parsing: "charuco:8x6:30mm:22mm:dict_5x5_100")
        XCTAssertEqual(charuco.kind, .charuco(squaresX: 8, squaresY: 6, markerSize: 0.022, dictionary: "DICT_5X5_100"))
        XCTAssertEqual(charuco.cornerPoints.count, 35)
        XCTAssertEqual(charuco.cornerPoints[0], Vector3(0.03, 0.03, 0))
        XCTAssertClose(try BoardTarget(parsing: "chessboard:9x6:1mm").squareSize, 0.001, relative: 1e-15)
    }

    func testRejectsMalformedPatterns() {
        for bad in ["", "chessboard", "chessboard:9x6", "chessboard:9x1:25mm", "chessboard:9x6:25", "chessboard:9x6:-1mm",
                    "charuco:8x6:30mm:40mm:DICT_5X5_100", "charuco:8x6:30mm:22mm", "circles:4x11:20mm",
                    "chessboard:9xx6:25mm", "chessboard:9x6xjunk:25mm", "chessboard:x9x6:25mm", "charuco:8x6x:30mm:22mm:DICT_5X5_100"] {
            XCTAssertThrowsError(try BoardTarget(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("chessboard:COLSxROWS:SQUARE"), "\(error)")
            }
        }
    }
}
