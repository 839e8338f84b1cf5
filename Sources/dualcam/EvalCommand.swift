import ArgumentParser
import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// `dualcam eval`: scores a depth or disparity map (and optionally OpenCV's
/// matcher on the same pair) against ground truth.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score a depth or disparity map against ground truth (Middlebury, KITTI, dualcam).",
        discussion: """
            MAP is anything dualcam depth or fuse writes (its sidecar says what it holds) or another \
            tool's map (give --map-type). Ground truth: Middlebury PFM disparity (inf unknown), 8/16-bit \
            PNG disparity = value / --gt-scale (0 unknown, e.g. aloeGT.png with scale 1), KITTI uint16 \
            disparity or depth (x256), dualcam PFM/NPY depth or PNG millimetres (--gt-format). \
            --calibration (Middlebury calib.txt or a rectified rig) relates disparity and depth: \
            Z = f B / (d + doffs). Disparity space (default for disparity ground truth) scores \
            bad-0.5/1/2/4 (missing values count as bad; also given over valid pixels), avgerr and RMS \
            in pixels; depth space AbsRel, RMSE, delta < 1.05 and < 1.25. Scores are also split into \
            the band around the ground truth's discontinuities and the interior. --baseline runs \
            OpenCV's matcher on the rectified pair --wide (left) / --tele (right) in the same run.

            --holes-of scores only where another map (the unfiltered one) has no value: how the \
            filtered map fills what was not measured. The streak ratio (vertical over horizontal \
            squared differences of the error between neighbours) is about 1 without a direction and \
            well above 1 for horizontal streaks.

            Example: dualcam eval depth.pfm --gt aloeGT.png --region 224,0,1282,1110 --wide aloeL.jpg --tele aloeR.jpg --baseline sgbm
            """)

    @Argument(help: "The map to score (optional with --baseline).") var map: String?
    @Option(name: .long, help: "Ground truth file.") var gt: String
    @Option(name: .customLong("gt-format"), help: "How the ground truth is stored (auto: from the file).")
    var gtFormat: GroundTruthFormat = .auto
    @Option(name: .customLong("gt-scale"), parsing: .unconditional, help: "PNG disparity ground truth: stored value / scale = disparity (0 = unknown).") var gtScale: Double = 1
    @Option(name: .customLong("map-type"), help: "What a map without sidecar holds: depth (m), disparity (1/m) or pixels (pixel disparity).")
    var mapType: DepthDataType?
    @Option(name: .long, help: "Calibration relating disparity and depth (Middlebury calib.txt or a rectified rig).") var calibration: String?
    @Option(name: .customLong("in"), help: "Compare in disparity (pixels) or depth (metres) space.") var space: EvaluationSpace?
    @Option(name: .long, help: "Middlebury-style mask (255 non-occluded, 128 occluded, 0 invalid).") var mask: String?
    @Option(name: .customLong("mask-keep"), help: "Mask pixels scored: nonocc (255) or all (255 and 128).")
    var maskKeep: EvaluationMasks.MaskSelection = .nonOccluded
    @Option(name: .long, parsing: .unconditional, help: "Only score x0 <= x < x1, y0 <= y < y1 (map pixels): x0,y0,x1,y1.") var region: String?
    @Option(name: .customLong("holes-of"), help: "Only score pixels where this map (e.g. the unfiltered map of the same pair) has no value.") var holesOf: String?
    @Flag(name: .customLong("resize-gt"), help: "Resize the ground truth (nearest; disparities scaled) to the map's size.") var resizeGT = false
    @Option(name: .customLong("band-radius"), parsing: .unconditional, help: "Radius in pixels of the discontinuity band.") var bandRadius = 3
    @Option(name: .long, help: "Also score OpenCV's matcher on --wide/--tele.") var baseline: OpenCVStereoBaseline?
    @Option(name: .long, help: "Left image of the rectified pair, for --baseline.") var wide: String?
    @Option(name: .long, help: "Right image of the rectified pair, for --baseline.") var tele: String?
    @Option(name: .customLong("num-disparities"), parsing: .unconditional, help: "--baseline search (default: the ground truth's largest disparity, rounded up to 16).") var numDisparities: Int?
    @Option(name: .customLong("error-map"), help: "Write a PNG: bad red, good grey, missing black, not scored white.") var errorMap: String?
    @Option(name: .customLong("bad-threshold"), parsing: .unconditional, help: "Error map threshold: pixels (disparity space, default 2) or relative error (depth, default 0.05).") var badThreshold: Double?
    @Flag(name: .long, help: "Print the scores as JSON.") var json = false

    func run() throws {
        try reportingErrors { try execute() }
    }

    /// The flags that go together, checked before any file is read.
    func checkFlags() throws {
        guard map != nil || baseline != nil else {
            throw DualcamError.invalidValue(name: "dualcam eval", reason: "give a map to score, or --baseline with --wide and --tele")
        }
        if baseline != nil, wide == nil || tele == nil {
            throw DualcamError.invalidValue(name: "--baseline", reason: "needs the rectified pair: --wide LEFT --tele RIGHT")
        }
        if baseline == nil, wide != nil || tele != nil {
            throw DualcamError.invalidValue(name: wide != nil ? "--wide" : "--tele", reason: "is the pair for --baseline; give --baseline sgbm, sgbm-wls or bm")
        }
        guard (0...64).contains(bandRadius) else { throw DualcamError.invalidValue(name: "--band-radius \(bandRadius)", reason: "expected 0 to 64 pixels") }
    }

    func execute() throws {
        try checkFlags()
        let parsedRegion = try region.map { try parseFlag("--region", $0, parseRegion) }  // before any file is read
        if let t = badThreshold, !(t.isFinite && t > 0) { throw DualcamError.invalidValue(name: "--bad-threshold \(t)", reason: "expected a positive number") }
        if let errorMap, try ImageFormat.of(URL(fileURLWithPath: errorMap)) != .png {
            throw DualcamError.invalidValue(name: "--error-map \(errorMap)", reason: "expected a .png file")
        }
        let clock = Timings()

        // Inputs: the map, the pair for the baseline, the ground truth.
        let scored = try map.map { path in
            try clock.measure("read") { try EvaluationMapReader.readEstimate(URL(fileURLWithPath: path), type: mapType) }
        }
        let pair = try baseline.map { _ in
            try clock.measure("read") {
                (left: try ImageIO.read(URL(fileURLWithPath: wide!)), right: try ImageIO.read(URL(fileURLWithPath: tele!)))
            }
        }
        let evaluationSize = scored?.map.size ?? PixelSize(width: pair!.left.width, height: pair!.left.height)
        var (truth, truthHow) = try clock.measure("read") {
            try EvaluationMapReader.readGroundTruth(URL(fileURLWithPath: gt), format: gtFormat, disparityScale: gtScale)
        }
        let selected = try selection(truth: &truth, evaluationSize: evaluationSize)
        var options = EvaluationOptions(space: space ?? (truth.kind == .disparityPixels ? .disparity : .depth))
        options.mask = selected
        options.bandRadius = bandRadius
        options.region = parsedRegion

        var entries: [EvalReport.Entry] = []
        if let scored, let path = map {
            let evaluation = try clock.measure("score") { try StereoEvaluation(estimate: scored.map, truth: truth, options: options) }
            entries.append(.init(name: URL(fileURLWithPath: path).lastPathComponent, description: scored.description,
                                 evaluation: evaluation, milliseconds: nil))
        }
        if let matcher = baseline, let pair {
            entries.append(try baselineEntry(matcher, pair: pair, truth: truth, options: options, evaluationSize: evaluationSize))
        }
        if let errorMap, let first = entries.first {
            let threshold = badThreshold ?? (options.space == .disparity ? 2 : 0.05)
            try ImageIO.write(first.evaluation.errorMap(badThreshold: threshold), to: URL(fileURLWithPath: errorMap))
        }
        let report = EvalReport(groundTruth: gt, groundTruthDescription: truthHow, geometry: truth.geometry, options: options,
                                entries: entries, timingsMs: clock.milliseconds)
        if json { try printJSON(report) } else { print(report.text) }
    }

    /// The pixels scored (--mask, --holes-of; nil: all), with the ground
    /// truth given its --calibration geometry and resized to the map (--resize-gt).
    func selection(truth: inout EvaluationMap, evaluationSize: PixelSize) throws -> [Bool]? {
        var selected = try mask.map { path in
            try EvaluationMasks.middleburyMask(try ImageIO.read(URL(fileURLWithPath: path)), selection: maskKeep)
        }
        if let selected, selected.count != truth.values.count {
            throw DualcamError.invalidValue(name: "--mask \(mask!)", reason: "is not the ground truth's size \(truth.size)")
        }
        if let path = calibration {
            let rig = try loadCalibration(path).file.rig
            let size = truth.size
            truth.geometry = try parseFlag("--calibration", path) { _ in try DisparityGeometry(rectifiedRig: rig, size: size) }
        }
        if truth.size != evaluationSize {
            guard resizeGT else {
                throw DualcamError.invalidValue(
                    name: gt, reason: "ground truth is \(truth.size) but the map is \(evaluationSize); pass --resize-gt to resize the ground truth")
            }
            let original = truth.size
            let resized = try parseFlag("--resize-gt", "") { [truth] _ in try truth.resized(to: evaluationSize) }
            truth = resized
            selected = try selected.map { try EvaluationMasks.resized($0, from: original, to: evaluationSize) }
        }
        if let path = holesOf {
            let other = try EvaluationMapReader.readEstimate(URL(fileURLWithPath: path), type: mapType, flag: "--map-type").map
            guard other.size == evaluationSize else {
                throw DualcamError.invalidValue(name: "--holes-of \(path)", reason: "is \(other.size), the map is \(evaluationSize)")
            }
            let holes = other.values.map { !($0.isFinite && (other.kind == .disparityPixels || $0 > 0)) }
            selected = zip(selected ?? holes, holes).map { $0 && $1 }
        }
        return selected
    }

    /// OpenCV's matcher on the --wide/--tele pair, scored like the map.
    func baselineEntry(_ matcher: OpenCVStereoBaseline, pair: (left: Image, right: Image), truth: EvaluationMap,
                       options: EvaluationOptions, evaluationSize: PixelSize) throws -> EvalReport.Entry {
        let search = try numDisparities ?? defaultSearch(truth, options: options)
        let start = Date()
        let values = try matcher.disparity(left: pair.left, right: pair.right, numDisparities: search)
        let milliseconds = Date().timeIntervalSince(start) * 1000
        var result = try EvaluationMap(size: PixelSize(width: pair.left.width, height: pair.left.height), values: values, kind: .disparityPixels)
        result = try parseFlag("--wide", wide!) { [result] _ in try result.resized(to: evaluationSize) }
        let names = "\(URL(fileURLWithPath: wide!).lastPathComponent) / \(URL(fileURLWithPath: tele!).lastPathComponent)"
        return .init(name: matcher.label, description: "\(search) disparities from 0, on \(names)",
                     evaluation: try StereoEvaluation(estimate: result, truth: truth, options: options), milliseconds: milliseconds)
    }

    /// The baseline's search: the ground truth's largest disparity (in the
    /// evaluation's pixels) + 1, rounded up to a multiple of 16.
    func defaultSearch(_ truth: EvaluationMap, options: EvaluationOptions) throws -> Int {
        let disparities = try truth.values(in: .disparity, target: truth.geometry)
        guard let largest = disparities.filter(\.isFinite).max(), largest < 1024 else {
            throw DualcamError.invalidValue(name: "--num-disparities", reason: "cannot be taken from the ground truth (no disparity below 1024 px); give it")
        }
        return max(16, Int(((Double(largest) + 1) / 16).rounded(.up)) * 16)
    }
}

/// `x0,y0,x1,y1` (x1, y1 exclusive) as a rectangle.
func parseRegion(_ text: String) throws -> PixelRect {
    let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let x0 = parts[0], let y0 = parts[1], let x1 = parts[2], let y1 = parts[3],
          x0 >= 0, y0 >= 0, x1 > x0, y1 > y0 else {
        throw DualcamError.invalidValue(name: "region", reason: "expected x0,y0,x1,y1 with 0 <= x0 < x1 and 0 <= y0 < y1")
    }
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
}
