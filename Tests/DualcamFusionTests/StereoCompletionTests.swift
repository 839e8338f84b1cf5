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
            distance: [Float](repeating: 3, count: n), used: used, completion: completion,
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

    /// A near surface (1/z = 1) at x < 30 and a far one (0.2) beyond, the
    /// stereo missing on x in 30..<30+`width` (the far surface there),
    /// samples every 4 px on the truth, and a guide that leaked 0.6 into the
    /// band. `nearLeft`: false puts the far surface on both sides (no step).
    func occlusionGuide(width: Int, nearLeft: Bool = true) -> (band: [Float], other: [Float]) {
        let n = size.width * size.height
        let truth = (0..<n).map { p -> Float in p % self.size.width < 30 && nearLeft ? 1 : 0.2 }
        let inBand = { (p: Int) in (30..<(30 + width)).contains(p % self.size.width) }
        let corrected = (0..<n).map { inBand($0) ? Float.nan : truth[$0] }
        let guide = (0..<n).map { inBand($0) ? Float(0.6) : truth[$0] }
        var samples: [MetricSample] = [], pixels: [Int] = []
        for y in stride(from: 1, to: size.height, by: 4) {
            for x in stride(from: 1, to: size.width, by: 4) {
                samples.append(MetricSample(x: Double(x), y: Double(y), depthMetres: Double(1 / truth[y * size.width + x])))
                pixels.append(y * size.width + x)
            }
        }
        let used = UsedSamples(samples, pixels: pixels, count: n, verdicts: samples.map { _ in .verified }, gross: nil)
        let out = StereoCompletion.guideInOcclusionBands(guide, corrected: corrected, samples: used.all, usedCount: used.count,
                                                         size: size, options: DepthFusion.Options(focalPixels: 100))
        // The band's columns at least 3 px from the near surface (whose nearest sample may lie on it).
        let inner = (0..<n).filter { inBand($0) && $0 % self.size.width >= 33 }
        return (inner.map { out[$0] }, (0..<n).filter { !inBand($0) }.map { out[$0] - guide[$0] })
    }

    func testOcclusionBandsTakeTheNearestSampleInTheGuide() {
        let (band, other) = occlusionGuide(width: 16)
        XCTAssertEqual(band.filter { $0 == 0.2 }.count, band.count, "the band's guide is the far samples' 1/z")
        XCTAssertEqual(other.filter { $0 != 0 }.count, 0, "nothing else changes")
    }

    func testHolesWithoutAStepOrNarrowerThanHalfASpacingKeepTheirGuide() {
        // No step across the hole: not an occlusion band.
        XCTAssertEqual(occlusionGuide(width: 16, nearLeft: false).band.filter { $0 != 0.6 }.count, 0)
        // One pixel wide: narrower than half the 4-px sample spacing.
        let n = size.width * size.height
        let corrected = (0..<n).map { p -> Float in p % size.width == 30 ? .nan : (p % size.width < 30 ? 1 : 0.2) }
        let guide = corrected.map { $0.isFinite ? $0 : 0.6 }
        let raster = Raster(samples: [MetricSample(x: 30, y: 10, depthMetres: 5)], pixels: [10 * size.width + 30], count: n) { _ in true }
        let out = StereoCompletion.guideInOcclusionBands(guide, corrected: corrected, samples: raster, usedCount: n / 16,
                                                         size: size, options: DepthFusion.Options(focalPixels: 100))
        XCTAssertEqual(out, guide)
    }

    func testNearestFillTakesTheClosestSample() {
        let small = PixelSize(width: 9, height: 3)
        let raster = Raster(samples: [MetricSample(x: 0, y: 1, depthMetres: 1), MetricSample(x: 8, y: 1, depthMetres: 4)],
                            pixels: [9, 17], count: 27) { _ in true }
        let fill = raster.nearestFill(small)
        XCTAssertEqual(fill[9 + 2], 1)
        XCTAssertEqual(fill[9 + 6], 0.25)
        XCTAssertEqual(fill[0], 1)
        XCTAssertEqual(fill[26], 0.25)
        XCTAssertTrue(fill.allSatisfy(\.isFinite))
    }

    /// The residual field R of `locallyAligned` on a flat stereo D = 0.2
    /// with samples whose residual is 0.01: dense samples (every 4th pixel
    /// of every 4th row) move D by nearly all of it; one lone sample, whose residual
    /// is as likely its own noise, moves D by less than the dense ones; without
    /// the prior the lone sample moves it as far as the dense ones.
    func testResidualFieldShrinksWhereFewSamplesReach() throws {
        let n = size.width * size.height
        let completion = try FusionCompletion(size: size, guideRGB: [UInt8](repeating: 128, count: n * 3))
        let stereo = [Float](repeating: 0.2, count: n)
        let centre = (size.height / 2) * size.width + size.width / 2
        func correction(dense: Bool, prior: Float) throws -> Float {
            var value = [Float](repeating: 0, count: n), weight = value
            for p in 0..<n where dense ? (p / size.width) % 4 == 0 && p % 4 == 0 : p == centre {
                value[p] = 0.21
                weight[p] = 1
            }
            let out = try completion.locallyAligned(stereo: stereo, sampleValue: value, sampleWeight: weight,
                                                    smoother: DepthFusion.Options(focalPixels: 100).residualSmoother,
                                                    priorWeight: prior)
            return out[centre] - 0.2
        }
        let prior = Float(DepthFusion.Options(focalPixels: 100).residualPriorWeight)
        let dense = try correction(dense: true, prior: prior), lone = try correction(dense: false, prior: prior)
        XCTAssertGreaterThan(dense, 0.009, "dense samples: nearly the whole residual")
        XCTAssertLessThan(lone, 0.5 * dense, "a lone sample: shrunk towards the global fit")
        XCTAssertEqual(try correction(dense: false, prior: 0), 0.01, accuracy: 0.001, "no prior: the lone residual in full")
    }
}
