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
    func convergeLive(distance: Distance?, at: Vector2?, view: ConvergenceView, canvas: ConvergenceCanvas) throws {
        let stereoFile = device.stereo.map { !isCharacterDevice($0) } ?? false
        let limit = try device.limit()
        let options = stereoFile ? nil : try device.liveOptions(wide: wide, tele: tele, fps: fps)
        if stereoFile {
            if let flag = [("--size", device.size), ("--format", device.format), ("--max-skew", device.maxSkew)].first(where: { $0.1 != nil })?.0 ?? (device.fit ? "--fit" : nil) {
                throw DualcamError.invalidValue(name: flag, reason: "applies to cameras, not to the side-by-side file \(device.stereo!)")
            }
        } else if limit.pairs == nil && limit.durationNs == nil {
            throw DualcamError.invalidValue(name: "--count/--duration", reason: "give one with cameras (the output is written when the run ends)")
        }
        let loaded = try loadCalibration(calibration)
        let warp: ConvergenceWarp
        do { warp = try ConvergenceWarp(rig: loaded.file.rig, canvas: canvas) } catch {
            throw DualcamError.invalidValue(name: loaded.label, reason: oneLine(error))
        }
        let outPath = output ?? "converge-frames"
        _ = try FrameOutput(path: outPath, fps: fps ?? 30)  // validate the destination before opening inputs
        let source: PairSource
        let outputFPS: Double
        if let options {
            let live = try LivePairSource(options: options)
            source = live
            outputFPS = live.modes.first?.framesPerSecond ?? 30
        } else {
            let file = try SideBySideSource(path: device.stereo!, nominalFPS: fps ?? 10)
            source = file
            outputFPS = fps ?? file.framesPerSecond
        }
        let output = try FrameOutput(path: outPath, fps: outputFPS)
        let progress = Progress(label: "converge: pair", total: limit.pairs)
        let clock = Timings()
        var done = 0
        var firstNs: Int64?
        while limit.pairs.map({ done < $0 }) ?? true, let pair = try source.nextPair() {
            if firstNs == nil { firstNs = pair.wide.timestampNs }
            if let d = limit.durationNs, pair.wide.timestampNs - firstNs! >= d { break }
            let d = try distance ?? clock.measure("auto distance") {
                try warp.autoDistance(wide: pair.wide.image, tele: pair.tele.image, options: AutoConvergenceOptions(at: at),
                                      wideIntrinsics: pair.wide.intrinsics, teleIntrinsics: pair.tele.intrinsics).distance
            }
            let registered = try clock.measure("warp") {
                try warp.register(wide: pair.wide.image, tele: pair.tele.image, distance: d,
                                  wideIntrinsics: pair.wide.intrinsics, teleIntrinsics: pair.tele.intrinsics)
            }
            let image = try clock.measure("compose") { try ConvergenceViews.compose(view, registered) }
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
        print("converge: \(done) pairs from \(source.label), \(view.rawValue) view on the \(canvas.rawValue) canvas -> \(target); skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs))")
        if let reason = (source as? LivePairSource)?.stopReason { throw reason }
    }
}
