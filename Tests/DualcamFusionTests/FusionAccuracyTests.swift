import DualcamCalibrationFiles
import DualcamDepthMap
import DualcamImaging
import DualcamFusion
import DualcamGeometry
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// The acceptance figures of issue 6 on the synthetic `room` and `steps`
/// scenes (see `FusionScenario`): LiDAR-like samples at 0.5 %, 2 % and a
/// 24x24 dot grid with 1 cm noise and 2 % outliers, fused into 320x240
/// absolute depth, against two baselines computed here: nearest-sample fill
/// and the globally aligned stereo alone. All figures from `DepthMetrics`.
final class FusionAccuracyTests: XCTestCase {
    struct Run {
        var filtered: DepthErrorSplit
        var unfiltered: DepthErrors
        var nearest: DepthErrors
        var stereoAlone: DepthErrors?
        var fusedOnStereo: DepthErrors?
        var result: FusionResult
        var survivingOutliers: Int
    }

    func run(_ scenario: FusionScenario, _ pattern: LidarSampling.Pattern, stereo: Bool = true,
             morphology: Bool = false) throws -> Run {
        let size = FusionScenario.size
        let (samples, drawn) = try scenario.samples(pattern)
        let input = FusionInput(size: size, guideRGB: scenario.guideRGB, samples: samples, stereo: stereo ? scenario.stereo : nil)
        var options = DepthFusion.Options(focalPixels: scenario.focalPixels)
        if morphology { options.samplesOnlyCompletion = .morphology }
        let result = try DepthFusion.fuse(input, options: options)
        let truth = try DepthMap(size: size, values: scenario.truth, type: .depth)
        let filtered = try DepthMetrics.compareSplit(estimate: try DepthMap(size: size, values: result.filteredDepth, type: .depth),
                                                     truth: truth, bandRadius: 2)
        let unfiltered = try DepthMetrics.compare(estimateMetres: result.unfilteredDepth, truthMetres: scenario.truth, size: size)
        let nearest = try DepthMetrics.compare(estimateMetres: Self.nearestSampleFill(samples, size), truthMetres: scenario.truth, size: size)
        var stereoAlone: DepthErrors?
        var fusedOnStereo: DepthErrors?
        if stereo, let fit = result.fit {
            let aligned = Self.alignedStereoDepth(scenario.stereo, fit)
            stereoAlone = try DepthMetrics.compare(estimateMetres: aligned, truthMetres: scenario.truth, size: size)
            // Like for like: the fused map on the pixels where the stereo has values.
            fusedOnStereo = try DepthMetrics.compare(estimateMetres: result.filteredDepth, truthMetres: scenario.truth, size: size,
                                                     mask: aligned.map(\.isFinite))
        }
        // An outlier (measured > 3 % off its truth) survives when the
        // unfiltered output at its pixel is closer to its value than to the truth.
        var surviving = 0
        for (i, (s, d)) in zip(samples, drawn).enumerated() where d.isOutlier && abs(d.depth - d.trueDepth) > 0.03 * d.trueDepth {
            let x = min(size.width - 1, Int(s.x.rounded())), y = min(size.height - 1, Int(s.y.rounded()))
            let v = Double(result.unfilteredDepth[y * size.width + x])
            if v.isFinite && abs(v - d.depth) < abs(v - d.trueDepth) {
                surviving += 1
                print("surviving outlier: measured \(d.depth) truth \(d.trueDepth) output \(v) confidence \(d.confidence) verdict \(result.verdicts[i]) at \(x),\(y)")
            }
        }
        return Run(filtered: filtered, unfiltered: unfiltered, nearest: nearest, stereoAlone: stereoAlone, fusedOnStereo: fusedOnStereo, result: result,
                   survivingOutliers: surviving)
    }

    /// The stereo through the fit's scale and shift, as depth (NaN where not positive).
    static func alignedStereoDepth(_ stereo: [Float], _ fit: ScaleShiftFit) -> [Float] {
        stereo.map { d -> Float in
            let v = fit.apply(Double(d))
            return d.isFinite && v > 0 ? Float(1 / v) : .nan
        }
    }

