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
}
