@testable import DualcamFusion
import XCTest

/// `SampleNoise.unverified`: the samples' noise when none is verified (a
/// sparse grid), from their residuals against the globally aligned stereo.
final class SampleNoiseTests: XCTestCase {
    /// Samples at 2-10 m on a stereo d = 1/z, each off by +-1.5 % in depth:
    /// the fit's robust relative residual spread is 1.4826 x 0.015 (up to the
    /// first-order map between depth and inverse depth), and that is the noise.
    func testUnverifiedNoiseIsTheSpreadAgainstTheAlignedStereo() throws {
        let pairs = (0..<200).map { i -> InverseDepthPair in
            let z = 2 + 8 * Double(i) / 199
            let measured = z * (i % 2 == 0 ? 1.015 : 0.985)
            return InverseDepthPair(relative: 1 / z, inverseDepth: 1 / measured, weight: 1)
        }
        let fit = try ScaleShiftFitter.fit(pairs, options: ScaleShiftFitter.Options())
        let noise = SampleNoise.unverified(fit, stated: 0.01)
        XCTAssertEqual(noise.absoluteMetres, 0)
        XCTAssertEqual(noise.relative, fit.residualSigma)
        XCTAssertEqual(noise.relative, 1.4826 * 0.015, accuracy: 0.002)
        XCTAssertEqual(noise.sigmaMetres(depth: 5), 5 * noise.relative, accuracy: 1e-12)
    }

    func testWithoutStereoTheStatedNoiseStands() {
        XCTAssertEqual(SampleNoise.unverified(nil, stated: 0.02), SampleNoise(absoluteMetres: 0.02))
    }

    /// Verified samples' plane residuals take precedence over the fallback.
    func testPlaneResidualsTakePrecedence() {
        let depths = (0..<100).map { 1 + Double($0) / 100 }
        let residuals = [Double](repeating: 0.004, count: 100)
        let fallback = SampleNoise(absoluteMetres: 0, relative: 0.05)
        let estimated = SampleNoise.estimate(depthsMetres: depths, residualMetres: residuals, fallback: fallback)
        XCTAssertEqual(estimated.sigmaMetres(depth: 1.5), 1.4826 * 0.004, accuracy: 1e-6)
        XCTAssertEqual(SampleNoise.estimate(depthsMetres: [], residualMetres: [], fallback: fallback), fallback)
    }
}
