import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

final class CVCalibrationPatternsTests: XCTestCase {
    private let board = CVCharucoBoard(dictionary: "DICT_4X4_50", squaresX: 5, squaresY: 4, squareLength: 30,
                                       markerLength: 21)

    func testRenderAndDetectOnMatrices() throws {
        XCTAssertEqual(board.cornerCount, 12)
        let gray = try CVCalibrationPatterns.renderCharucoBoard(board, width: 300, height: 240, borderBits: 1)
        XCTAssertEqual([gray.rows, gray.cols, gray.channels], [240, 300, 1])
        XCTAssertEqual(gray.depth, .uint8)
        // A BGR copy is accepted too.
        let bgr = try CVMat(rows: 240, cols: 300, channels: 3, depth: .uint8,
                            bytes: gray.packedBytes().flatMap { [$0, $0, $0] })
        for image in [gray, bgr] {
            let corners = try CVCalibrationPatterns.detectCharucoCorners(in: image, board: board)
            XCTAssertEqual(corners.map(\.id).sorted(), Array(0..<12))
            for corner in corners {
                XCTAssertClose(corner.x, Double(corner.id % 4 + 1) * 60 - 0.5, absolute: 0.01)
                XCTAssertClose(corner.y, Double(corner.id / 4 + 1) * 60 - 0.5, absolute: 0.01)
            }
        }
        // The rendered board is not a plain chessboard: markers sit in the white squares.
        XCTAssertEqual(try CVCalibrationPatterns.renderCharucoBoard(board, width: 301, height: 240).cols, 301,
                       "within a pixel of the aspect ratio")
    }

    func testEveryAcceptedDictionaryRenders() throws {
        for bits in 4...7 {
            for size in [50, 100, 250, 1000] {
                let name = "DICT_\(bits)X\(bits)_\(size)"
                let spec = CVCharucoBoard(dictionary: name, squaresX: 3, squaresY: 3, squareLength: 1, markerLength: 0.8)
                XCTAssertNoThrow(try CVCalibrationPatterns.renderCharucoBoard(spec, width: 90, height: 90), name)
            }
        }
        let original = CVCharucoBoard(dictionary: "DICT_ARUCO_ORIGINAL", squaresX: 3, squaresY: 3, squareLength: 1,
                                      markerLength: 0.8)
        XCTAssertNoThrow(try CVCalibrationPatterns.renderCharucoBoard(original, width: 90, height: 90))
        var lowercase = original
        lowercase.dictionary = "dict_4x4_50"
        assertOpenCVError(try CVCalibrationPatterns.renderCharucoBoard(lowercase, width: 90, height: 90),
                          "ChArUco render", "unknown ArUco dictionary 'dict_4x4_50' (accepted: DICT_4X4_50,")
    }

    func testInvalidBoardsAndImagesThrow() throws {
        var tiny = board
        tiny.squaresX = 1
        assertOpenCVError(try CVCalibrationPatterns.renderCharucoBoard(tiny, width: 30, height: 120),
                          "ChArUco render", "at least 2x2 squares")
        assertOpenCVError(try CVCalibrationPatterns.renderCharucoBoard(board, width: 300, height: 240, borderBits: 0),
                          "ChArUco render", "border")
        let float = try CVMat(rows: 40, cols: 40, channels: 1, depth: .float32)
        assertOpenCVError(try CVCalibrationPatterns.findChessboardCorners(in: float, columns: 4, rows: 3),
                          "findChessboardCorners", "uint8")
        let bytes = try CVMat(rows: 40, cols: 40, channels: 1, depth: .uint8)
        assertOpenCVError(try CVCalibrationPatterns.findChessboardCorners(in: bytes, columns: 4, rows: 3, halfWindow: 0),
                          "findChessboardCorners", "half-window")
        XCTAssertNil(try CVCalibrationPatterns.findChessboardCorners(in: bytes, columns: 4, rows: 3))
    }
}
