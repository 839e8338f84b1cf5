import DualcamCalibrationFiles
import DualcamCapture
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation

/// Where the wide/tele pairs of `converge` and `depth` come from, decided
/// once from --wide, --tele and the camera options:
///
/// - `live`: V4L2 cameras (--wide/--tele naming devices, or --stereo), or a
///   side-by-side image or video given as --stereo FILE;
/// - `sequences`: --wide/--tele directories of frames or videos;
/// - `single`: one pair of image files, or neither flag for the built-in
///   demo scene (room) rendered with the calibration.
///
/// Each command validates its own outputs between deciding the kind and
/// reading anything, so a bad flag fails before any input is opened.
struct PairInputs {
    enum Kind { case live, sequences, single }

    let wide: String?
    let tele: String?
    let device: DeviceOptions
    let kind: Kind

    init(wide: String?, tele: String?, device: DeviceOptions) {
        self.wide = wide
        self.tele = tele
        self.device = device
        if device.isLive(wide: wide, tele: tele) {
            kind = .live
        } else if [wide, tele].contains(where: { $0.map { ImageSequence.isSequence(URL(fileURLWithPath: $0)) } ?? false }) {
            kind = .sequences
        } else {
            kind = .single
        }
    }

    /// The files the command reads (never an output).
    var paths: [String] { [wide, tele].compactMap { $0 } }

    /// --wide and --tele, both given; the error asks for both (or neither, for the demo scene).
    func bothPaths() throws -> (wide: String, tele: String) {
        guard let wide, let tele else {
            throw DualcamError.invalidValue(name: wide == nil ? "--wide" : "--tele",
                                            reason: "give both --wide and --tele, or neither for the demo scene")
        }
        return (wide, tele)
    }

    /// The pairs of the two sequences (`openFilePairs`).
    func sequencePairs() throws -> PairSource {
        let (w, t) = try bothPaths()
        return try openFilePairs(wide: w, tele: t, maxSkew: device.maxSkew)
    }

    /// The live pairs (`openPairSource`; they run until --count or --duration)
    /// and the frame rate for a video of the results. The camera mode comes
    /// from the flags named `sizeFlag` and `formatFlag`.
    func livePairs(fps: Double?, size: String?, format: String?, sizeFlag: String, formatFlag: String) throws
        -> (source: PairSource, fps: Double) {
        try openPairSource(device, wide: wide, tele: tele, fps: fps, size: size, format: format,
                           sizeFlag: sizeFlag, formatFlag: formatFlag, needsLimit: true)
    }

    /// One pair, read with their per-frame intrinsics sidecars, or the demo
    /// scene rendered at `demoSize` (--demo-size) with `calibration` scaled to
    /// it. `command` words the demo note.
    func singlePair(calibration: LoadedCalibration, demoSize: String, command: String, clock: Timings) throws -> LoadedPair {
        if wide == nil, tele == nil {
            return try demoPair(calibration: calibration, demoSize: demoSize, command: command, clock: clock)
        }
        let (w, t) = try bothPaths()
        let wideImage = try clock.measure("read") { try readPipelineImage(w, flag: "--wide") }
        let teleImage = try clock.measure("read") { try readPipelineImage(t, flag: "--tele") }
        var pair = LoadedPair(wide: wideImage, tele: teleImage, calibration: calibration.file, calibrationLabel: calibration.label,
                              inputs: ["wide": w, "tele": t])
        pair.wideIntrinsics = try perFrameIntrinsics(URL(fileURLWithPath: w), wideImage, .wide, calibration.file)
        pair.teleIntrinsics = try perFrameIntrinsics(URL(fileURLWithPath: t), teleImage, .tele, calibration.file)
        return pair
    }

    /// The built-in demo scene (room) at --demo-size, with the calibration scaled to it.
    private func demoPair(calibration: LoadedCalibration, demoSize: String, command: String, clock: Timings) throws -> LoadedPair {
        let size = try parseFlag("--demo-size", demoSize, parseSize)
        let rig = calibration.isBuiltIn ? "the nominal rig" : calibration.label
        let note = "\(command): no --wide/--tele given; using the built-in demo scene (room, \(size)) and \(rig)"
        let demo = try clock.measure("render demo") { try DemoPair(calibration: calibration.file, size: size) }
        return LoadedPair(wide: demo.wide.image, tele: demo.tele.image, calibration: demo.calibration,
                          calibrationLabel: calibration.label + " (scaled to \(size))", inputs: ["demo": "room scene, \(size)"],
                          note: note)
    }
}

/// One wide/tele pair ready for the pipeline (`PairInputs.singlePair`).
struct LoadedPair {
    var wide: Image
    var tele: Image
    /// Per-frame intrinsics (from a sidecar), nil where the calibration's apply.
    var wideIntrinsics: Intrinsics?
    var teleIntrinsics: Intrinsics?
    /// Per camera, where its intrinsics came from (for --json).
    var intrinsicsSource: [String: String] {
        func source(_ perFrame: Intrinsics?) -> String { perFrame == nil ? "calibration" : "per-frame sidecar" }
        return ["wide": source(wideIntrinsics), "tele": source(teleIntrinsics)]
    }
    /// The calibration the pair goes with (the demo's is scaled to its size).
    var calibration: CalibrationFile
    var calibrationLabel: String
    /// What the pair was made from (for --json).
    var inputs: [String: String]
    /// For stderr once the command succeeded (the demo scene says so).
    var note: String?

    var wideSize: PixelSize { PixelSize(width: wide.width, height: wide.height) }
    var teleSize: PixelSize { PixelSize(width: tele.width, height: tele.height) }

}

/// The per-frame sidecar's intrinsics for an image file, at its buffer size; nil without a sidecar.
func perFrameIntrinsics(_ file: URL?, _ image: Image, _ camera: FrameName, _ calibration: CalibrationFile) throws -> Intrinsics? {
    guard let file else { return nil }
    let resolved = try IntrinsicsResolver.resolve(image: file, bufferSize: PixelSize(width: image.width, height: image.height),
                                                  camera: camera, calibration: calibration)
    return resolved.source == .perFrame ? resolved.intrinsics : nil
}

/// The pairs of two frame sequences (directories or videos) given as
/// --wide/--tele (`FilePairs`): two directories with timestamps
/// (`timestamps.csv` or nanosecond file names) pair by timestamp within
/// --max-skew (default: half the wide stream's frame interval), so dropped
/// frames and unequal lengths are fine; otherwise frames pair by index
/// (directories must hold the same number of frames; with a video the
/// shorter sequence ends the run).
func openFilePairs(wide: String, tele: String, maxSkew: String?) throws -> PairSource {
    let skew = try maxSkew.map { text in try parseFlag("--max-skew", text) { try parseDurationNs($0, bareUnit: 1_000_000) } }
    return try FilePairs.open(wide: wide, tele: tele, nominalFPS: 30, maxSkewNs: skew)
}

/// The image file a sequence frame came from (for per-frame intrinsics
/// sidecars); nil for a video frame.
func sourceFile(of frame: Frame) -> URL? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: frame.origin, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
    return URL(fileURLWithPath: frame.origin)
}

/// How the pairs were made, for the summary line: timestamp pairing reports
/// its skew and the frames left unpaired.
func pairingSummary(_ source: PairSource) -> String {
    guard source is SynchronizedPairSource else { return "paired by index" }
    let s = source.statistics
    return "paired by timestamp (skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs)); unpaired wide \(s.unpairedWide), tele \(s.unpairedTele))"
}
