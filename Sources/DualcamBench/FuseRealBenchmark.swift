import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamSynthetic
import Foundation

/// `dualcam bench fuse-real`: fusion accuracy where it is judged first (issue
/// 19), one `dualcam fuse --tele` run per case (`FusionYardstickRun`), with
/// its baselines in the same run: Middlebury Aloe with samples drawn from
/// its ground truth (2 % random and a 24x24 grid, 1 % noise, 2 % outliers)
/// at the default `streaming` size and at native size, then the room exactly
/// as `dualcam synth --scene room` makes it (clean and `--conditions real`,
/// 1280x960, LiDAR range 5 m: "beyond" is the truth beyond 5.1 m) at the
/// `streaming` size (320x240) and native.
/// Timing: the fusion of Aloe 2 % at the streaming size (stereo included)
/// against OpenCV's SGBM_3WAY on the full pair (the aligned-SGBM baseline's
/// matcher), each measured `runs` times in this run.
enum FuseRealBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        var table = [
            "| case | fused AbsRel % / RMSE m | interior AbsRel % | nearest AbsRel % | aligned stereo AbsRel % (coverage) / fused there | aligned SGBM AbsRel % (coverage) / fused there | beyond 5.1 m AbsRel % | verified off > 3 sigma | unfiltered coverage / AbsRel % | ms |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        var figures: [String: Double] = [:]
        func add(_ label: String, _ scene: FusionYardstick, _ run: FusionYardstickRun) throws {
            func pair(_ baseline: DepthErrors?, _ fused: DepthErrors?) -> String {
                guard let baseline, let fused else { return "-" }
                return String(format: "%.2f (%.3f) / %.2f", 100 * baseline.meanAbsoluteRelativeError, baseline.coverage,
                              100 * fused.meanAbsoluteRelativeError)
            }
            var beyond = "-"
            if scene.name.hasPrefix("room") {
                let mask = run.truth.map { $0.isFinite && $0 > 5.1 }
                let e = try DepthMetrics.compare(estimateMetres: run.outcome.result.filteredDepth, truthMetres: run.truth,
                                                 size: run.outputSize, mask: mask)
                beyond = String(format: "%.2f", 100 * e.meanAbsoluteRelativeError)
                figures["\(label) beyond 5.1 m AbsRel %"] = 100 * e.meanAbsoluteRelativeError
            }
            let all = run.fused.all
            table.append(String(format: "| %@ | %.2f / %.3f | %.2f | %.2f | %@ | %@ | %@ | %d of %d | %.3f / %.2f | %.0f |", label,
                                100 * all.meanAbsoluteRelativeError, all.rmseMetres, 100 * run.fused.interior.meanAbsoluteRelativeError,
                                100 * run.nearest.meanAbsoluteRelativeError, pair(run.alignedStereo, run.fusedOnStereo),
                                pair(run.alignedSGBM, run.fusedOnSGBM), beyond, run.verifiedOffNoise, run.verified,
                                run.unfiltered.coverage, 100 * run.unfiltered.meanAbsoluteRelativeError, run.milliseconds))
            figures["\(label) fused AbsRel %"] = 100 * all.meanAbsoluteRelativeError
            figures["\(label) nearest AbsRel %"] = 100 * run.nearest.meanAbsoluteRelativeError
            if let s = run.alignedSGBM { figures["\(label) aligned SGBM AbsRel %"] = 100 * s.meanAbsoluteRelativeError }
            if let s = run.fusedOnSGBM { figures["\(label) fused on SGBM pixels AbsRel %"] = 100 * s.meanAbsoluteRelativeError }
        }
        let relative: (Double) -> Double = { 0.01 * $0 }
        var timed: FusionYardstick?
        for (patternLabel, pattern) in FusionYardstick.patterns {
            let aloe = try FusionYardstick.aloe(pattern)
            if timed == nil { timed = aloe }
            let streaming = try DepthOutputSize.streaming.resolved(for: aloe.wideSize)
            for size in [streaming, aloe.wideSize] {
                try add("Aloe \(patternLabel) \(size)", aloe, try aloe.run(outputSize: size, noiseSigma: relative))
            }
        }
        for conditions in [CaptureConditions.clean, .real] {
            let room = try FusionYardstick.room(conditions: conditions)
            let label = conditions == .clean ? "room (synth defaults)" : "room, real conditions"
            for size in [try DepthOutputSize.streaming.resolved(for: room.wideSize), room.wideSize] {
                try add("\(label) \(size)", room, try room.run(outputSize: size, noiseSigma: { _ in 0.01 }))
            }
        }
        guard let aloe = timed else { throw BenchmarkError.noCase }
        let streaming = try DepthOutputSize.streaming.resolved(for: aloe.wideSize)
        let ours = try Timing.measure(runs: runs) { _ = try aloe.run(outputSize: streaming, noiseSigma: relative) }
        let reference = try Timing.measure(runs: runs) { _ = try aloe.alignedSGBMDepth(outputSize: streaming) }
        return BenchmarkResult(
            name: "fuse-real",
            work: "fuse --tele on Middlebury Aloe with samples from its ground truth and on synth's default room; baselines in the same run",
            reference: "OpenCV SGBM_3WAY on the full Aloe pair, fitted to the samples and resized (the aligned-SGBM baseline)",
            dualcam: ours, referenceTiming: reference, figures: figures, table: table.joined(separator: "\n"))
    }

    enum BenchmarkError: Error { case noCase }
}
