@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `TeleStereo.workingSize`: the matching grid is `workingScale` (1.5) times
/// the output's per axis, at most the wide image's, with the output's aspect ratio.
final class TeleStereoTests: XCTestCase {
    func testMatchesOnAFinerGridCappedAtTheWideSize() {
        let wide = PixelSize(width: 1282, height: 1110)
        XCTAssertEqual(TeleStereo.workingSize(outputSize: PixelSize(width: 320, height: 277), wideSize: wide),
                       PixelSize(width: 480, height: 416))
        // 1.5 x 900 is beyond the wide image: its size.
        XCTAssertEqual(TeleStereo.workingSize(outputSize: PixelSize(width: 900, height: 779), wideSize: wide),
                       PixelSize(width: 1282, height: 1110))
        // At (or above) the wide size the output grid itself.
        XCTAssertEqual(TeleStereo.workingSize(outputSize: wide, wideSize: wide), wide)
        XCTAssertEqual(TeleStereo.workingSize(outputSize: PixelSize(width: 2564, height: 2220), wideSize: wide),
                       PixelSize(width: 2564, height: 2220))
    }
}
