import ArgumentParser
import DualcamCalibrationFiles
import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation

struct DepthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "depth",
        abstract: "Stereo depth from a wide/tele (or same-lens) pair, aligned to a reference camera.",
        discussion: """
            Both images are rectified into one common camera pair, matched (SGBM, left-right check,
            subpixel refinement, confidence) and the result is mapped into the reference camera at --size.
            Default reference: the narrower camera (tele on a wide/tele rig). With --reference wide,
            pixels outside the tele overlap are NaN. A JSON sidecar (OUT.json) describes the map.
            Without --wide/--tele the built-in demo scene (room) and the nominal rig are used.
            --wide/--tele directories or videos are sequences: -o is then a directory of numbered maps.
            With cameras (--wide/--tele naming V4L2 devices, or --stereo DEVICE) live pairs are
            synchronized and processed until --count pairs or --duration; --stereo also takes a
            side-by-side image or video.

            Example: dualcam depth --wide w.png --tele t.png -o depth.pfm --preview depth.png
            """
    )

    @Option(name: .long, help: "Wide image, directory or video (with --tele).")
    var wide: String?

    @Option(name: .long, help: "Tele image, directory or video (with --wide).")
    var tele: String?

    @Option(name: .long, help: "Calibration file (default: the nominal phone wide/tele rig).")
    var calibration: String?

    @Option(name: .long, help: "Reference camera: wide or tele (default: the narrower one).")
    var reference: ReferenceCamera?

    @Option(name: .long, help: "Values: depth (m), disparity (1/m) or pixels (pixel disparity at the output size).")
    var type: DepthDataType = .depth

    @Option(name: .long, help: "Float precision of the file, in bits.")
    var precision: DepthPrecision = .float32

    @Option(name: .long, help: "Output size: streaming (320 wide), photo (768 wide), native, or WxH.")
    var size: String = "photo"

    @Option(name: .long, help: "filtered (dense, smoothed, holes filled) or unfiltered (measured values, by default those precise to 5 % (--max-noise), NaN holes).")
    var mode: FilterMode = .filtered

    @Option(name: .customLong("max-noise"), parsing: .unconditional, help: "Unfiltered mode: keep the values whose predicted depth noise (1 sigma, relative) is at most this: a percentage or fraction (default 5%), or none.")
    var maxNoise: String?

    @Option(name: .customLong("min-depth"), parsing: .unconditional, help: "Nearest depth searched, with a unit.")
    var minDepth: String = "0.3m"

    @Option(name: .customLong("max-depth"), parsing: .unconditional, help: "Farthest depth searched, with a unit, or inf.")
    var maxDepth: String = "inf"

    @Option(name: .long, help: "Also write the per-pixel confidence (.png: 8-bit, .pfm/.npy/.tiff: float).")
    var confidence: String?

    @Option(name: .long, help: "Also write a colour preview (.png: near blue, far red, with a metre legend).")
    var preview: String?

    @Option(name: .shortAndLong, help: "Output map (.pfm, .npy, .png = uint16 mm for depth, .exr); for sequences a directory.")
    var output: String?

    @Option(name: .long, help: "File format of the maps written for sequences.")
    var format: DepthFileFormat = .pfm

    @Option(name: .customLong("demo-size"), help: "Size of the built-in demo pair.")
    var demoSize: String = "1280x960"

    @Flag(name: .long, help: "Print what was done as JSON.")
    var json = false

    @OptionGroup(title: "Cameras (--wide/--tele V4L2 devices, or --stereo)")
    var device: DeviceOptions

    @Option(name: .customLong("camera-size"), help: "Camera frame size WxH (default: the largest both cameras offer).")
    var cameraSize: String?

    @Option(name: .customLong("camera-format"), help: "Camera pixel format: mjpeg or yuyv (default: mjpeg when both offer it).")
    var cameraFormat: String?

    @Option(name: .long, parsing: .unconditional, help: "Camera frame rate (default: the highest both cameras offer at the size).")
    var fps: Double?

    struct Settings {
        var type: DepthDataType
        var precision: DepthPrecision
        var size: DepthOutputSize
        var options: StereoDepthOptions
    }

    func run() throws {
        try reportingErrors { try execute() }
    }

    /// Everything the command line decides, validated before any input is read.
    func settings() throws -> Settings {
        let size = try DepthOutputSize(parsing: size, flag: "--size")
        var options = StereoDepthOptions()
        options.filtered = mode.isFiltered
        if let reference { options.reference = reference.frame }
        options.minDepthMetres = try parseFlag("--min-depth", minDepth) { try Distance(parsing: $0) }.metres
        options.maxDepthMetres = try parseFlag("--max-depth", maxDepth) { try Distance(parsing: $0) }.metres
        if let maxNoise {
            guard !options.filtered else {
                throw DualcamError.invalidValue(name: "--max-noise", reason: "applies to --mode unfiltered only")
            }
            options.unfilteredRelativeDepthNoise = try Self.relativeNoise(parsing: maxNoise)
        }
        try options.validate()
        return Settings(type: type, precision: precision, size: size, options: options)
    }

    /// `--max-noise`: `5%` or `0.05` (a relative depth sigma in (0, 1]), or
    /// `none` (nil: every measurement, no precision bound).
    static func relativeNoise(parsing text: String) throws -> Double? {
        let t = text.lowercased()
        if t == "none" { return nil }
        let percent = t.hasSuffix("%")
        guard let v = Double(percent ? String(t.dropLast()) : t), v.isFinite, v > 0, (percent ? v / 100 : v) <= 1 else {
            throw DualcamError.invalidValue(name: "--max-noise '\(text)'",
                                            reason: "expected a percentage or fraction above 0 and at most 100 % (e.g. 5% or 0.05), or none")
        }
        return percent ? v / 100 : v
    }

    func execute() throws {
        let settings = try settings()
        let inputs = PairInputs(wide: wide, tele: tele, device: device)
        let outPath = output ?? (inputs.kind == .single ? "depth.pfm" : "depth-frames")
        try checkOutputFormats(outPath, series: inputs.kind != .single)
        let loaded = try loadCalibration(calibration)
        switch inputs.kind {
        case .live: try depthLive(inputs, calibration: loaded, settings: settings, output: outPath)
        case .sequences: try depthSequences(inputs, calibration: loaded, settings: settings, output: outPath)
        case .single: try depthSingle(inputs, calibration: loaded, settings: settings, output: outPath)
        }
    }

    /// The map format (--format for a series of maps, else -o's extension),
    /// --confidence and --preview, checked before any input is read.
    func checkOutputFormats(_ outPath: String, series: Bool) throws {
        if series {
            guard format.isWritable else {
                throw DualcamError.invalidValue(name: "--format \(format.rawValue)", reason: "this OpenCV build cannot write it")
            }
        } else {
            let format = try DepthFileFormat.of(URL(fileURLWithPath: outPath))
            guard format.isWritable else {
                throw DualcamError.invalidValue(name: outPath, reason: "this OpenCV build cannot write .\(format.rawValue) files")
            }
        }
        if let confidence { _ = try ImageFormat.of(URL(fileURLWithPath: confidence)) }
        if let preview, try ImageFormat.of(URL(fileURLWithPath: preview)) != .png {
            throw DualcamError.invalidValue(name: "--preview \(preview)", reason: "expected a .png file")
        }
    }

    /// Depth for one pair (files or the demo scene): the map, its sidecar
    /// and the extras asked for.
    func depthSingle(_ inputs: PairInputs, calibration loaded: LoadedCalibration, settings: Settings, output outPath: String) throws {
        let clock = Timings()
        var settings = settings
        let pair = try inputs.singlePair(calibration: loaded, demoSize: demoSize,
                                         command: "depth", clock: clock)
        // Every output is checked (not a directory, not an input) before the
        // work, written to a temporary file and published together at the end.
        let staged = StagedOutputs(inputs: inputs.paths + [calibration].compactMap { $0 })
        let mapURL = try staged.stage(outPath, flag: "-o", sidecar: true)
        let extras = Extras(confidence: try confidence.map { try staged.stage($0, flag: "--confidence") },
                            preview: try preview.map { try staged.stage($0, flag: "--preview") })
        let estimator = try clock.measure("setup") {
            try makeEstimator(rig: pair.calibration.rig, wideSize: pair.wideSize, teleSize: pair.teleSize,
                              wideK: pair.wideIntrinsics, teleK: pair.teleIntrinsics, settings: &settings)
        }
        let result = try clock.measure("depth") { try estimator.estimate(wide: pair.wide, tele: pair.tele) }
        try clock.measure("write") {
            try write(result, settings: settings, to: mapURL, extras: extras)
            try staged.publish()
        }
        let outputs = [outPath, DepthMetadata.sidecarURL(for: URL(fileURLWithPath: outPath)).path] + [confidence, preview].compactMap { $0 }
        var notes = [pair.note].compactMap { $0 }
        if !result.highQuality {
            notes.append(String(format: "depth: low quality: only %.1f%% of the overlap matched (little texture?)", 100 * result.validFraction))
        }
        for note in notes { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        if json {
            try printJSON(Report(inputs: pair.inputs, calibration: pair.calibrationLabel, result: result, settings: settings,
                                 outputs: outputs, timingsMs: clock.milliseconds))
        } else {
            print("depth: \(settings.type) \(result.size) aligned to \(result.reference), "
                + "\(settings.options.filtered ? "filtered" : "unfiltered"), "
                + String(format: "%.1f%% measured", 100 * result.validFraction)
                + (Self.precisionNote(result, settings: settings) ?? "") + " -> \(outPath)")
        }
    }

    /// Unfiltered mode's precision bound and the share of the overlap it
    /// keeps, for the summary line (nil in filtered mode or without a bound).
    static func precisionNote(_ result: StereoDepthResult, settings: Settings) -> String? {
        guard !settings.options.filtered, let bound = settings.options.unfilteredRelativeDepthNoise else { return nil }
        return String(format: ", %.1f%% precise to %g%%", 100 * result.unfilteredFraction, 100 * bound)
    }

    /// The estimator for one geometry; resolves the output size against the reference buffer.
    func makeEstimator(rig: Rig, wideSize: PixelSize, teleSize: PixelSize, wideK: Intrinsics?, teleK: Intrinsics?,
                       settings: inout Settings) throws -> StereoDepthEstimator {
        // The reference (default: the narrower camera) decides the size's aspect ratio.
        var probe = settings.options
        probe.outputSize = nil
        let reference = try StereoDepthEstimator.reference(rig: rig, wideSize: wideSize, teleSize: teleSize,
                                                          wideIntrinsics: wideK, teleIntrinsics: teleK, options: probe)
        settings.options.outputSize = try settings.size.resolved(for: reference == .wide ? wideSize : teleSize)
        return try StereoDepthEstimator(rig: rig, wideSize: wideSize, teleSize: teleSize, wideIntrinsics: wideK,
                                        teleIntrinsics: teleK, options: settings.options)
    }

    /// Where the confidence map and the preview go (staged paths), when asked for.
    struct Extras {
        var confidence: URL?
        var preview: URL?
        static let none = Extras()
    }

    /// Writes the map + sidecar, and the `extras` asked for; returns the paths.
    @discardableResult
    func write(_ result: StereoDepthResult, settings: Settings, to url: URL, extras: Extras) throws -> [String] {
        let map = try result.depthMap(type: settings.type)
        var extra: [String: JSONValue] = [
            "mode": .string(settings.options.filtered ? "filtered" : "unfiltered"),
            "measured_fraction_of_overlap": .number(result.validFraction),
            "rectified_size": .array([.number(Double(result.rectification.size.width)), .number(Double(result.rectification.size.height))]),
            "baseline_m": .number(result.rectification.baselineMetres),
        ]
        if !settings.options.filtered {
            extra["max_relative_noise"] = settings.options.unfilteredRelativeDepthNoise.map { .number($0) } ?? .null
            extra["kept_fraction_of_overlap"] = .number(result.unfilteredFraction)
        }
        if let region = result.coveredRegion {
            extra["overlap_region"] = .object(["x": .number(Double(region.x)), "y": .number(Double(region.y)),
                                               "width": .number(Double(region.width)), "height": .number(Double(region.height))])
        }
        try DepthMapWriter.writeWithMetadata(map, to: url, precision: settings.precision,
                                             coveredRegion: .some(result.coveredRegion), extra: extra)
        var outputs = [url.path, DepthMetadata.sidecarURL(for: url).path]
        if let confidence = extras.confidence {
            try result.confidenceMap().write(to: confidence)
            outputs.append(confidence.path)
        }
        if let preview = extras.preview {
            _ = try DepthPreview.write(try result.depthMap(type: .depth), to: preview)
            outputs.append(preview.path)
        }
        return outputs
    }

    struct Report: Encodable {
        var inputs: [String: String]
        var calibration: String
        var reference: String
        var type: String
        var mode: String
        var size: [Int]
        var rectifiedSize: [Int]
        var disparitySearch: [Int]
        var measuredFraction: Double
        /// Unfiltered mode: the precision bound (nil: none) and the share of the overlap it keeps.
        var maxRelativeNoise: Double?
        var keptFraction: Double?
        var quality: String
        var coveredRegion: [Int]?
        var outputs: [String]
        var timingsMs: [String: Double]

        init(inputs: [String: String], calibration: String, result: StereoDepthResult, settings: Settings,
             outputs: [String], timingsMs: [String: Double]) {
            self.inputs = inputs
            self.calibration = calibration
            reference = result.reference.rawValue
            type = settings.type.rawValue
            mode = settings.options.filtered ? "filtered" : "unfiltered"
            size = [result.size.width, result.size.height]
            rectifiedSize = [result.rectification.size.width, result.rectification.size.height]
            disparitySearch = [result.disparitySearch.min, result.disparitySearch.min + result.disparitySearch.count - 1]
            measuredFraction = result.validFraction
            if !settings.options.filtered {
                maxRelativeNoise = settings.options.unfilteredRelativeDepthNoise
                keptFraction = result.unfilteredFraction
            }
            quality = result.highQuality ? "high" : "low"
            coveredRegion = result.coveredRegion.map { [$0.x, $0.y, $0.width, $0.height] }
            self.outputs = outputs
            self.timingsMs = timingsMs
        }
    }
}
