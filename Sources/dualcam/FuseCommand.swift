import ArgumentParser
import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// `dualcam fuse`: sparse metric samples (LiDAR/ToF) + the wide image (+ a
/// stereo map) -> dense absolute depth aligned to the wide camera.
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Fuse sparse metric depth samples with the wide image (and stereo) into dense absolute depth.",
        discussion: """
            Samples: CSV x,y,depth_m[,confidence] in wide pixels; a sparse depth image aligned to \
            wide (.png uint16 mm or .pfm metres, 0/NaN = none); or a point cloud in the sensor frame \
            (.ply, or CSV x,y,z) placed by the calibration's 'lidar' camera (lidar_from_wide).
            --disparity: a stereo map aligned to wide (e.g. from dualcam depth --reference wide); its \
            sidecar gives the type, without one the values are taken as (pixel) disparity. --tele: \
            the stereo is computed from the wide/tele pair (measured values with their confidence), \
            searching the depths the samples span (nearest 0.5 % left out, 25 % disparity margin, no far \
            limit) unless --min-depth/--max-depth say otherwise. The stereo's scale and shift are fitted \
            robustly to the samples.

            Example: dualcam fuse --wide wide.png --samples lidar.csv --disparity wide.disparity.pfm --calibration rig.yaml -o depth.pfm --json
            """)

    @Option(name: .long, help: "Wide colour image.") var wide: String
    @Option(name: .long, help: "Sparse samples: .csv, .ply, .png (mm) or .pfm (m).") var samples: String
    @Option(name: .long, help: "Tele image: stereo computed on the fly (as dualcam depth --reference wide --mode unfiltered).") var tele: String?
    @Option(name: .long, help: "Stereo map aligned to wide (.pfm/.npy/.png/.exr, with or without sidecar).") var disparity: String?
    @Option(name: .customLong("min-depth"), parsing: .unconditional,
            help: "With --tele: nearest depth searched, with a unit (default: from the samples).") var minDepth: String?
    @Option(name: .customLong("max-depth"), parsing: .unconditional,
            help: "With --tele: farthest depth searched, with a unit, or inf (default: inf).") var maxDepth: String?
    @Option(name: .long, help: "Rig calibration (dualcam YAML or an importable format).") var calibration: String
    @Option(name: .long, help: "filtered (dense, smoothed; default) or unfiltered (high-confidence pixels only, NaN elsewhere).") var mode: FilterMode = .filtered
    @Option(name: .long, help: "Samples-only completion: guided (edge-aware, default) or morphology (IP-Basic style, faster, ignores the image).")
    var completion: DepthFusion.SamplesOnlyCompletion = .guided
    @Option(name: .long, help: "Output type: depth (m) or disparity (1/m).") var type: FusedDataType = .depth
    @Option(name: .long, help: "Float precision, in bits.") var precision: DepthPrecision = .float32
    @Option(name: .long, help: "streaming (320 wide), photo (768 wide), native or WxH; the wide aspect.") var size = "streaming"
    @Option(name: .long, help: "Confidence map output (.png 8-bit, .pfm/.npy float; low 0, medium 0.5, high 1).") var confidence: String?
    @Option(name: .long, help: "Colour preview PNG (near blue, far red, legend of the metre range).") var preview: String?
    @Option(name: [.customShort("o"), .long], help: "Output depth file (.pfm, .npy, .png, .exr) + .json sidecar.") var output: String
    @Flag(name: .long, help: "Print the fit, coverage and timings as JSON.") var json = false

    func run() throws {
        try reportingErrors { try execute() }
    }

    /// The flags that go together, checked before any file is read.
    func checkCombinations() throws {
        if completion == .morphology, disparity != nil || tele != nil {
            throw DualcamError.invalidValue(name: "--completion morphology", reason: "is for samples only; it cannot use --disparity or --tele")
        }
        if tele != nil, disparity != nil {
            throw DualcamError.invalidValue(name: "--tele", reason: "give either --tele or --disparity, not both")
        }
        if tele == nil, let flag = minDepth != nil ? "--min-depth" : maxDepth != nil ? "--max-depth" : nil {
            throw DualcamError.invalidValue(name: flag, reason: "sets the depth range of the --tele stereo; it needs --tele")
        }
    }

    /// What `fuse` reads: the rig, the wide image, the samples and a --disparity map.
    struct Inputs {
        var rig: Rig
        var wide: Image
        var samples: LoadedSamples
        var stereo: DepthMap?
        var wideSize: PixelSize { PixelSize(width: wide.width, height: wide.height) }
    }

    func execute() throws {
        let timings = Timings()
        try checkCombinations()
        let givenMin = try minDepth.map { try parseFlag("--min-depth", $0) { try Distance(parsing: $0) }.metres }
        let givenMax = try maxDepth.map { try parseFlag("--max-depth", $0) { try Distance(parsing: $0) }.metres }
        let outputSize = try DepthOutputSize(parsing: size)
        _ = try DepthFileFormat.of(URL(fileURLWithPath: output))
        // Every output is checked (parent exists, not a directory, not an
        // input) before the work, staged, and published together at the end.
        let staged = StagedOutputs(inputs: [wide, samples, calibration] + [tele, disparity].compactMap { $0 })
        let mapURL = try staged.stage(output, flag: "-o", sidecar: true)
        let confidenceURL = try confidence.map { try staged.stage($0, flag: "--confidence") }
        let previewURL = try preview.map { try staged.stage($0, flag: "--preview") }
        let inputs = try timings.measure("load") { try load() }
        let wideIntrinsics = try self.wideIntrinsics(inputs)
        let resolved = try outputSize.resolved(for: inputs.wideSize)
        for warning in inputs.samples.warnings {
            FileHandle.standardError.write(Data("dualcam: warning: \(samples): \(warning)\n".utf8))
        }
        let stereo = try teleStereo(inputs, wideIntrinsics: wideIntrinsics, outputSize: resolved, minDepth: givenMin,
                                    maxDepth: givenMax, timings: timings)
        let outcome = try timings.measure("fuse") {
            let request = stereo.map { FusionRequest(wide: inputs.wide, wideIntrinsics: wideIntrinsics, samples: inputs.samples.samples,
                                                         teleStereo: $0.output, outputSize: resolved) }
                ?? FusionRequest(wide: inputs.wide, wideIntrinsics: wideIntrinsics, samples: inputs.samples.samples,
                                 stereo: inputs.stereo, outputSize: resolved)
            return try FusionPipeline.run(request) { focal in
                var options = DepthFusion.Options(focalPixels: focal)
                options.samplesOnlyCompletion = completion
                return options
            }
        }
        let map = try outcome.depthMap(filtered: mode.isFiltered).converted(to: type.dataType)
        let confidenceMap = try outcome.confidenceMap
        try timings.measure("write") {
            try DepthMapWriter.writeWithMetadata(map, to: mapURL, precision: precision)
            if let confidenceURL { try confidenceMap.write(to: confidenceURL) }
            if let previewURL { _ = try DepthPreview.write(map, to: previewURL) }
            try staged.publish()
        }
        let report = FuseReport(outcome: outcome, map: map, loaded: inputs.samples, depthRange: stereo?.range,
                                timings: timings.milliseconds, output: output, mode: mode.rawValue)
        if json {
            try printJSON(report)
        } else {
            print(report.summary)
        }
    }

    func load() throws -> Inputs {
        let rig = try loadCalibration(calibration).file.rig
        let wideImage = try readPipelineImage(wide, flag: "--wide")
        let wideSize = PixelSize(width: wideImage.width, height: wideImage.height)
        let loaded = try SampleSources.load(URL(fileURLWithPath: samples), wideSize: wideSize, rig: rig)
        let stereo = try disparity.map { try Self.readStereo($0) }
        return Inputs(rig: rig, wide: wideImage, samples: loaded, stereo: stereo)
    }

    /// The calibration's wide intrinsics at the wide image's size.
    func wideIntrinsics(_ inputs: Inputs) throws -> Intrinsics {
        do {
            return try inputs.rig.camera(.wide).model.intrinsics.scaled(to: inputs.wideSize)
        } catch {
            throw DualcamError.invalidValue(
                name: "--wide \(wide)", reason: "is \(inputs.wideSize), which the calibration's wide camera cannot be scaled to: \(oneLine(error))")
        }
    }

    /// With --tele: the stereo computed from the pair over the depth range
    /// the samples span (or --min-depth/--max-depth); nil without --tele.
    func teleStereo(_ inputs: Inputs, wideIntrinsics: Intrinsics, outputSize: PixelSize, minDepth: Double?, maxDepth: Double?,
                    timings: Timings) throws -> (output: TeleStereo.Output, range: StereoDepthRange)? {
        guard let tele else { return nil }
        let range = Self.depthRange(samples: inputs.samples.samples, minDepth: minDepth, maxDepth: maxDepth)
        let teleImage = try readPipelineImage(tele, flag: "--tele")
        let computed = try timings.measure("stereo") {
            try TeleStereo.compute(rig: inputs.rig, wide: inputs.wide, tele: teleImage, wideIntrinsics: wideIntrinsics,
                                   outputSize: outputSize, depthRange: range)
        }
        return (computed, range)
    }

    /// The `--tele` stereo's depth range: the given bounds, the rest from the samples.
    static func depthRange(samples: [DepthSample], minDepth: Double?, maxDepth: Double?) -> StereoDepthRange {
        let fromSamples = StereoDepthRange.fromSamples(depthsMetres: samples.map(\.depthMetres))
        var range = fromSamples ?? StereoDepthRange(minDepthMetres: 0.3)
        if let minDepth {
            range.minDepthMetres = minDepth
            range.origin = .options
        }
        if let maxDepth { range.maxDepthMetres = maxDepth }
        return range
    }

    static func readStereo(_ path: String) throws -> DepthMap {
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: DepthMetadata.sidecarURL(for: url).path) {
            return try DepthMapReader.read(url).map
        }
        return try DepthMapReader.read(url, type: .disparity)
    }
}
