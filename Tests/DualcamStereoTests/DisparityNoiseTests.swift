import XCTest
@testable import DualcamStereo

/// `DisparityNoise.boundsDepth`: a disparity bounds its depth only above one
/// calibrated sigma of its predicted noise.
final class DisparityNoiseTests: XCTestCase {
    func testADisparityMustExceedOneCalibratedSigma() {
        let k = DisparityNoise.calibration
        // sigma 0.1 px uncalibrated -> 0.33 px calibrated.
        XCTAssertTrue(DisparityNoise.boundsDepth(disparity: 0.34, sigma: 0.1))
        XCTAssertFalse(DisparityNoise.boundsDepth(disparity: 0.32, sigma: 0.1))
        XCTAssertFalse(DisparityNoise.boundsDepth(disparity: k * 0.1, sigma: 0.1), "the interval reaches infinity")
        // Far from its noise (a near surface) any disparity is kept.
        XCTAssertTrue(DisparityNoise.boundsDepth(disparity: 40, sigma: 0.5))
        XCTAssertFalse(DisparityNoise.boundsDepth(disparity: 1, sigma: 0.5))
    }

    func testWithoutAPredictionTheValueStands() {
        XCTAssertTrue(DisparityNoise.boundsDepth(disparity: 0.01, sigma: .nan))
    }

    /// `DisparityNoise.isPrecise`: calibrated sigma within the relative bound
    /// of the disparity (the unfiltered map's 5 %).
    func testPrecisionIsRelativeToTheDisparity() {
        // 3.3 x 0.15 = 0.495 <= 0.05 x 10; 3.3 x 0.16 = 0.528 > 0.5.
        XCTAssertTrue(DisparityNoise.isPrecise(disparity: 10, sigma: 0.15, relativeDepthNoise: 0.05))
        XCTAssertFalse(DisparityNoise.isPrecise(disparity: 10, sigma: 0.16, relativeDepthNoise: 0.05))
        // The same sigma on a near surface (large disparity) is precise.
        XCTAssertTrue(DisparityNoise.isPrecise(disparity: 40, sigma: 0.16, relativeDepthNoise: 0.05))
        XCTAssertTrue(DisparityNoise.isPrecise(disparity: 1, sigma: .nan, relativeDepthNoise: 0.05))
        XCTAssertFalse(DisparityNoise.isPrecise(disparity: .nan, sigma: 0.01, relativeDepthNoise: 0.05))
    }
}
