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

    @Option(name: .long, help: "View: split, side-by-side, blend, anaglyph, difference, checker, aligned.")
    var view: String = "split"

    @Option(name: .long, help: "Canvas: tele (tele field of view, wide warped in) or wide.")
    var canvas: String = "tele"

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

    func execute() throws {
        let clock = Timings()
        let chosenView = try parseFlag("--view", view) { try ConvergenceView(parsing: $0) }
        guard let chosenCanvas = ConvergenceCanvas(rawValue: canvas.lowercased()) else {
            throw DualcamError.invalidValue(name: "--canvas '\(canvas)'", reason: "expected tele or wide")
        }
        // Everything the command line decides is validated here, before any
        // input is read or rendered, so a bad value fails fast with one line.
        let sweepRange = try sweep.map { text in try parseFlag("--sweep", text, parseRange) }
        switch (distance, sweepRange) {
        case (nil, nil):
            throw DualcamError.invalidValue(
                name: "--distance", reason: "missing; give a distance with a unit (e.g. 1.2m), auto, or --sweep NEAR:FAR")
        case (_?, _?):
            throw DualcamError.invalidValue(name: "--distance", reason: "not used with --sweep, which sets the distances")
        default: break
        }
        let isAuto = distance?.lowercased() == "auto"
        let fixedDistance = isAuto ? nil : try distance.map { text in try parseFlag("--distance", text) { try Distance(parsing: $0) } }
        let point = try at.map { text in try parseFlag("--at", text) { try TapPoint(parsing: $0) } }
        if point != nil, !isAuto {
            throw DualcamError.invalidValue(name: "--at", reason: "applies only with --distance auto")
        }
        guard (2...10_000).contains(steps) else {
            throw DualcamError.invalidValue(name: "--steps \(steps)", reason: "expected 2 to 10000 frames")
        }
        let sweepDistances = try sweepRange.map { range in
            try parseFlag("--sweep", sweep!) { _ in try ConvergenceSweep.distances(near: range.near, far: range.far, steps: steps) }
        }
        if device.isLive(wide: wide, tele: tele) {
            if sweepRange != nil {
                throw DualcamError.invalidValue(name: "--sweep", reason: "not used with cameras")
            }
            try convergeLive(distance: fixedDistance, at: isAuto ? point : nil, view: chosenView, canvas: chosenCanvas)
            return
        }
        let sequenceMode = [wide, tele].contains { $0.map { ImageSequence.isSequence(URL(fileURLWithPath: $0)) } ?? false }
        if sequenceMode, sweepRange != nil {
            throw DualcamError.invalidValue(name: "--sweep", reason: "not used with frame sequences (--wide/--tele directories or videos)")
        }
        let outPath = output ?? (sweepRange != nil ? "converge-sweep" : sequenceMode ? "converge-frames" : "converged.png")
        let outURL = URL(fileURLWithPath: outPath)
        // The output is never an input; a single image is staged and published at the end.
        let staged = StagedOutputs(inputs: [wide, tele, calibration].compactMap { $0 })
        try staged.refuseClash(outPath, flag: "-o")
        // A series (sweep or sequence) goes to numbered frames or a video; a single pair to one image.
        let series = sweepRange != nil || sequenceMode ? try FrameOutput(path: outPath, fps: fps ?? 10) : nil
        if series == nil {
            _ = try ImageFormat.of(outURL)  // an unsupported extension fails before any work
        }
        let singleURL = series == nil ? try staged.stage(outPath, flag: "-o") : nil
        // Notes for stderr, printed only once everything succeeded (an error
        // must be the one and only line on stderr).
        var notes: [String] = []

        // Inputs: files, or the built-in demo scene.
        let loaded = try loadCalibration(calibration)
        do { _ = try ConvergenceWarp(rig: loaded.file.rig, canvas: chosenCanvas) } catch {
            throw DualcamError.invalidValue(name: loaded.label, reason: oneLine(error))
        }
        if sequenceMode {
            guard let w = wide, let t = tele else {
                throw DualcamError.invalidValue(name: wide == nil ? "--wide" : "--tele",
                                                reason: "give both --wide and --tele, or neither for the demo scene")
            }
            try convergeSequences(wide: w, tele: t, calibration: loaded, view: chosenView, canvas: chosenCanvas,
                                  distance: fixedDistance, at: isAuto ? point : nil, output: series!)
            return
        }
        var calibrationFile = loaded.file
        var calibrationLabel = loaded.label
        let wideImage: Image, teleImage: Image
        var inputs: [String: String] = [:]
        var wideK: Intrinsics?, teleK: Intrinsics?
        var intrinsicsSource: [String: String] = ["wide": "calibration", "tele": "calibration"]
        switch (wide, tele) {
        case let (w?, t?):
            wideImage = try clock.measure("read") { try readPipelineImage(w, flag: "--wide") }
            teleImage = try clock.measure("read") { try readPipelineImage(t, flag: "--tele") }
            inputs = ["wide": w, "tele": t]
            for (name, path, image) in [("wide", w, wideImage), ("tele", t, teleImage)] {
                let resolved = try IntrinsicsResolver.resolve(
                    image: URL(fileURLWithPath: path), bufferSize: PixelSize(width: image.width, height: image.height),
                    camera: FrameName(name), calibration: calibrationFile)
                intrinsicsSource[name] = resolved.source == .perFrame ? "per-frame sidecar" : "calibration"
                if resolved.source == .perFrame { if name == "wide" { wideK = resolved.intrinsics } else { teleK = resolved.intrinsics } }
            }
        case (nil, nil):
            let size = try parseFlag("--demo-size", demoSize, parseSize)
            notes.append(
                "converge: no --wide/--tele given; using the built-in demo scene (room, \(size)) and \(calibration == nil ? "the nominal rig" : calibrationLabel)")
            let demo = try clock.measure("render demo") { try DemoPair(calibration: calibrationFile, size: size) }
            wideImage = demo.wide.image
            teleImage = demo.tele.image
            calibrationFile = demo.calibration
            calibrationLabel += " (scaled to \(size))"
            inputs = ["demo": "room scene, \(size)"]
        default:
            throw DualcamError.invalidValue(name: wide == nil ? "--wide" : "--tele",
                                            reason: "give both --wide and --tele, or neither for the demo scene")
        }

        let warp = try ConvergenceWarp(rig: calibrationFile.rig, canvas: chosenCanvas)
        // The buffer sizes against the calibration (aspect ratio), before any output.
        _ = try warp.geometry(wideSize: PixelSize(width: wideImage.width, height: wideImage.height),
                              teleSize: PixelSize(width: teleImage.width, height: teleImage.height),
                              wideIntrinsics: wideK, teleIntrinsics: teleK)
        var autoReport: AutoReport?
        var distances: [Distance]
        if let sweepDistances {
            distances = sweepDistances
        } else if let fixedDistance {
            distances = [fixedDistance]
        } else {
            let result = try clock.measure("auto distance") {
                try autoDistance(warp, wide: wideImage, tele: teleImage, at: point, wideIntrinsics: wideK, teleIntrinsics: teleK)
            }
            distances = [result.distance]
            autoReport = AutoReport(result)
            notes += autoDistanceNotes(result)
        }

        var outputs: [String] = []
        var lastMaps: ConvergenceMaps?
        let geometry = try warp.geometry(wideSize: PixelSize(width: wideImage.width, height: wideImage.height),
                                         teleSize: PixelSize(width: teleImage.width, height: teleImage.height),
                                         wideIntrinsics: wideK, teleIntrinsics: teleK)
        for d in distances {
            let maps = try clock.measure("tables") { try warp.maps(geometry, distance: d) }
            // Warp and compose in one (the split view resamples only its visible halves).
            let image = try clock.measure("view") { try warp.view(chosenView, wide: wideImage, tele: teleImage, maps: maps) }
            lastMaps = maps
            if let series {
                try clock.measure("write") { try series.write(image) }
            } else {
                try clock.measure("write") { try ImageIO.write(image.converted(to: .uint8), to: singleURL!) }
            }
        }
        if series == nil {
            try staged.publish()
            outputs.append(outURL.path)
        }
        if let series { outputs = try clock.measure("write") { try series.finish() } }
        for note in notes { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        guard let maps = lastMaps else { return }
        let d = distances.last!
        if json {
            try printJSON(Report(
                inputs: inputs, calibration: calibrationLabel, intrinsics: intrinsicsSource,
                distanceMetres: d.isInfinite ? nil : d.metres,
                distanceMode: sweepRange != nil ? "sweep" : (isAuto ? "auto" : "fixed"),
                canvas: chosenCanvas.rawValue, canvasSize: [maps.canvasSize.width, maps.canvasSize.height],
                view: chosenView.rawValue, teleFromWide: maps.teleFromWide.rowMajor, outputs: outputs,
                auto: autoReport, timingsMs: clock.milliseconds))
        } else {
            let where_ = series.map { $0.isVideo ? "\(distances.count)-frame video \(outPath)" : "\(outputs.count) frames in \(outPath)" }
                ?? outPath
            print("converge: \(chosenView.rawValue) view on the \(chosenCanvas.rawValue) canvas at \(d) -> \(where_)")
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
