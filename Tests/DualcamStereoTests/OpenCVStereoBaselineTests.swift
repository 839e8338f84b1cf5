import DualcamImaging
import TestSupport
import XCTest
@testable import DualcamStereo

final class OpenCVStereoBaselineTests: XCTestCase {
    /// A random-dot RGB pair: the right image is the left one moved 12 px to
    /// the left (x_right = x_left - 12), so the disparity is 12 everywhere.
    func shiftedPair(width: Int = 160, height: Int = 64, shift: Int = 12) throws -> (Image, Image) {
        var generator = SeededGenerator(seed: 7)
        let wider = width + shift
        // 2x2 blocks of random colour: texture at a scale every matcher can lock on.
        var source = [UInt8](repeating: 0, count: wider * height * 3)
        for by in stride(from: 0, to: height, by: 2) {
            for bx in stride(from: 0, to: wider, by: 2) {
                let colour = (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) }
                for y in by..<min(height, by + 2) {
                    for x in bx..<min(wider, bx + 2) { for c in 0..<3 { source[(y * wider + x) * 3 + c] = colour[c] } }
                }
            }
        }
        func crop(_ x0: Int) throws -> Image {
            var pixels: [UInt8] = []
            for y in 0..<height { pixels += source[(y * wider + x0) * 3..<(y * wider + x0 + width) * 3] }
            return try Image(width: width, height: height, channels: 3, pixels: pixels)
        }
        return (try crop(0), try crop(shift))
    }

    func testEachMatcherFindsAConstantShift() throws {
        let (left, right) = try shiftedPair()
        for baseline in OpenCVStereoBaseline.allCases {
            let d = try baseline.disparity(left: left, right: right, numDisparities: 32)
            XCTAssertEqual(d.count, 160 * 64)
            // Columns x >= 32 can be searched; skip the block-sized border rows.
            var inside = 0, right12 = 0
            for y in 6..<58 {
                for x in 40..<154 {
                    inside += 1
                    if abs(d[y * 160 + x] - 12) <= 0.25 { right12 += 1 }
                }
            }
            XCTAssertGreaterThan(Double(right12) / Double(inside), 0.95, "\(baseline.label)")
            XCTAssertTrue(d[10 * 160 + 5].isNaN || baseline == .sgbmWLS, "\(baseline.label): columns left of the search are unmatched")
        }
    }

    func testSettingsAreOpenCVsSampleSettings() {
        let colour = OpenCVStereoBaseline.sgbm.matcher(minDisparity: 0, numDisparities: 224, channels: 3)
        XCTAssertEqual([colour.blockSize, colour.p1, colour.p2, colour.disp12MaxDiff, colour.preFilterCap, colour.uniqueness,
                        colour.speckleWindow, colour.speckleRange], [5, 600, 2400, 1, 63, 10, 100, 32])
        XCTAssertEqual(colour.sgbmMode, .sgbm3Way)
        XCTAssertNil(colour.wls)
        let filtered = OpenCVStereoBaseline.sgbmWLS.matcher(minDisparity: 0, numDisparities: 224, channels: 3)
        XCTAssertEqual(filtered.wls?.lambda, 8000)
        XCTAssertEqual(filtered.wls?.sigma, 1.5)
    }

    func testBadSearchesAndPairsAreErrors() throws {
        let (left, right) = try shiftedPair()
        XCTAssertThrowsError(try OpenCVStereoBaseline.sgbm.disparity(left: left, right: right, numDisparities: 20))
        XCTAssertThrowsError(try OpenCVStereoBaseline.sgbm.disparity(left: left, right: right, numDisparities: 0))
        let small = try Image(width: 80, height: 64, channels: 3, pixels: [UInt8](repeating: 0, count: 80 * 64 * 3))
        XCTAssertThrowsError(try OpenCVStereoBaseline.bm.disparity(left: left, right: small, numDisparities: 16))
        let float = try Image(width: 160, height: 64, channels: 1, pixels: [Float](repeating: 0, count: 160 * 64))
        XCTAssertThrowsError(try OpenCVStereoBaseline.sgbm.disparity(left: float, right: float, numDisparities: 16)) { error in
            XCTAssertTrue("\(error)".contains("8-bit"), "\(error)")
        }
    }
}
