@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `TeleStereo.scaledSize`: a grid `scale` times the output's per axis, at
/// most the wide image's, with the output's aspect ratio (the fusion grid at
/// 2, the matches' density at 1.5).
final class TeleStereoTests: XCTestCase {
    func testGridsFinerThanTheOutputCappedAtTheWideSize() {
        let wide = PixelSize(width: 1282, height: 1110)
        XCTAssertEqual(TeleStereo.scaledSize(PixelSize(width: 320, height: 277), by: 1.5, wideSize: wide),
                       PixelSize(width: 480, height: 416))
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: PixelSize(width: 320, height: 277), wideSize: wide),
                       PixelSize(width: 640, height: 554))
        // 2 x 900 is beyond the wide image: its size.
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: PixelSize(width: 900, height: 779), wideSize: wide),
                       PixelSize(width: 1282, height: 1110))
        // An output a pixel off the wide aspect (641x556 of 1282x1110, which `--size` accepts): the wide size.
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: PixelSize(width: 641, height: 556), wideSize: wide), wide)
        // At (or above) the wide size the output grid itself.
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: wide, wideSize: wide), wide)
        XCTAssertEqual(TeleStereo.scaledSize(PixelSize(width: 2564, height: 2220), by: 1.5, wideSize: wide),
                       PixelSize(width: 2564, height: 2220))
    }
}
