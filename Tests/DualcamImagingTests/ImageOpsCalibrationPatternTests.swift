import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class CalibrationPatternImageOpsTests: XCTestCase {
    /// 7 x 5 squares: 6 x 4 = 24 ChArUco corners, 17 markers.
    private let board = ImageOps.CharucoBoard(dictionary: "DICT_5X5_100", squaresX: 7, squaresY: 5,
                                              squareLength: 0.04, markerLength: 0.03)

    /// Where ChArUco corner `id` of `board` lies in a render with `square` pixels per square.
    private func idealCorner(_ id: Int, square: Double) -> (x: Double, y: Double) {
        let columns = board.squaresX - 1
        return (Double(id % columns + 1) * square - 0.5, Double(id / columns + 1) * square - 0.5)
    }

    /// A chessboard of `squaresX` x `squaresY` squares of `square` pixels, the
    /// top-left one black, inside a white margin of `margin` pixels (uint8, grey).
    private func chessboard(squaresX: Int, squaresY: Int, square: Int, margin: Int) throws -> Image {
        let width = squaresX * square + 2 * margin, height = squaresY * square + 2 * margin
        var image = try Image(width: width, height: height, channels: 1, element: .uint8,
                              values: [Double](repeating: 255, count: width * height))
        for y in margin..<(height - margin) {
            for x in margin..<(width - margin) where ((x - margin) / square + (y - margin) / square) % 2 == 0 {
                image[x: x, y: y, channel: 0] = 0
            }
        }
        return image
    }

    func testCharucoRenderSpansTheBoard() throws {
        let image = try ImageOps.renderCharucoBoard(board, width: 700, height: 500)
        XCTAssertEqual([image.width, image.height, image.channels], [700, 500, 1])
        XCTAssertEqual(image.element, .uint8)
        XCTAssertEqual(Set(image.doubleValues()), [0, 255], "pure black and white")
        // Square (0, 0) is black from the very first pixel: no margin.
        for (x, y) in [(0, 0), (99, 0), (0, 99), (99, 99)] { XCTAssertEqual(image[x: x, y: y, channel: 0], 0) }
        // Square (1, 0) is white around its marker (which spans 112.5 ... 187.5).
        for (x, y) in [(100, 0), (105, 50), (199, 99)] { XCTAssertEqual(image[x: x, y: y, channel: 0], 255) }
        XCTAssertEqual(image[x: 115, y: 50, channel: 0], 0, "the marker's black border")
    }

    func testCharucoCornersOfTheRenderAreAtTheSquareCorners() throws {
        let image = try ImageOps.renderCharucoBoard(board, width: 700, height: 500)
        let corners = try ImageOps.detectCharucoCorners(in: image, board: board)
        XCTAssertEqual(corners.count, (board.squaresX - 1) * (board.squaresY - 1))
        XCTAssertEqual(Set(corners.map(\.id)), Set(0..<24))
        for corner in corners {
            // Squares meet between pixels 99 and 100: at 99.5 (pixel centres at integers).
            let ideal = idealCorner(corner.id, square: 100)
            XCTAssertClose(corner.x, ideal.x, absolute: 0.01, "id \(corner.id)")
            XCTAssertClose(corner.y, ideal.y, absolute: 0.01, "id \(corner.id)")
        }
    }

    func testCharucoDetectionAfterPerspectiveWarpAndBlur() throws {
        let flat = try ImageOps.renderCharucoBoard(board, width: 560, height: 400)
        let h = [1.05, 0.12, 60, -0.08, 0.97, 90, 1.5e-4, 1e-4, 1]
        let warped = try ImageOps.warpPerspective(flat, homography: h, width: 800, height: 640,
                                                  interpolation: .cubic, border: .constant(value: 255))
        let photo = try Image(try CVImgproc.convertToGray(try ImageOps.gaussianBlur(warped, sigma: 1).makeCVMat()))
        let rgb = try Image(width: photo.width, height: photo.height, channels: 3, element: .uint8,
                            values: photo.doubleValues().flatMap { [$0, $0, $0] })
        for input in [photo, rgb] {
            let corners = try ImageOps.detectCharucoCorners(in: input, board: board)
            XCTAssertEqual(corners.count, 24, "\(input)")
            // Blur of the slanted corners costs a few hundredths of a pixel.
            for corner in corners {
                let p = idealCorner(corner.id, square: 80)
                let w = h[6] * p.x + h[7] * p.y + h[8]
                XCTAssertClose(corner.x, (h[0] * p.x + h[1] * p.y + h[2]) / w, absolute: 0.2, "id \(corner.id)")
                XCTAssertClose(corner.y, (h[3] * p.x + h[4] * p.y + h[5]) / w, absolute: 0.2, "id \(corner.id)")
            }
        }
    }

    func testCharucoNothingFoundAndErrors() throws {
        let blank = try Image(width: 200, height: 100, channels: 1, element: .uint8)
        XCTAssertTrue(try ImageOps.detectCharucoCorners(in: blank, board: board).isEmpty)
        var unknown = board
        unknown.dictionary = "DICT_3X3_10"
        let error = assertThrowsDualcamError(try ImageOps.renderCharucoBoard(unknown, width: 700, height: 500),
                                             mentioning: "'DICT_3X3_10'", "accepted: DICT_4X4_50, DICT_4X4_100")
        XCTAssertTrue(error?.description.contains("DICT_7X7_1000, DICT_ARUCO_ORIGINAL)") ?? false)
        assertThrowsDualcamError(try ImageOps.detectCharucoCorners(in: blank, board: unknown), mentioning: "DICT_3X3_10")
        assertThrowsDualcamError(try ImageOps.renderCharucoBoard(board, width: 700, height: 600),
                                 mentioning: "ChArUco render", "aspect ratio")
        let crowded = ImageOps.CharucoBoard(dictionary: "DICT_4X4_50", squaresX: 11, squaresY: 11, squareLength: 1,
                                            markerLength: 0.7)
        assertThrowsDualcamError(try ImageOps.renderCharucoBoard(crowded, width: 110, height: 110),
                                 mentioning: "ChArUco render", "needs 60 markers but DICT_4X4_50 has 50")
        var fat = board
        fat.markerLength = 0.04
        assertThrowsDualcamError(try ImageOps.renderCharucoBoard(fat, width: 700, height: 500), mentioning: "smaller")
        let float = try Image(width: 700, height: 500, channels: 1, element: .float32)
        assertThrowsDualcamError(try ImageOps.detectCharucoCorners(in: float, board: board), mentioning: "uint8")
    }

    func testChessboardCornersInOpenCVOrderAtSquareBoundaries() throws {
        // 10 x 7 squares of 40 px inside a 40 px margin: 9 x 6 inner corners.
        let image = try chessboard(squaresX: 10, squaresY: 7, square: 40, margin: 40)
        XCTAssertEqual([image.width, image.height], [480, 360])
        let corners = try XCTUnwrap(try ImageOps.findChessboardCorners(in: image, columns: 9, rows: 6))
        XCTAssertEqual(corners.count, 54)
        // Row by row from the top-left; squares meet between pixels 79 and 80: at 79.5.
        for (i, corner) in corners.enumerated() {
            XCTAssertClose(corner.x, Double(40 + 40 * (i % 9 + 1)) - 0.5, absolute: 0.1, "corner \(i)")
            XCTAssertClose(corner.y, Double(40 + 40 * (i / 9 + 1)) - 0.5, absolute: 0.1, "corner \(i)")
        }
    }

    func testChessboardInColourBlurredAndNotFound() throws {
        let image = try ImageOps.gaussianBlur(try chessboard(squaresX: 10, squaresY: 7, square: 40, margin: 40), sigma: 1.2)
        let rgb = try Image(width: image.width, height: image.height, channels: 3, element: .uint8,
                            values: image.doubleValues().flatMap { [$0, $0, $0] })
        let corners = try XCTUnwrap(try ImageOps.findChessboardCorners(in: rgb, columns: 9, rows: 6))
        XCTAssertClose(corners[10].x, 119.5, absolute: 0.1)
        XCTAssertClose(corners[10].y, 119.5, absolute: 0.1)
        XCTAssertNil(try ImageOps.findChessboardCorners(in: image, columns: 8, rows: 5), "wrong pattern size")
        let blank = try Image(width: 300, height: 200, channels: 1, element: .uint8)
        XCTAssertNil(try ImageOps.findChessboardCorners(in: blank, columns: 9, rows: 6))
        assertThrowsDualcamError(try ImageOps.findChessboardCorners(in: blank, columns: 1, rows: 6),
                                 mentioning: "findChessboardCorners", "at least 2x2")
    }
}
