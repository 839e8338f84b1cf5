import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class ImageTests: XCTestCase {
    func testTypedInitialisersAndAccessors() throws {
        let image = try Image(width: 3, height: 2, channels: 1, pixels: [Float](arrayLiteral: 1, 2, 3, 4, 5, 6))
        XCTAssertEqual(image.element, .float32)
        XCTAssertEqual(image.bytes.count, 24)
        XCTAssertEqual(image[x: 2, y: 0, channel: 0], 3)
        XCTAssertEqual(image[x: 0, y: 1, channel: 0], 4)
        XCTAssertEqual(try image.pixels(as: Float.self), [1, 2, 3, 4, 5, 6])
        XCTAssertThrowsError(try image.pixels(as: UInt16.self))

        var rgb = try Image(width: 2, height: 1, channels: 3, pixels: [UInt8](arrayLiteral: 1, 2, 3, 4, 5, 6))
        XCTAssertEqual(rgb[x: 1, y: 0, channel: 2], 6)
        rgb[x: 1, y: 0, channel: 2] = 300.7
        XCTAssertEqual(rgb[x: 1, y: 0, channel: 2], 255, "saturates")
        rgb[x: 0, y: 0, channel: 0] = -4
        XCTAssertEqual(rgb[x: 0, y: 0, channel: 0], 0)
        rgb[x: 0, y: 0, channel: 1] = .nan
        XCTAssertEqual(rgb[x: 0, y: 0, channel: 1], 0)
        rgb[x: 0, y: 0, channel: 2] = 2.5
        XCTAssertEqual(rgb[x: 0, y: 0, channel: 2], 3, "rounds half away from zero")

        var half = try Image(width: 1, height: 1, channels: 1, element: .float16)
        half[x: 0, y: 0, channel: 0] = 0.1
        XCTAssertEqual(try half.pixels(as: Float16.self), [Float16(0.1)])
        var wide = try Image(width: 1, height: 1, channels: 4, element: .uint16)
        wide[x: 0, y: 0, channel: 3] = 65535
        XCTAssertEqual(try wide.pixels(as: UInt16.self), [0, 0, 0, 65535])
    }

    func testSizeValidation() {
        XCTAssertThrowsError(try Image(width: 2, height: 2, channels: 2, element: .uint8))
        XCTAssertThrowsError(try Image(width: 0, height: 2, channels: 1, element: .uint8))
        XCTAssertThrowsError(try Image(width: Image.maximumSide + 1, height: 1, channels: 1, element: .uint8))
        XCTAssertThrowsError(try Image(width: 1 << 16, height: 1 << 16, channels: 1, element: .uint8), "too many values")
        XCTAssertThrowsError(try Image(width: 2, height: 2, channels: 1, pixels: [Float](arrayLiteral: 1, 2, 3)))
        XCTAssertThrowsError(try Image(width: 2, height: 2, channels: 1, element: .uint16, bytes: [0, 0, 0]))
    }

    func testSwappingRedAndBlue() throws {
        let rgba = try Image(width: 1, height: 2, channels: 4, pixels: [UInt16](arrayLiteral: 1, 2, 3, 4, 5, 6, 7, 8))
        XCTAssertEqual(try rgba.swappingRedAndBlue().pixels(as: UInt16.self), [3, 2, 1, 4, 7, 6, 5, 8])
        XCTAssertEqual(rgba.swappingRedAndBlue().swappingRedAndBlue(), rgba)
        let gray = try Image(width: 2, height: 1, channels: 1, pixels: [UInt8](arrayLiteral: 9, 8))
        XCTAssertEqual(gray.swappingRedAndBlue(), gray)
    }

    func testCVMatBridgeRoundTripsEveryElementAndConvertsToBGR() throws {
        for element in PixelElement.allCases {
            for channels in [1, 3, 4] {
                let image = try Fixtures.randomBits(width: 7, height: 5, channels: channels, element: element, seed: 9)
                let mat = try image.makeCVMat()
                XCTAssertEqual(mat.rows, 5)
                XCTAssertEqual(mat.cols, 7)
                XCTAssertEqual(mat.channels, channels)
                XCTAssertEqual(mat.packedBytes(), image.swappingRedAndBlue().bytes, "CVMat holds BGR(A)")
                XCTAssertEqual(try Image(mat), image, "\(element) x\(channels)")
            }
        }
    }

    func testCVMatOfUnsupportedDepthIsRejected() throws {
        let mat = try CVMat(rows: 2, cols: 2, channels: 1, depth: .float64)
        XCTAssertThrowsError(try Image(mat))
        let twoChannels = try CVMat(rows: 2, cols: 2, channels: 2, depth: .uint8)
        XCTAssertThrowsError(try Image(twoChannels))
    }

    func testRepeatedBridgingDoesNotCrash() throws {
        let image = try Fixtures.randomBits(width: 32, height: 24, channels: 3, element: .uint8, seed: 1)
        for _ in 0..<2_000 {
            _ = try Image(try image.makeCVMat())
        }
    }
}
