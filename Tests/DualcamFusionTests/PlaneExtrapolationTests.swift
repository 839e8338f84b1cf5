import XCTest
import DualcamGeometry
import DualcamOpenCV
import TestSupport
@testable import DualcamFusion

final class PlaneExtrapolationTests: XCTestCase {
    /// Below the chamfer's diagonal step `unsupported` decides the stereo's
    /// reach from the pixel and its 4-neighbours: the same pixels as the
    /// distance transform's test, on random stereo holes and sample distances.
    func testStereoReachBelowTheDiagonalMatchesTheDistanceTransform() throws {
        let size = PixelSize(width: 37, height: 29), n = 37 * 29
        var generator = SeededGenerator(seed: 19)
        for trial in 0..<6 {
            let holeFraction = [0.3, 0.6, 0.9, 0.97, 0.5, 0.8][trial]
            let stereo = (0..<n).map { _ in Double.random(in: 0..<1, using: &generator) < holeFraction ? Float.nan : 1 }
            let distanceToSamples = (0..<n).map { _ in Float.random(in: 0..<20, using: &generator) }
            var measured = [UInt8](repeating: 0, count: n)
            for p in 0..<n where stereo[p].isFinite { measured[p] = 255 }
            let distance = FloatMaps.floats(try CVEdgeAware.distanceToNonzero(try FloatMaps.mat(bytes: measured, channels: 1, size)))
            for stereoReach in [0.0, 0.5, 1.0, 1.2, 1.38] {
                var extrapolation = PlaneExtrapolation()
                extrapolation.stereoReach = stereoReach
                let got = try extrapolation.unsupported(size: size, distanceToSamples: distanceToSamples, reach: 8, stereo: stereo,
                                                        sampleWeight: [], gate: { nil })
                let expected = (0..<n).map { distanceToSamples[$0] > 8 && !(distance[$0] <= Float(stereoReach)) }
                XCTAssertEqual(got, expected, "holes \(holeFraction), stereo reach \(stereoReach)")
            }
        }
    }
}
