import ArgumentParser
import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation

struct ConvergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "converge",
        abstract: "Register the wide and tele views on the plane at a distance (the convergence plane).",
        discussion: """
            Things on the plane line up; nearer and farther things show opposite parallax.
            Without --wide/--tele the built-in demo scene (room) and the nominal rig are used.
            Views: split, side-by-side, blend, anaglyph, difference, checker, aligned.
            --distance auto picks the distance that registers best (plane sweep, NCC),
            over the whole overlap or around --at: x,y (canvas pixels), wide:x,y or tele:x,y
            (a pixel of that camera's image). A regular pattern can register at several
            distances: they are all listed with a warning (and "ambiguous" in --json). A tap
            on a textureless area falls back to the whole overlap, saying so. On sequences
            and live pairs the distance is tracked from frame to frame (a single false
            peak cannot make the plane jump).

            With cameras (--wide/--tele naming V4L2 devices, or --stereo DEVICE) live pairs are
            synchronized and converged until --count pairs or --duration, to frames or a video.

            Example: dualcam converge --distance 1.2m -o converged.png
            Example: dualcam converge --wide /dev/video0 --tele /dev/video2 --distance 1.2m --count 60 -o live.avi
            """
    )

    @Option(name: .long, help: "Wide image (with --tele).")
    var wide: String?

    @Option(name: .long, help: "Tele image (with --wide).")
    var tele: String?

    @Option(name: .long, help: "Calibration file (default: the nominal phone wide/tele rig).")
    var calibration: String?

    @Option(name: .long, parsing: .unconditional, help: "Convergence distance with a unit (1.2m, 120cm, 4ft, inf) or auto (not with --sweep).")
    var distance: String?

    @Option(name: .long, parsing: .unconditional, help: "With --distance auto: the point to converge on, x,y (canvas pixels), wide:x,y or tele:x,y (pixels of that camera's image).")
    var at: String?

    @Option(name: .long, help: "View of the two registered images.")
    var view: ConvergenceView = .split

    @Option(name: .long, help: "Canvas: tele (tele field of view, wide warped in) or wide.")
    var canvas: ConvergenceCanvas = .tele

    @Option(name: .long, parsing: .unconditional, help: "Sweep the plane from NEAR to FAR (e.g. 0.3m:5m), uniform in inverse distance.")
    var sweep: String?

    @Option(name: .long, parsing: .unconditional, help: "Number of sweep frames.")
    var steps: Int = 30

    @Option(name: .long, parsing: .unconditional, help: "Frame rate of a --sweep video (default 10); with cameras, the camera rate (and the video's).")
    var fps: Double?

    @OptionGroup(title: "Cameras (--wide/--tele V4L2 devices, or --stereo)")
    var device: DeviceOptions

    @OptionGroup var camera: CameraModeOptions

    @Option(name: .shortAndLong, help: "Output image; with --sweep a directory of numbered PNG frames or a video (.avi, .mp4, .mkv, .mov).")
    var output: String?

    @Option(name: .customLong("demo-size"), help: "Size of the built-in demo pair.")
    var demoSize: String = "1280x960"

    @Flag(name: .long, help: "Print what was done as JSON.")
    var json = false

    struct Report: Encodable {
        var inputs: [String: String]
        var calibration: String
        var intrinsics: [String: String]
        var distanceMetres: Double?
        var distanceMode: String
        var canvas: String
        var canvasSize: [Int]
        var view: String
        var teleFromWide: [Double]
        var outputs: [String]
        var auto: AutoReport?
        var timingsMs: [String: Double]
    }

    func run() throws {
        try reportingErrors { try execute() }
    }

    /// The distances the command line asks for, validated before any input
    /// is read or rendered, so that a bad value fails fast with one line.
    struct Request {
        /// --sweep: the distances of the frames.
        var sweep: [Distance]?
        /// A fixed --distance; nil with --distance auto or --sweep.
        var distance: Distance?
        /// --at, with --distance auto.
        var at: TapPoint?

        /// --distance auto: neither a sweep nor a fixed distance.
        var isAuto: Bool { sweep == nil && distance == nil }
        var mode: String { sweep != nil ? "sweep" : isAuto ? "auto" : "fixed" }
    }

    /// The request from --distance, --at, --sweep and --steps; `prefix` is
    /// how flags are named in errors: "--" on the command line, "" for a batch
    /// manifest's options (which have no --sweep to suggest).
    func request(prefix: String = "--") throws -> Request {
        let sweepRange = try sweep.map { text in try parseFlag("\(prefix)sweep", text, parseRange) }
        switch (distance, sweepRange) {
        case (nil, nil):
            let sweepHint = prefix.isEmpty ? " or auto" : ", auto, or --sweep NEAR:FAR"
            throw DualcamError.invalidValue(name: "\(prefix)distance", reason: "missing; give a distance with a unit (e.g. 1.2m)\(sweepHint)")
        case (_?, _?):
            throw DualcamError.invalidValue(name: "\(prefix)distance", reason: "not used with --sweep, which sets the distances")
        default: break
        }
        var request = Request()
        let isAuto = distance?.lowercased() == "auto"
        request.distance = isAuto ? nil : try distance.map { text in try parseFlag("\(prefix)distance", text) { try Distance(parsing: $0) } }
        request.at = try at.map { text in try parseFlag("\(prefix)at", text) { try TapPoint(parsing: $0) } }
        if request.at != nil, !isAuto {
            throw DualcamError.invalidValue(name: "\(prefix)at", reason: "applies only with \(prefix)distance auto")
        }
        guard (2...10_000).contains(steps) else {
            throw DualcamError.invalidValue(name: "--steps \(steps)", reason: "expected 2 to 10000 frames")
        }
        request.sweep = try sweepRange.map { range in
            try parseFlag("--sweep", sweep!) { _ in try ConvergenceSweep.distances(near: range.near, far: range.far, steps: steps) }
        }
        return request
    }

    func execute() throws {
        let request = try request()
        let inputs = PairInputs(wide: wide, tele: tele, device: device)
        if inputs.kind == .live {
            if request.sweep != nil { throw DualcamError.invalidValue(name: "--sweep", reason: "not used with cameras") }
            try convergeLive(inputs, distance: request.distance, at: request.at)
            return
        }
        if inputs.kind == .sequences, request.sweep != nil {
            throw DualcamError.invalidValue(name: "--sweep", reason: "not used with frame sequences (--wide/--tele directories or videos)")
        }
        let destination = try Destination(self, inputs: inputs, series: request.sweep != nil || inputs.kind == .sequences)
        let loaded = try loadCalibration(calibration)
        _ = try checkedWarp(loaded)
        if inputs.kind == .sequences {
            try convergeSequences(inputs, calibration: loaded, distance: request.distance, at: request.at, output: destination.series!)
        } else {
            try convergeSingle(inputs, request: request, calibration: loaded, destination: destination)
        }
    }

    /// -o, checked before any input is read. The output is never an input.
    /// A series (sweep or sequence) goes to numbered frames or a video; a
    /// single pair to one image, staged and published at the end.
    struct Destination {
        let path: String
        let staged: StagedOutputs
        let series: FrameOutput?
        let single: URL?

        init(_ command: ConvergeCommand, inputs: PairInputs, series isSeries: Bool) throws {
            path = command.output ?? (command.sweep != nil ? "converge-sweep" : isSeries ? "converge-frames" : "converged.png")
            staged = StagedOutputs(inputs: inputs.paths + [command.calibration].compactMap { $0 })
            try staged.refuseClash(path, flag: "-o")
            series = isSeries ? try FrameOutput(path: path, fps: command.fps ?? 10) : nil
            if !isSeries { _ = try ImageFormat.of(URL(fileURLWithPath: path)) }  // an unsupported extension fails before any work
            single = isSeries ? nil : try staged.stage(path, flag: "-o")
        }
    }

    /// The warp of the calibration on the --canvas; an unusable rig is an error naming the calibration.
    func checkedWarp(_ loaded: LoadedCalibration) throws -> ConvergenceWarp {
        do { return try ConvergenceWarp(rig: loaded.file.rig, canvas: canvas) } catch {
            throw DualcamError.invalidValue(name: loaded.label, reason: oneLine(error))
        }
    }

    /// One pair (files or the demo scene): one image, or the frames of a --sweep.
    func convergeSingle(_ inputs: PairInputs, request: Request, calibration loaded: LoadedCalibration,
                        destination: Destination) throws {
        let clock = Timings()
        let pair = try inputs.singlePair(calibration: loaded, demoSize: demoSize,
                                         command: "converge", clock: clock)
        let warp = try ConvergenceWarp(rig: pair.calibration.rig, canvas: canvas)
        // The buffer sizes against the calibration (aspect ratio), before any output.
        let geometry = try warp.geometry(wideSize: pair.wideSize, teleSize: pair.teleSize,
                                         wideIntrinsics: pair.wideIntrinsics, teleIntrinsics: pair.teleIntrinsics)
        // Notes for stderr, printed only once everything succeeded (an error
        // must be the one and only line on stderr).
        var notes = [pair.note].compactMap { $0 }
        var autoReport: AutoReport?
        var distances = request.sweep ?? request.distance.map { [$0] } ?? []
        if distances.isEmpty {
            let result = try clock.measure("auto distance") {
                try autoDistance(warp, wide: pair.wide, tele: pair.tele, at: request.at,
                                 wideIntrinsics: pair.wideIntrinsics, teleIntrinsics: pair.teleIntrinsics)
            }
            distances = [result.distance]
            autoReport = AutoReport(result)
            notes += autoDistanceNotes(result)
        }
        var lastMaps: ConvergenceMaps?
        for d in distances {
            let maps = try clock.measure("tables") { try warp.maps(geometry, distance: d) }
            // Warp and compose in one (the split view resamples only its visible halves).
            let image = try clock.measure("view") { try warp.view(view, wide: pair.wide, tele: pair.tele, maps: maps) }
            lastMaps = maps
            if let series = destination.series {
                try clock.measure("write") { try series.write(image) }
            } else {
                try clock.measure("write") { try ImageIO.write(image.converted(to: .uint8), to: destination.single!) }
            }
        }
        var outputs: [String] = []
        if let series = destination.series {
            outputs = try clock.measure("write") { try series.finish() }
        } else {
            try destination.staged.publish()
            outputs.append(URL(fileURLWithPath: destination.path).path)
        }
        for note in notes { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        guard let maps = lastMaps else { return }
        try report(pair, request: request, distances: distances, maps: maps, outputs: outputs, destination: destination,
                   auto: autoReport, clock: clock)
    }

    /// The summary line, or the JSON report, of `convergeSingle`.
    func report(_ pair: LoadedPair, request: Request, distances: [Distance], maps: ConvergenceMaps, outputs: [String],
                destination: Destination, auto: AutoReport?, clock: Timings) throws {
        let d = distances.last!
        if json {
            try printJSON(Report(
                inputs: pair.inputs, calibration: pair.calibrationLabel, intrinsics: pair.intrinsicsSource,
                distanceMetres: d.isInfinite ? nil : d.metres, distanceMode: request.mode,
                canvas: canvas.rawValue, canvasSize: [maps.canvasSize.width, maps.canvasSize.height],
                view: view.rawValue, teleFromWide: maps.teleFromWide.rowMajor, outputs: outputs,
                auto: auto, timingsMs: clock.milliseconds))
        } else {
            let path = destination.path
            let where_ = destination.series.map { $0.isVideo ? "\(distances.count)-frame video \(path)" : "\(outputs.count) frames in \(path)" }
                ?? path
            print("converge: \(view.rawValue) view on the \(canvas.rawValue) canvas at \(d) -> \(where_)")
        }
    }
}

