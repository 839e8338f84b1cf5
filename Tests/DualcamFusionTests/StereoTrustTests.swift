@testable import DualcamFusion
import XCTest

/// `StereoTrust.apply`: the locally aligned stereo replaces the completion
/// exactly where its calibrated predicted noise is at most the samples'
/// relative noise at that depth.
final class StereoTrustTests: XCTestCase {
    func testKeepsStereoWherePredictedMorePreciseThanASample() {
        // Samples: 1 % of the depth plus 1 cm. At z = 5 m (v = 0.2) sigma_s / z
        // = 0.01 + 0.01 / 5 = 0.012; calibrated 3.3 s against it.
        let noise = SampleNoise(absoluteMetres: 0.01, relative: 0.01)
        let corrected: [Float] = [0.2, 0.2, 0.2, 0.2, .nan, 0.5]
        let sigma: [Float] = [0.001, 0.0036, 0.0037, .nan, 0.0001, 0.0043]
        var inverse: [Float] = [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]
        let kept = StereoTrust().apply(&inverse, corrected: corrected, relativeSigma: sigma, noise: noise)
        // 3.3 x 0.0036 = 0.01188 <= 0.012 < 3.3 x 0.0037; at z = 2 m the
        // samples' bound is 0.015 and 3.3 x 0.0043 = 0.01419 is within it.
        XCTAssertEqual(inverse, [0.2, 0.2, 0.3, 0.3, 0.3, 0.5])
        XCTAssertEqual(kept, 3)
    }

    func testCalibrationAndFractionScaleTheThreshold() {
        let noise = SampleNoise(absoluteMetres: 0, relative: 0.01)
        var trust = StereoTrust()
        trust.calibration = 1
        trust.samplesNoiseFraction = 0.5
        var inverse: [Float] = [1, 1]
        trust.apply(&inverse, corrected: [0.25, 0.25], relativeSigma: [0.0049, 0.0051], noise: noise)
        XCTAssertEqual(inverse, [0.25, 1])
    }

    /// Only kept pixels change; an unknown stereo value keeps the completion's.
    func testReplacesOnlyKeptPixels() {
        let noise = SampleNoise(absoluteMetres: 0, relative: 0.01)
        var inverse: [Float] = [1, 1, 1]
        let count = StereoTrust().apply(&inverse, corrected: [0.25, 0.25, .nan], relativeSigma: [0.001, 0.01, 0.001], noise: noise)
        XCTAssertEqual(count, 1)
        XCTAssertEqual(inverse, [0.25, 1, 1])
    }
}
