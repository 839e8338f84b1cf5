import XCTest
@testable import DualcamStereo

/// The half-occluded strips filtered mode fills with the farther surface
/// (`WideGaps.halfOcclusions`), and the gates that refuse a far end that may
/// be false.
final class HalfOcclusionStripTests: XCTestCase {
    let width = 60, height = 21

    /// Grey levels that neither repeat nor stay flat: a hash of the pixel.
    func randomTexture() -> [Float] {
        (0..<(width * height)).map { i in
            var h = UInt32(truncatingIfNeeded: i &* 2_654_435_761)
            h ^= h >> 15; h = h &* 2_246_822_519; h ^= h >> 13
            return Float(h % 256)
        }
    }

    /// Every row: `far` up to column `gapStart`, a hole up to `gapEnd`, then
    /// `near` (left reference: the strip lies left of the nearer surface).
    func map(far: Float, near: Float, gapStart: Int, gapEnd: Int, mirrored: Bool = false) -> [Float] {
        var values = [Float](repeating: .nan, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let v: Float = x < gapStart ? far : x >= gapEnd ? near : .nan
                values[y * width + (mirrored ? width - 1 - x : x)] = v
            }
        }
        return values
    }

    func strips(_ values: [Float], grey: [Float], occlusionRight: Bool = false) -> WideGaps.Strips {
        WideGaps.halfOcclusions(values, width: width, keep: [Bool](repeating: true, count: values.count), scale: 1,
                                margin: 4, occlusionRight: occlusionRight, grey: grey)
    }

    /// A 10 px gap between 10 (far, left) and 18 (near, right): a jump of 8,
    /// so the 8 px beside the far end are the strip and the 2 px at the
    /// nearer surface's rim are not. Mirrored, with the right view as the
    /// reference, the same. With the nearer end on the other side, no strip.
    func testTheStripLiesBesideTheFarEnd() {
        let grey = randomTexture(), row = 10 * width
        let s = strips(map(far: 10, near: 18, gapStart: 20, gapEnd: 30), grey: grey)
        for x in 20..<28 {
            XCTAssertEqual(s.far[row + x], 10, "x \(x)")
            XCTAssertEqual(s.near[row + x], 18, "x \(x)")
        }
        for x in [28, 29] { XCTAssertTrue(s.far[row + x].isNaN, "x \(x): the nearer surface's rim") }
        var mirroredGrey = grey
        for y in 0..<height { for x in 0..<width { mirroredGrey[y * width + width - 1 - x] = grey[y * width + x] } }
        let m = strips(map(far: 10, near: 18, gapStart: 20, gapEnd: 30, mirrored: true), grey: mirroredGrey,
                       occlusionRight: true)
        for x in 0..<width { XCTAssertEqual(m.far[row + width - 1 - x].isNaN, s.far[row + x].isNaN, "mirrored x \(x)") }
        let wrongSide = strips(map(far: 10, near: 18, gapStart: 20, gapEnd: 30), grey: grey, occlusionRight: true)
        XCTAssertFalse(wrongSide.far.contains { $0.isFinite }, "a strip lies on the occlusion side only")
    }

    /// A gap up to twice the jump plus the margin (20 px for 2 x 8 + 4) is a
    /// strip, the jump wide or, narrower than the jump, the whole gap; a
    /// wider one is no strip.
    func testTheStripIsAsWideAsTheJump() {
        let grey = randomTexture(), row = 10 * width
        func stripWidth(_ gapEnd: Int) -> Int {
            strips(map(far: 10, near: 18, gapStart: 20, gapEnd: gapEnd), grey: grey).far[row..<(row + width)]
                .filter { $0.isFinite }.count
        }
        XCTAssertEqual(stripWidth(26), 6)
        XCTAssertEqual(stripWidth(28), 8)
        XCTAssertEqual(stripWidth(40), 8)
        XCTAssertEqual(stripWidth(41), 0)
    }

    /// A far end in a flat window, or in a pattern that repeats at the jump's
    /// lag (stripes 8 px apart: the far end may be a period off), is no
    /// strip; stripes of another period are.
    func testFlatOrRepeatingFarEndsAreRefused() {
        let values = map(far: 10, near: 18, gapStart: 20, gapEnd: 30)
        let noise = randomTexture(), row = 10 * width
        func hasStrip(_ grey: [Float]) -> Bool { strips(values, grey: grey).far[row + 20].isFinite }
        XCTAssertTrue(hasStrip(noise), "random texture")
        XCTAssertFalse(hasStrip(noise.map { 100 + $0 / 64 }), "flat: variance about 1.3 < 25")
        func stripes(period: Float) -> [Float] {
            (0..<(width * height)).map { i in 128 + 100 * sin(2 * .pi * Float(i % width) / period) + noise[i] / 16 }
        }
        XCTAssertFalse(hasStrip(stripes(period: 8)), "a period of 8")
        XCTAssertTrue(hasStrip(stripes(period: 11)), "a period of 11")
        // Stripes of period 8 (variance 5000) plus k x the noise (variance
        // about 5400): a ZNCC at the lag of about 1 / (1 + 1.08 k^2); for
        // this noise 0.68 at k = 0.7 and 0.41 at k = 1.3, either side of the
        // gate's 0.5.
        func mixed(_ k: Float) -> [Float] {
            (0..<(width * height)).map { i in 100 * sin(2 * .pi * Float(i % width) / 8) + k * noise[i] }
        }
        XCTAssertFalse(hasStrip(mixed(0.7)), "ZNCC 0.68")
        XCTAssertTrue(hasStrip(mixed(1.3)), "ZNCC 0.41")
    }

    /// Windows leaving the image decide nothing: rows near the top keep their strip.
    func testWindowsOutsideTheImageDecideNothing() {
        let nearlyFlat = randomTexture().map { 100 + $0 / 64 }
        let s = strips(map(far: 10, near: 18, gapStart: 20, gapEnd: 30), grey: nearlyFlat)
        XCTAssertTrue(s.far[2 * width + 20].isFinite, "row 2: the 13-row window leaves the image")
        XCTAssertTrue(s.far[10 * width + 20].isNaN, "row 10: a flat window refuses")
    }
}