extension ConvergeCommand {
    /// The automatic distance for one pair (around `at` when given; a
    /// textureless window falls back to the whole overlap); errors name --at.
    func autoDistance(_ warp: ConvergenceWarp, wide: Image, tele: Image, at: TapPoint?, lowTexture: LowTexturePolicy = .wholeOverlap,
                      wideIntrinsics: Intrinsics?, teleIntrinsics: Intrinsics?) throws -> AutoConvergenceResult {
        do {
            return try warp.autoDistance(wide: wide, tele: tele, options: AutoConvergenceOptions(tap: at, lowTexture: lowTexture),
                                         wideIntrinsics: wideIntrinsics, teleIntrinsics: teleIntrinsics)
        } catch let error as ConvergenceError {
            throw DualcamError.invalidValue(name: at.map { "--at '\($0.text)'" } ?? "--distance auto", reason: "\(error)")
        }
    }
}

/// Parses `NEAR:FAR` distances, e.g. `0.3m:5m` or `0.5m:inf`.
func parseRange(_ text: String) throws -> (near: Distance, far: Distance) {
    let parts = text.split(separator: ":").map(String.init)
    guard parts.count == 2 else {
        throw DualcamError.invalidValue(name: "range", reason: "expected NEAR:FAR, e.g. 0.3m:5m")
    }
    return (try Distance(parsing: parts[0]), try Distance(parsing: parts[1]))
}
