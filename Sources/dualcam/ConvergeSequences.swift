import DualcamCalibrationFiles
import DualcamCapture
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

extension ConvergeCommand {
    struct SequenceReport: Encodable {
        var inputs: [String: String]
        var calibration: String
        var pairs: Int
        var distanceMetres: [Double?]
        var canvas: String
        var view: String
        var outputs: [String]
        /// Per frame, with --distance auto: the tracked distance and what was measured.
        var tracking: [AutoDistanceTrack.Frame]?
        var timingsMs: [String: Double]
    }

    /// Converges every pair of two frame sequences (directories of images or
    /// videos), paired by timestamp or index (`openFilePairs`). Per-frame intrinsics sidecars next to
    /// directory frames are used when present. With `distance` nil each pair
    /// is measured (around `at` when given) and the distance tracked over
    /// the frames (`AutoDistanceTrack`).
    func convergeSequences(_ inputs: PairInputs, calibration loaded: LoadedCalibration, distance: Distance?, at: TapPoint?,
                           output: FrameOutput) throws {
        let (wide, tele) = try inputs.bothPaths()
        let source = try inputs.sequencePairs()
        let clock = Timings()
        let run = try convergePairs(source, calibration: loaded, distance: distance, at: at, clock: clock,
                                    progress: Progress(label: "converge: pair", total: source.expectedCount)) { _, image in
            try output.write(image)
        }
        let distances = run.distances
        guard !distances.isEmpty else {
            throw DualcamError.format(path: wide, reason: "no frames to converge")
        }
        let outputs = try clock.measure("write") { try output.finish() }
        if json {
            try printJSON(SequenceReport(inputs: ["wide": wide, "tele": tele], calibration: loaded.label,
                                         pairs: distances.count, distanceMetres: distances, canvas: canvas.rawValue,
                                         view: view.rawValue, outputs: outputs,
                                         tracking: distance == nil ? run.track.frames : nil, timingsMs: clock.milliseconds))
        } else {
            let target = output.isVideo ? "video \(output.path)" : "frames in \(output.path)"
            print("converge: \(distances.count) pairs (\(pairingSummary(source))), \(view.rawValue) view on the \(canvas.rawValue) canvas -> \(target)"
                  + (distance == nil ? "; \(run.track.summary)" : ""))
        }
    }

    struct PairsRun {
        /// Per pair: the distance used (nil = infinity).
        var distances: [Double?] = []
        var track = AutoDistanceTrack()
    }

    /// The converged view of every pair of `source`, handed to `write` with
    /// the pair's number (from 0). Shared by the sequence command and
    /// `dualcam batch`, so both give the same frames.
    func convergePairs(_ source: PairSource, calibration loaded: LoadedCalibration, distance: Distance?, at: TapPoint?,
                       clock: Timings, progress: Progress?, write: (Int, Image) throws -> Void) throws -> PairsRun {
        let warp = try ConvergenceWarp(rig: loaded.file.rig, canvas: canvas)
        var run = PairsRun()
        while let pair = try clock.measure("read", { try source.nextPair() }) {
            let (w, t) = (pair.wide, pair.tele)
            let wideK = try perFrameIntrinsics(sourceFile(of: w), w.image, .wide, loaded.file)
            let teleK = try perFrameIntrinsics(sourceFile(of: t), t.image, .tele, loaded.file)
            let (image, d) = try convergedView(warp, w.image, t.image, wideK: wideK, teleK: teleK, distance: distance, at: at,
                                               track: &run.track, clock: clock)
            try clock.measure("write") { try write(run.distances.count, image) }
            run.distances.append(d.isInfinite ? nil : d.metres)
            progress?.update(run.distances.count)
        }
        progress?.end()
        return run
    }

    /// The converged view of one pair at `distance`, or with `distance` nil
    /// at the distance measured (around `at`) and tracked over the pairs.
    func convergedView(_ warp: ConvergenceWarp, _ wide: Image, _ tele: Image, wideK: Intrinsics?, teleK: Intrinsics?,
                       distance: Distance?, at: TapPoint?, track: inout AutoDistanceTrack,
                       clock: Timings) throws -> (image: Image, distance: Distance) {
        let d = try distance ?? track.next(clock.measure("auto distance") {
            try autoDistance(warp, wide: wide, tele: tele, at: at, lowTexture: .accept, wideIntrinsics: wideK, teleIntrinsics: teleK)
        })
        let image = try clock.measure("view") {
            try warp.view(view, wide: wide, tele: tele, distance: d, wideIntrinsics: wideK, teleIntrinsics: teleK)
        }
        return (image, d)
    }
}
