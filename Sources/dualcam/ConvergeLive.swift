import DualcamCapture
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

extension ConvergeCommand {
    /// Converges live pairs from V4L2 cameras (two devices or one side-by-side
    /// device) until --count pairs or --duration, writing numbered frames or a
    /// video at the cameras' rate; `--stereo` naming a side-by-side image or
    /// video file instead converges its halves frame by frame. A lost camera
    /// ends the run: the pairs done so far are written, then the error is reported.
    /// With `distance` nil each pair is measured (around `at`) and the
    /// distance tracked over the pairs (`AutoDistanceTrack`).
    func convergeLive(_ inputs: PairInputs, distance: Distance?, at: TapPoint?) throws {
        let limit = try device.limit()
        let warp = try checkedWarp(try loadCalibration(calibration))
        let outPath = output ?? "converge-frames"
        _ = try FrameOutput(path: outPath, fps: fps ?? 30)  // validate the destination before opening inputs
        let (source, outputFPS) = try inputs.livePairs(fps: fps, size: camera.size, format: camera.format,
                                                       sizeFlag: "--size", formatFlag: "--format")
        let output = try FrameOutput(path: outPath, fps: outputFPS)
        let progress = Progress(label: "converge: pair", total: limit.pairs)
        let clock = Timings()
        var done = 0
        var firstNs: Int64?
        var track = AutoDistanceTrack()
        while let pair = try nextPair(source, limit: limit, done: done, firstNs: &firstNs) {
            let (image, _) = try convergedView(warp, pair.wide.image, pair.tele.image, wideK: pair.wide.intrinsics,
                                               teleK: pair.tele.intrinsics, distance: distance, at: at, track: &track, clock: clock)
            try clock.measure("write") { try output.write(image) }
            done += 1
            progress.update(done)
        }
        progress.end()
        guard done > 0 else {
            throw (source as? LivePairSource)?.stopReason ?? DualcamError.io(path: source.label, reason: "no synchronized pairs")
        }
        _ = try output.finish()
        for note in (source as? LivePairSource)?.notes ?? [] { FileHandle.standardError.write(Data("converge: \(note)\n".utf8)) }
        let s = source.statistics
        let target = output.isVideo ? "video \(output.path)" : "frames in \(output.path)"
        print("converge: \(done) pairs from \(source.label), \(view.rawValue) view on the \(canvas.rawValue) canvas -> \(target); skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs))"
              + (distance == nil ? "; \(track.summary)" : ""))
        if let reason = (source as? LivePairSource)?.stopReason { throw reason }
    }
}
