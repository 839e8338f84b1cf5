import DualcamCalibration
import DualcamCapture
import DualcamDepth
import DualcamDepthData
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

extension DepthCommand {
    struct SequenceReport: Encodable {
        var inputs: [String: String]
        var calibration: String
        var pairs: Int
        var reference: String
        var mode: String
        var measuredFraction: [Double]
        var output: String
        var timingsMs: [String: Double]
    }

    /// Depth for every pair of two frame sequences (directories or videos),
    /// paired by timestamp or index (`openFilePairs`), written as numbered maps (`depth_0000.pfm` + sidecars)
    /// into the directory `output`. Filtered output is also smoothed over time
    /// (`TemporalSmoother`). The estimator is rebuilt only when the buffer
    /// sizes or per-frame intrinsics change. Maps are staged in a hidden
    /// directory and moved into place at the end, so a failure leaves nothing.
    func depthSequences(wide: String, tele: String, calibration loaded: LoadedCalibration, settings: Settings,
                        output: String) throws {
        let source = try openFilePairs(wide: wide, tele: tele, maxSkew: device.maxSkew)
        let staged = try StagedDirectory(output: output)
        defer { staged.discard() }
        let total = source.expectedCount
        let progress = Progress(label: "depth: pair", total: total)
        let clock = Timings()
        let temporal = TemporalSmoother()
        var settings = settings
        var estimator: StereoDepthEstimator?
        var key: [String] = []
        var fractions: [Double] = []
        var names: [String] = []
        while let pair = try clock.measure("read", { try source.nextPair() }) {
            let (w, t) = (pair.wide, pair.tele)
            let wideK = try perFrameIntrinsics(sourceFile(of: w), w.image, .wide, loaded.file)
            let teleK = try perFrameIntrinsics(sourceFile(of: t), t.image, .tele, loaded.file)
            let wideSize = PixelSize(width: w.image.width, height: w.image.height)
            let teleSize = PixelSize(width: t.image.width, height: t.image.height)
            let newKey = ["\(wideSize)", "\(teleSize)", "\(String(describing: wideK))", "\(String(describing: teleK))"]
            if estimator == nil || newKey != key {
                estimator = try clock.measure("setup") {
                    try makeEstimator(rig: loaded.file.rig, wideSize: wideSize, teleSize: teleSize, wideK: wideK, teleK: teleK,
                                      settings: &settings)
                }
                key = newKey
            }
            let result = try clock.measure("depth") { try estimator!.estimate(wide: w.image, tele: t.image, temporal: temporal) }
            let name = String(format: "depth_%04d.%@", names.count, format.lowercased())
            _ = try clock.measure("write") {
                try write(result, settings: settings, to: staged.url(for: name), extras: .none)
            }
            names.append(name)
            fractions.append(result.validFraction)
            progress.update(names.count)
        }
        progress.end()
        guard !names.isEmpty else { throw DualcamError.format(path: wide, reason: "no frames to process") }
        try staged.publish(names)
        if json {
            try printJSON(SequenceReport(inputs: ["wide": wide, "tele": tele], calibration: loaded.label, pairs: names.count,
                                         reference: estimator?.reference.rawValue ?? "", mode: settings.options.filtered ? "filtered" : "unfiltered",
                                         measuredFraction: fractions, output: output, timingsMs: clock.milliseconds))
        } else {
            print("depth: \(names.count) pairs, \(pairingSummary(source)) -> \(output)/depth_NNNN.\(format.lowercased())")
        }
    }
}
