@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `StereoCompletion.complete`: where the stereo measured nothing, the
/// smoothed stereo's extension does not outvote the samples that reach there.
final class StereoCompletionTests: XCTestCase {
    let size = PixelSize(width: 96, height: 64)

    /// One grey surface at 5 m (1/z = 0.2) sampled every 6 px; the stereo
    /// measured it except in a 16-px band, where the smoothed stereo S holds
    /// a foreground's 1/z = 0.5 (as a smoothing spreads a near object into
    /// the occlusion beside it). `samplesReach`: the samples-only fill has a
    /// value in the band.
    func completeBand(samplesReach: Bool) throws -> (band: [Float], outside: [Float]) {
        let n = size.width * size.height
        let guide = [UInt8](repeating: 128, count: n * 3)
        var samples: [MetricSample] = [], pixels: [Int] = []
        for y in stride(from: 2, to: size.height, by: 6) {
            for x in stride(from: 2, to: size.width, by: 6) {
                samples.append(MetricSample(x: Double(x), y: Double(y), depthMetres: 5))
                pixels.append(y * size.width + x)
            }
        }
        let inBand = { (p: Int) in (40..<56).contains(p % self.size.width) }
        let corrected = (0..<n).map { inBand($0) ? Float.nan : 0.2 }
        let smoothed = (0..<n).map { inBand($0) ? Float(0.5) : 0.2 }
        let samplesOnly = (0..<n).map { inBand($0) && !samplesReach ? Float.nan : 0.2 }
        let used = UsedSamples(samples, pixels: pixels, count: n, verdicts: samples.map { _ in .verified }, gross: nil)
        let completion = try FusionCompletion(size: size, guideRGB: guide)
        let out = try StereoCompletion.complete(
            smoothed: smoothed, corrected: corrected, samplesOnly: samplesOnly, agreement: [Float](repeating: 1, count: n),
            distance: [Float](repeating: 3, count: n), stereoSigma: 0.01, used: used, completion: completion,
            options: DepthFusion.Options(focalPixels: 100))
        return ((0..<n).filter(inBand).map { out[$0] }, (0..<n).filter { !inBand($0) }.map { out[$0] })
    }

    func testStereoHolesTakeTheSamplesWhereTheyReach() throws {
        let (band, outside) = try completeBand(samplesReach: true)
        let worst = band.map { abs($0 - 0.2) / 0.2 }.max() ?? .infinity
        XCTAssertLessThan(worst, 0.01, "the samples decide in the stereo's hole")
        XCTAssertLessThan(outside.map { abs($0 - 0.2) / 0.2 }.max() ?? .infinity, 0.01)
    }

    func testBeyondTheSamplesTheSmoothedStereoStillCounts() throws {
        // Where no sample reaches, S's extension is all there is besides the
        // samples around: it keeps its weight and pulls the band towards 0.5.
        let (band, _) = try completeBand(samplesReach: false)
        let mean = band.reduce(0, +) / Float(band.count)
        XCTAssertGreaterThan(mean, 0.25)
    }
}
