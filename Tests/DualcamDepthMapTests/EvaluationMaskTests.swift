import DualcamGeometry
import DualcamImaging
import XCTest
@testable import DualcamDepthMap

final class EvaluationMaskTests: XCTestCase {
    func testMaskFromImageAndResize() throws {
        let image = try Image(width: 4, height: 2, channels: 1, pixels: [UInt8(0), 255, 255, 0, 0, 0, 1, 0])
        let mask = try EvaluationMasks.mask(from: image)
        XCTAssertEqual(mask, [false, true, true, false, false, false, true, false])
        XCTAssertEqual(try EvaluationMasks.resized(mask, from: PixelSize(width: 4, height: 2), to: PixelSize(width: 2, height: 1)),
                       [false, true])
        XCTAssertThrowsError(try EvaluationMasks.mask(from: try Image(width: 1, height: 1, channels: 3, element: .uint8)))
        XCTAssertThrowsError(try EvaluationMasks.resized(mask, from: PixelSize(width: 3, height: 2), to: PixelSize(width: 1, height: 1)))
    }

    func testTextureIsLocalStandardDeviation() throws {
        // Left 6 columns flat grey, right 6 columns alternate 0/20 (std 10).
        let w = 12, h = 5
        var values = [UInt8](repeating: 100, count: w * h)
        for y in 0..<h { for x in 6..<w { values[y * w + x] = (x + y) % 2 == 0 ? 0 : 20 } }
        let image = try Image(width: w, height: h, channels: 1, pixels: values)
        let mask = try EvaluationMasks.textured(image, radius: 1, minimumStandardDeviation: 5)
        XCTAssertEqual((0..<w).map { mask[2 * w + $0] },
                       [false, false, false, false, false, true, true, true, true, true, true, true],
                       "column 5 is flat but its window overlaps the texture")
        XCTAssertEqual(try EvaluationMasks.textured(image, radius: 1, minimumStandardDeviation: 200).filter { $0 }.count, 0)
        XCTAssertThrowsError(try EvaluationMasks.textured(image, radius: 0))
    }
}