    /// `dualcam fuse --tele` without the command line: 2 % samples drawn up
    /// to `rangeLimit` metres and the stereo computed from the rendered
    /// wide/tele pair by DualcamStereo, through `FusionPipeline`.
    static func fuseWithTele(_ scenario: FusionScenario, rangeLimit: Double) throws
        -> (outcome: FusionOutcome, stereo: TeleStereo.Output, wideSamples: [DepthSample]) {
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: FusionScenario.wideSize)
        let (_, drawn) = try scenario.samples(.random(fraction: 0.02), rangeLimit: rangeLimit)
        let wideSamples = drawn.map { DepthSample(x: Double($0.x), y: Double($0.y), depthMetres: $0.depth, confidence: $0.confidence) }
        let range = try XCTUnwrap(StereoDepthRange.fromSamples(depthsMetres: wideSamples.map(\.depthMetres)))
        let stereo = try TeleStereo.compute(rig: rig, wide: scenario.wideImage, tele: try scenario.teleImage(),
                                            outputSize: FusionScenario.size, depthRange: range)
        let outcome = try FusionPipeline.run(FusionRequest(
            wide: scenario.wideImage, wideIntrinsics: try rig.camera(.wide).model.intrinsics, samples: wideSamples,
            teleStereo: stereo, outputSize: FusionScenario.size))
        return (outcome, stereo, wideSamples)
    }

    /// Every pixel takes the depth of the nearest sample (4-connected flood fill from all samples, outliers included).
    static func nearestSampleFill(_ samples: [MetricSample], _ size: PixelSize) -> [Float] {
        let w = size.width, h = size.height
        var out = [Float](repeating: .nan, count: w * h)
        var queue: [Int] = []
        for s in samples {
            let p = min(h - 1, max(0, Int(s.y.rounded()))) * w + min(w - 1, max(0, Int(s.x.rounded())))
            if out[p].isNaN { out[p] = Float(s.depthMetres); queue.append(p) }
        }
        var head = 0
        while head < queue.count {
            let p = queue[head]; head += 1
            let x = p % w, y = p / w
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                let q = ny * w + nx
                if out[q].isNaN { out[q] = out[p]; queue.append(q) }
            }
        }
        return out
    }

    func report(_ label: String, _ r: Run) {
        func f(_ e: DepthErrors) -> String {
            String(format: "RMSE %.3f m, abs rel %.2f %%, coverage %.1f %%", e.rmseMetres, 100 * e.meanAbsoluteRelativeError, 100 * e.coverage)
        }
        print("fusion \(label): filtered \(f(r.filtered.all)); interior (2 px band excluded) \(f(r.filtered.interior)); "
              + "unfiltered \(f(r.unfiltered)); nearest-sample \(f(r.nearest))"
              + (r.stereoAlone.map { "; aligned stereo alone \(f($0))" } ?? "")
            + (r.fusedOnStereo.map { "; fused on the stereo's pixels \(f($0))" } ?? "")
              + "; outliers rejected \(r.result.count(.outlier)), surviving \(r.survivingOutliers)")
    }

    func checkCommon(_ r: Run, _ label: String) {
        XCTAssertEqual(r.filtered.all.coverage, 1, "\(label): filtered output is dense")
        XCTAssertLessThan(r.filtered.all.rmseMetres, r.nearest.rmseMetres, "\(label): beats nearest-sample fill on RMSE")
        XCTAssertLessThan(r.filtered.all.meanAbsoluteRelativeError, r.nearest.meanAbsoluteRelativeError, "\(label): beats nearest-sample fill on abs rel")
        if let s = r.stereoAlone, let fused = r.fusedOnStereo {
            XCTAssertLessThan(fused.rmseMetres, s.rmseMetres, "\(label): beats aligned stereo on RMSE")
            XCTAssertLessThan(fused.meanAbsoluteRelativeError, s.meanAbsoluteRelativeError, "\(label): beats aligned stereo on abs rel")
        }
        XCTAssertEqual(r.survivingOutliers, 0, "\(label): no outlier sample survives into unfiltered output")
    }

    func testRoom() throws {
        let scenario = try FusionScenario.named("room")
        for (label, pattern) in [("room 0.5 %", LidarSampling.Pattern.random(fraction: 0.005)),
                                 ("room 24x24 grid", .grid(columns: 24, rows: 24))] {
            let r = try run(scenario, pattern)
            report(label, r)
            checkCommon(r, label)
        }
        let r = try run(scenario, .random(fraction: 0.02))
        report("room 2 %", r)
        checkCommon(r, "room 2 %")
        // Measured (see docs/fusion.md): abs rel 0.65 % (target 1.5 % met), RMSE 0.140 m (edges; target 10 cm not
        // met), interior RMSE 1.8 cm (target 3 cm met); these bounds guard the measured level.
        XCTAssertLessThan(r.filtered.all.meanAbsoluteRelativeError, 0.008)
        XCTAssertLessThan(r.filtered.all.rmseMetres, 0.15)
        XCTAssertLessThan(r.filtered.interior.rmseMetres, 0.03, "issue 6: interior RMSE at most 3 cm")
        XCTAssertLessThan(r.filtered.interior.meanAbsoluteRelativeError, 0.004)
        XCTAssertGreaterThanOrEqual(r.unfiltered.coverage, 0.30)
        XCTAssertLessThanOrEqual(r.unfiltered.meanAbsoluteRelativeError, 0.01)
    }

    /// Where the RMSE of room 2 % comes from: output pixels whose 4x4 colour
    /// rays split 8/8 between two surfaces (`ColourTies`) look the same
    /// whichever surface the centre ray (the truth) hits, so any one-surface
    /// assignment gets half of them wrong in expectation. Outside them the
    /// fused map meets the 10 cm; their expected cost alone exceeds it.
    func testRoomRMSEOutsideColourTies() throws {
        let scenario = try FusionScenario.named("room")
        let r = try run(scenario, .random(fraction: 0.02))
        let ties = try ColourTies.find(scenario)
        let size = FusionScenario.size
        let outside = try DepthMetrics.compare(estimateMetres: r.result.filteredDepth, truthMetres: scenario.truth, size: size,
                                               mask: ties.isTie.map { !$0 })
        let valid = scenario.truth.lazy.filter(\.isFinite).count
        var tieSquaredError = 0.0, gapSum = 0.0
        for p in ties.isTie.indices where ties.isTie[p] {
            let e = Double(r.result.filteredDepth[p] - scenario.truth[p])
            tieSquaredError += e * e
            gapSum += Double(ties.squaredGap[p])
        }
        let floor = ties.expectedFloorRMSE(pixelCount: valid)
        let axisFloor = ties.expectedFloorRMSE(pixelCount: valid, axisAlignedOnly: true)
        print(String(format: "fusion room 2 %%: RMSE %.3f m; %d exact colour ties (%d along an image axis), expected RMSE of a hard assignment exact elsewhere %.3f m (%.3f m from the axis-aligned ties alone); fused squared error on the ties %.0f m^2 against a coin flip's %.0f m^2; RMSE outside the ties %.3f m",
                     r.filtered.all.rmseMetres, ties.count, ties.axisAlignedCount, floor, axisFloor, tieSquaredError, gapSum / 2, outside.rmseMetres))
        XCTAssertGreaterThan(ties.count, 100)
        XCTAssertGreaterThan(axisFloor, 0.10, "the axis-aligned ties alone put a one-surface-per-pixel output above 10 cm RMSE in expectation")
        XCTAssertLessThan(tieSquaredError, 0.6 * gapSum, "no worse than a coin flip on the ties")
        XCTAssertLessThan(outside.rmseMetres, 0.10, "issue 6: RMSE at most 10 cm where the colour can decide")
        XCTAssertEqual(outside.coverage, 1)
    }

    func testSteps() throws {
        let scenario = try FusionScenario.named("steps")
        for (label, pattern) in [("steps 0.5 %", LidarSampling.Pattern.random(fraction: 0.005)),
                                 ("steps 2 %", .random(fraction: 0.02)), ("steps 24x24 grid", .grid(columns: 24, rows: 24))] {
            let r = try run(scenario, pattern)
            report(label, r)
            checkCommon(r, label)
            if label == "steps 2 %" {
                // Measured: abs rel 1.43 %, interior RMSE 1.8 cm (RMSE 0.36 m: the steps' edges).
                XCTAssertLessThan(r.filtered.all.meanAbsoluteRelativeError, 0.015, "issue 6: abs rel at most 1.5 %")
                XCTAssertLessThan(r.filtered.interior.rmseMetres, 0.03)
                XCTAssertGreaterThanOrEqual(r.unfiltered.coverage, 0.30)
                XCTAssertLessThanOrEqual(r.unfiltered.meanAbsoluteRelativeError, 0.01)
            }
        }
    }

    func testSamplesOnlyIsDenseWithLowerConfidenceFarFromSamples() throws {
        let scenario = try FusionScenario.named("room")
        let r = try run(scenario, .grid(columns: 24, rows: 24), stereo: false)
        report("room 24x24 grid, samples only", r)
        XCTAssertEqual(r.filtered.all.coverage, 1)
        XCTAssertLessThan(r.filtered.all.rmseMetres, 0.45, "measured 0.429 m (0.590 m when the wide-hole fill ran here)")
        XCTAssertNil(r.result.fit)
        XCTAssertEqual(r.survivingOutliers, 0)
        // Confidence falls with the distance to the nearest sample.
        let size = FusionScenario.size
        let (samples, _) = try scenario.samples(.grid(columns: 24, rows: 24))
        var near: [Double] = [], far: [Double] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let d = samples.map { ($0.x - Double(x)) * ($0.x - Double(x)) + ($0.y - Double(y)) * ($0.y - Double(y)) }.min()!.squareRoot()
                let c = Double(r.result.confidence[y * size.width + x].rawValue)
                if d <= 1 { near.append(c) } else if d >= 6 { far.append(c) }
            }
        }
        let meanNear = near.reduce(0, +) / Double(near.count), meanFar = far.reduce(0, +) / Double(far.count)
        print(String(format: "samples only: mean confidence level %.2f within 1 px of a sample, %.2f beyond 6 px", meanNear, meanFar))
        XCTAssertGreaterThan(meanNear, meanFar + 0.5)
        XCTAssertEqual(far.filter { $0 == 2 }.count, 0, "nothing far from samples is high confidence")
        let r2 = try run(scenario, .random(fraction: 0.02), stereo: false)
        report("room 2 %, samples only", r2)
        XCTAssertEqual(r2.filtered.all.coverage, 1)
        XCTAssertLessThan(r2.filtered.all.rmseMetres, r2.nearest.rmseMetres)
        // The IP-Basic-style fast path: dense and better than nearest-sample fill (measured: lower interior RMSE
        // than the guided fill, but about 3 points more abs rel: the nearer surface wins at every edge).
        let r3 = try run(scenario, .random(fraction: 0.02), stereo: false, morphology: true)
        report("room 2 %, samples only, morphology", r3)
        XCTAssertEqual(r3.filtered.all.coverage, 1)
        XCTAssertLessThan(r3.filtered.all.meanAbsoluteRelativeError, r3.nearest.meanAbsoluteRelativeError)
        XCTAssertEqual(r3.survivingOutliers, 0)
    }

    /// A LiDAR with a 5 m range (as `dualcam synth`'s) sees none of the
    /// room's back wall (5.1-6 m): there the depth must come from the
    /// stereo, aligned where the samples are.
    func testSurfacesBeyondTheSensorRange() throws {
        let scenario = try FusionScenario.named("room")
        let size = FusionScenario.size
        let (samples, _) = try scenario.samples(.random(fraction: 0.02), rangeLimit: 5)
        let input = FusionInput(size: size, guideRGB: scenario.guideRGB, samples: samples, stereo: scenario.stereo)
        let result = try DepthFusion.fuse(input, options: DepthFusion.Options(focalPixels: scenario.focalPixels))
        let fit = try XCTUnwrap(result.fit)
        let beyond = scenario.truth.map { $0.isFinite && $0 > 5.1 }
        let beyondCount = beyond.filter { $0 }.count
        XCTAssertGreaterThan(beyondCount, 10000)
        XCTAssertEqual(samples.filter { $0.depthMetres > 5.1 }.count, 0)
        let all = try DepthMetrics.compare(estimateMetres: result.filteredDepth, truthMetres: scenario.truth, size: size)
        let fused = try DepthMetrics.compare(estimateMetres: result.filteredDepth, truthMetres: scenario.truth, size: size, mask: beyond)
        let aligned = Self.alignedStereoDepth(scenario.stereo, fit)
        let stereoAlone = try DepthMetrics.compare(estimateMetres: aligned, truthMetres: scenario.truth, size: size, mask: beyond)
        var bias = 0.0
        for p in beyond.indices where beyond[p] { bias += Double(result.filteredDepth[p] - scenario.truth[p]) }
        bias /= Double(beyondCount)
        print(String(format: "fusion room 2 %%, samples up to 5 m: RMSE %.3f m, abs rel %.2f %%; beyond 5.1 m: RMSE %.3f m, abs rel %.2f %%, mean error %+.3f m; aligned stereo alone there: RMSE %.3f m, abs rel %.2f %%",
                     all.rmseMetres, 100 * all.meanAbsoluteRelativeError, fused.rmseMetres, 100 * fused.meanAbsoluteRelativeError, bias,
                     stereoAlone.rmseMetres, 100 * stereoAlone.meanAbsoluteRelativeError))
        XCTAssertEqual(fused.coverage, 1)
        XCTAssertLessThan(fused.meanAbsoluteRelativeError, stereoAlone.meanAbsoluteRelativeError, "beats the aligned stereo beyond the range")
        XCTAssertLessThan(fused.meanAbsoluteRelativeError, 0.025)
        XCTAssertLessThan(abs(bias), 0.1, "no pull towards the samples' depths")
        XCTAssertLessThan(all.meanAbsoluteRelativeError, 0.015)

        // With `--tele` stereo, which sees only the middle of the wide view:
        // beyond the range and outside the tele's view nothing measures the
        // wall; those holes take the half-resolution fill of their surface
        // (`FusionCompletion.fillWideHoles`), then the planes of their own
        // colour (`PlaneExtrapolation.colour`). Measured 7.8 % (11.5 %
        // without the colour test, 14.3 % with the last-resort morphology
        // alone, 31 % before the stereo was kept where no sample reaches);
        // the aligned tele stereo alone 8.5 % on its 54 % of the wall.
        let (outcome, _, _) = try Self.fuseWithTele(scenario, rangeLimit: 5)
        let teleAll = try DepthMetrics.compare(estimateMetres: outcome.result.filteredDepth, truthMetres: scenario.truth, size: size)
        let teleBeyond = try DepthMetrics.compare(estimateMetres: outcome.result.filteredDepth, truthMetres: scenario.truth, size: size,
                                                  mask: beyond)
        print(String(format: "fusion room 2 %%, samples up to 5 m, --tele stereo: RMSE %.3f m, abs rel %.2f %%; beyond 5.1 m: RMSE %.3f m, abs rel %.2f %%",
                     teleAll.rmseMetres, 100 * teleAll.meanAbsoluteRelativeError, teleBeyond.rmseMetres, 100 * teleBeyond.meanAbsoluteRelativeError))
        XCTAssertEqual(teleBeyond.coverage, 1)
        XCTAssertLessThan(teleBeyond.meanAbsoluteRelativeError, 0.09)
        XCTAssertLessThan(teleAll.meanAbsoluteRelativeError, 0.03)
    }

    /// The `--tele` path: stereo computed from the rendered wide/tele pair by
    /// DualcamStereo (reference wide, measured values only), then fused.
    func testTeleStereoThroughDualcamDepth() throws {
        let scenario = try FusionScenario.named("room")
        let size = FusionScenario.size
        let (outcome, stereo, wideSamples) = try Self.fuseWithTele(scenario, rangeLimit: 6.5)
        let fit = try XCTUnwrap(outcome.result.fit)
        let fused = try DepthMetrics.compare(estimateMetres: outcome.result.filteredDepth, truthMetres: scenario.truth, size: size)
        let interior = try DepthMetrics.compare(
            estimateMetres: outcome.result.filteredDepth, truthMetres: scenario.truth, size: size,
            mask: try DepthMetrics.discontinuityBand(truthMetres: scenario.truth, size: size, radius: 2).map { !$0 })
        let samples = wideSamples.map { MetricSample(x: $0.x / 2, y: $0.y / 2, depthMetres: $0.depthMetres) }
        let nearest = try DepthMetrics.compare(estimateMetres: Self.nearestSampleFill(samples, size), truthMetres: scenario.truth, size: size)
        let stereoAlone = try DepthMetrics.compare(
            estimateMetres: try stereo.map.resized(to: size, method: .area).values.map { z in
                let v = z.isFinite && z > 0 ? fit.apply(Double(1 / z)) : .nan
                return v > 0 ? Float(1 / v) : .nan
            }, truthMetres: scenario.truth, size: size)
        print(String(format: "fusion room 2 %% with --tele stereo: fit scale %.4f shift %.4f (%d/%d inliers); filtered RMSE %.3f m, abs rel %.2f %%; interior RMSE %.3f m, abs rel %.2f %%; nearest-sample RMSE %.3f m, abs rel %.2f %%; aligned tele stereo alone RMSE %.3f m, abs rel %.2f %%, coverage %.1f %%",
                     fit.scale, fit.shift, fit.inlierCount, fit.usableCount, fused.rmseMetres, 100 * fused.meanAbsoluteRelativeError,
                     interior.rmseMetres, 100 * interior.meanAbsoluteRelativeError, nearest.rmseMetres, 100 * nearest.meanAbsoluteRelativeError,
                     stereoAlone.rmseMetres, 100 * stereoAlone.meanAbsoluteRelativeError, 100 * stereoAlone.coverage))
        XCTAssertGreaterThan(fit.usableCount, 1000)
        XCTAssertEqual(fused.coverage, 1)
        XCTAssertLessThan(fused.rmseMetres, nearest.rmseMetres)
        XCTAssertLessThan(fused.meanAbsoluteRelativeError, nearest.meanAbsoluteRelativeError)
        XCTAssertLessThan(fused.meanAbsoluteRelativeError, stereoAlone.meanAbsoluteRelativeError)
    }
}
