import DualcamCalibrationFiles
import DualcamCapture
import DualcamStereo
import DualcamDepthMap
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
    /// (`TemporalSmoother`). Maps are staged in a hidden
    /// directory and moved into place at the end, so a failure leaves nothing.
    func depthSequences(_ inputs: PairInputs, calibration loaded: LoadedCalibration, settings: Settings, output: String) throws {
        let (wide, tele) = try inputs.bothPaths()
        let source = try inputs.sequencePairs()
        let staged = try StagedDirectory(beside: URL(fileURLWithPath: output), tag: "partial")
        defer { staged.discard() }
        let clock = Timings()
        let run = try depthPairs(source, calibration: loaded, settings: settings, firstIndex: 0, keepFrom: 0, clock: clock,
                                 progress: Progress(label: "depth: pair", total: source.expectedCount), into: staged.url(for:))
        guard !run.names.isEmpty else { throw DualcamError.format(path: wide, reason: "no frames to process") }
        try staged.publish(run.names.flatMap { [$0, $0 + ".json"] }, to: URL(fileURLWithPath: output))
        if json {
            try printJSON(SequenceReport(inputs: ["wide": wide, "tele": tele], calibration: loaded.label, pairs: run.names.count,
                                         reference: run.reference ?? "", mode: settings.options.filtered ? "filtered" : "unfiltered",
                                         measuredFraction: run.fractions, output: output, timingsMs: clock.milliseconds))
        } else {
            print("depth: \(run.names.count) pairs, \(pairingSummary(source)) -> \(output)/depth_NNNN.\(format.rawValue)")
        }
    }

    struct PairsRun {
        /// Map files written (each with a `.json` sidecar).
        var names: [String] = []
        var fractions: [Double] = []
        var reference: String?
        /// Pairs read, the discarded warm-up included.
        var pairsRead = 0
    }

    /// Depth for every pair of `source`, the pairs numbered from
    /// `firstIndex`: the map of pair k is `depth_kkkk.FORMAT` (+ `.json`) at
    /// `url(name)`. Pairs numbered below `keepFrom` are a warm-up: computed
    /// (they feed the temporal smoothing) but not written. The estimator is
    /// rebuilt only when the buffer sizes or per-frame intrinsics change.
    /// Shared by the sequence command and `dualcam batch`, so both give the same maps.
    func depthPairs(_ source: PairSource, calibration loaded: LoadedCalibration, settings: Settings, firstIndex: Int,
                    keepFrom: Int, clock: Timings, progress: Progress?, into url: (String) -> URL) throws -> PairsRun {
        let temporal = TemporalSmoother()
        var estimators = Estimators(rig: loaded.file.rig, settings: settings)
        var run = PairsRun()
        while let pair = try clock.measure("read", { try source.nextPair() }) {
            let index = firstIndex + run.pairsRead
            run.pairsRead += 1
            let (w, t) = (pair.wide, pair.tele)
            let wideK = try perFrameIntrinsics(sourceFile(of: w), w.image, .wide, loaded.file)
            let teleK = try perFrameIntrinsics(sourceFile(of: t), t.image, .tele, loaded.file)
            let estimator = try estimators.estimator(self, wide: w.image, tele: t.image, wideK: wideK, teleK: teleK, clock: clock)
            let result = try clock.measure("depth") { try estimator.estimate(wide: w.image, tele: t.image, temporal: temporal) }
            run.reference = estimator.reference.rawValue
            guard index >= keepFrom else { continue }
            let name = String(format: "depth_%04d.%@", index, format.rawValue)
            _ = try clock.measure("write") {
                try write(result, settings: estimators.settings, to: url(name), extras: .none)
            }
            run.names.append(name)
            run.fractions.append(result.validFraction)
            progress?.update(run.names.count)
        }
        progress?.end()
        return run
    }

    /// The estimator for each pair's geometry, made again only when the
    /// buffer sizes or the per-frame intrinsics change (timed as "setup" on
    /// `clock` when given); `settings` carries the output size resolved for
    /// the latest one.
    struct Estimators {
        let rig: Rig
        var settings: Settings
        private var current: StereoDepthEstimator?
        private var key: [String] = []

        init(rig: Rig, settings: Settings) {
            self.rig = rig
            self.settings = settings
        }

        mutating func estimator(_ command: DepthCommand, wide: Image, tele: Image, wideK: Intrinsics?,
                                teleK: Intrinsics?, clock: Timings? = nil) throws -> StereoDepthEstimator {
            let wideSize = PixelSize(width: wide.width, height: wide.height)
            let teleSize = PixelSize(width: tele.width, height: tele.height)
            let newKey = ["\(wideSize)", "\(teleSize)", "\(String(describing: wideK))", "\(String(describing: teleK))"]
            if let current, newKey == key { return current }
            func make() throws -> StereoDepthEstimator {
                try command.makeEstimator(rig: rig, wideSize: wideSize, teleSize: teleSize, wideK: wideK, teleK: teleK,
                                          settings: &settings)
            }
            let made = try clock.map { try $0.measure("setup", make) } ?? make()
            current = made
            key = newKey
            return made
        }
    }
}
