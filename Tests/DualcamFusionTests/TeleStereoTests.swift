@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `TeleStereo.workingSize`: the matching grid is `workingScale` (1.5) times
/// the output's per axis, at most the wide image's, with the output's aspect
/// ratio. `TeleStereo.edgeReach`: the block's radius in output pixels.
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

    func testEdgeReachIsTheBlockRadiusInOutputPixels() {
        // Aloe at 320x277: rectified at 0.749 x 3740 px, the output at 3740 x 320 / 1282: 3 rectified pixels per output pixel.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 0.7488 * 3740, outputFocal: 3740.0 * 320 / 1282),
                       2.0 / 3, accuracy: 1e-3)
        // Aloe native: one rectified pixel per output pixel.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 3740, outputFocal: 3740), 2)
        // The room: rectified at the tele's focal, twice the wide's.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 1904.76, outputFocal: 952.38), 1, accuracy: 1e-6)
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 9, rectifiedFocal: 1000, outputFocal: 500), 2)
    }
}
