@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `TeleStereo.scaledSize`: a grid `scale` times the output's per axis, at
/// most the wide image's, with the output's aspect ratio (the fusion grid at
/// 2, the matches' density at 1.5). `TeleStereo.edgeReach`: the block's
/// radius in the map's pixels.
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
        // At (or above) the wide size the output grid itself.
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: wide, wideSize: wide), wide)
        XCTAssertEqual(TeleStereo.scaledSize(PixelSize(width: 2564, height: 2220), by: 1.5, wideSize: wide),
                       PixelSize(width: 2564, height: 2220))
    }

    func testEdgeReachIsTheBlockRadiusInOutputPixels() {
        // Aloe at a 320x277 output: rectified at 0.749 x 3740 px, the map on
        // its 640x554 fusion grid at 3740 x 640 / 1282: 1.5 rectified pixels per map pixel.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 0.7488 * 3740, outputFocal: 3740.0 * 640 / 1282),
                       4.0 / 3, accuracy: 1e-3)
        // Aloe native: one rectified pixel per output pixel.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 3740, outputFocal: 3740), 2)
        // The room: rectified at the tele's focal, twice the wide's.
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 5, rectifiedFocal: 1904.76, outputFocal: 952.38), 1, accuracy: 1e-6)
        XCTAssertEqual(TeleStereo.edgeReach(blockSize: 9, rectifiedFocal: 1000, outputFocal: 500), 2)
    }
}
