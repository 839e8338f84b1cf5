import DualcamDepthMap
import DualcamGeometry
import XCTest

/// Depth and fusion sizes within the limits policy: `--size 1x1` and
/// `--size 2x1` crashed OpenCV's matcher, `--size 100000x75000` allocated 120 GB.
final class DepthOutputSizeLimitTests: XCTestCase {
    let reference = PixelSize(width: 640, height: 480)

    func testTinyAndHugeSizesAreRefusedWithTheLimit() throws {
        for (text, fragment) in [("1x1", "size 1x1 is too small; expected at least 16 pixels per side (InputLimits.minPipelineSidePixels)"),
                                 ("2x1", "too small"),
                                 ("100000x75000", "exceeds the limit of 16384 pixels per side (InputLimits.maxImageSidePixels)")] {
            XCTAssertThrowsError(try DepthOutputSize(parsing: text).resolved(for: reference), text) { error in
                XCTAssertTrue("\(error)".hasPrefix("--size \(text): "), "\(error)")
                XCTAssertTrue("\(error)".contains(fragment), "\(error)")
            }
        }
        // A native reference that is too small is refused the same way.
        XCTAssertThrowsError(try DepthOutputSize.native.resolved(for: PixelSize(width: 2, height: 2)))
        XCTAssertEqual(try DepthOutputSize(parsing: "16x16").resolved(for: PixelSize(width: 16, height: 16)).width, 16, "the smallest size")
        XCTAssertEqual(try DepthOutputSize.streaming.resolved(for: reference), PixelSize(width: 320, height: 240))
    }
}
