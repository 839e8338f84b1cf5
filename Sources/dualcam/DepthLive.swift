import DualcamCapture
import DualcamStereo
import DualcamGeometry
import DualcamSupport
import Foundation

extension DepthCommand {
    /// Depth for live pairs from V4L2 cameras (two devices or one side-by-side
    /// device, until --count or --duration) or for a side-by-side image or
    /// video (`--stereo FILE`), written as numbered maps like
    /// `depthSequences`. Maps are staged and moved into place at the end; when
    /// a camera is lost, the maps done so far are moved into place and the
    /// error is reported.
    func depthLive(_ inputs: PairInputs, calibration loaded: LoadedCalibration, settings: Settings, output: String) throws {
        let staged = try StagedDirectory(beside: URL(fileURLWithPath: output), tag: "partial")
        defer { staged.discard() }
        let limit = try device.limit()
        let (source, _) = try inputs.livePairs(fps: fps, size: cameraSize, format: cameraFormat,
                                               sizeFlag: "--camera-size", formatFlag: "--camera-format")
        let progress = Progress(label: "depth: pair", total: limit.pairs)
        let temporal = TemporalSmoother()
        var estimators = Estimators(rig: loaded.file.rig, settings: settings)
        var names: [String] = []
        var firstNs: Int64?
        while let pair = try nextPair(source, limit: limit, done: names.count, firstNs: &firstNs) {
            let estimator = try estimators.estimator(self, wide: pair.wide.image, tele: pair.tele.image, wideK: nil, teleK: nil)
            let result = try estimator.estimate(wide: pair.wide.image, tele: pair.tele.image, temporal: temporal)
            let name = String(format: "depth_%04d.%@", names.count, format.rawValue)
            _ = try write(result, settings: estimators.settings, to: staged.url(for: name), extras: .none)
            names.append(name)
            progress.update(names.count)
        }
        progress.end()
        let lost = (source as? LivePairSource)?.stopReason
        guard !names.isEmpty else { throw lost ?? DualcamError.io(path: source.label, reason: "no pairs to process") }
        try staged.publish(names.flatMap { [$0, $0 + ".json"] }, to: URL(fileURLWithPath: output))
        let s = source.statistics
        print("depth: \(names.count) pairs from \(source.label) -> \(output)/depth_NNNN.\(format.rawValue); skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs))")
        if let lost { throw lost }
    }
}
