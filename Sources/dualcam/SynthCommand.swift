import ArgumentParser
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import DualcamSynthetic
import Foundation

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Render a synthetic wide/tele scene with ground-truth depth, LiDAR samples and calibration.",
        discussion: """
            Scenes: plane (one textured plane at --distance), steps (planes at 0.5, 1, 2, 4 m),
            room (a room with objects from 0.4 to 6 m), board (calibration target views), office
            (tiled floor and wall, painted walls, a window grille, a pole and a cable, textured objects).
            Writes wide.png, tele.png, wide.depth.pfm, tele.depth.pfm (metres), wide.covisible.png,
            lidar.csv, lidar.depth.pfm/.png, calibration.yaml, <image>.json intrinsics and manifest.json.

            Camera conditions change the images only, never the ground truth: --conditions real is a
            phone wide/tele pair (tele 0.8x exposure, warmer white balance, gamma 2.2/2.0, vignetting,
            blur, shot + read noise, JPEG 90); the other condition flags override the preset per camera.

            Example: dualcam synth --scene plane --distance 1.2m --size 1280x960 --out plane-1.2m
            Example: dualcam synth --scene office --conditions real --blur tele:1.5 --out office
            """
    )

    @Option(name: .long, help: "Scene to render.")
    var scene: ListedName<SceneNames> = ListedName("room")

    @Option(name: .long, parsing: .unconditional, help: "Distance of the plane scene along the wide axis (e.g. 1.2m).")
    var distance: String?

    @Option(name: .long, parsing: .unconditional, help: "Tilt of the plane scene about the vertical axis, degrees.")
    var tilt: Double = 0

    @Option(name: .long, help: "Rig calibration file (default: the nominal phone wide/tele rig).")
    var rig: String?

    @Option(name: .long, help: "Image size WxH for both cameras (the rig's aspect ratio).")
    var size: String = "1280x960"

    @Option(name: .long, parsing: .unconditional, help: "Seed for textures, noise and samples.")
    var seed: UInt64 = 1

    @Option(name: .long, parsing: .unconditional, help: "Samples per pixel for anti-aliasing: 1, 4, 9 or 16.")
    var spp: Int = 4

    @Option(name: .long, parsing: .unconditional, help: "Sensor noise sigma in 8-bit levels.")
    var noise: Double = 0

    @Option(name: .long, help: "LiDAR sampling: random:FRACTION (random:0.02 or random:2%) or grid:COLSxROWS.")
    var lidar: String = "random:0.02"

    @Option(name: .customLong("lidar-noise"), parsing: .unconditional, help: "LiDAR depth noise sigma with a unit (e.g. 1cm), or 0.")
    var lidarNoise: String = "1cm"

    @Option(name: .customLong("lidar-outliers"), parsing: .unconditional, help: "Fraction of LiDAR samples that are outliers.")
    var lidarOutliers: Double = 0.02

    @Option(name: .customLong("lidar-range"), parsing: .unconditional, help: "LiDAR range limit with a unit.")
    var lidarRange: String = "5m"

    @Flag(name: .long, help: "Render an ideal rectified pair (wide intrinsics for both, baseline along x) and write wide.disparity.pfm.")
    var rectified = false

    @Flag(name: .long, help: "Add untextured (flat) regions to the scene.")
    var untextured = false

    @Option(name: .long, help: "Board scene target, e.g. chessboard:9x6:25mm or charuco:8x6:30mm:22mm:DICT_5X5_100.")
    var board: String = "chessboard:9x6:25mm"

    @Option(name: .long, parsing: .unconditional, help: "Board scene: number of views.")
    var views: Int = 1

    @Option(name: .long, help: "Output directory (created if missing).")
    var out: String

    @Flag(name: .long, help: "Print the manifest as JSON.")
    var json = false

    @OptionGroup(title: "Camera conditions")
    var cameraConditions: SynthConditionOptions

    func run() throws {
        try reportingErrors {
            let spec = try makeSpec()
            let started = Date()
            let dataset = try Synthesizer.make(spec)
            let manifest = try SynthWriter.write(dataset, to: URL(fileURLWithPath: out))
            if json {
                try printJSON(manifest)
            } else {
                let seconds = Date().timeIntervalSince(started)
                let conditions = manifest.conditions.map { ", conditions \($0.preset)" } ?? ""
                print("synth: scene \(scene.name), \(spec.size)\(conditions), \(dataset.pairs.count) pair(s), "
                      + "\(manifest.lidar.samples) LiDAR samples, \(String(format: "%.2f", seconds)) s -> \(out)")
            }
        }
    }

    func makeSpec() throws -> SynthSpec {
        let calibration = try loadCalibration(rig).file
        let pixelSize = try parseFlag("--size", size, parseSize)
        guard (16...8192).contains(pixelSize.width), (16...8192).contains(pixelSize.height) else {
            throw DualcamError.invalidValue(name: "--size '\(size)'", reason: "expected 16 to 8192 pixels per side")
        }
        // Check the destination before rendering, so a typo fails at once.
        let parent = URL(fileURLWithPath: out).deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: out, reason: "parent directory \(parent.path) does not exist")
        }
        _ = try parseFlag("--size", size) { _ in try Synthesizer.scaledRig(calibration.rig, to: pixelSize) }
        var spec = SynthSpec(sceneName: scene.name, calibration: calibration, size: pixelSize)
        if let distance {
            guard scene.name == "plane" else {
                throw DualcamError.invalidValue(name: "--distance", reason: "places the plane scene only (got --scene \(scene.name))")
            }
            let d = try parseFlag("--distance", distance) { try Distance(parsing: $0) }
            guard !d.isInfinite else {
                throw DualcamError.invalidValue(name: "--distance '\(distance)'", reason: "the plane must be at a finite distance")
            }
            spec.sceneOptions.planeDistance = d.metres
        }
        guard tilt.isFinite, abs(tilt) < 80 else {
            throw DualcamError.invalidValue(name: "--tilt", reason: "expected degrees between -80 and 80")
        }
        spec.sceneOptions.planeTiltDegrees = tilt
        spec.sceneOptions.seed = seed
        spec.sceneOptions.untextured = untextured
        let root = Int(Double(spp).squareRoot().rounded())
        guard spp > 0, root * root == spp, root <= 8 else {
            throw DualcamError.invalidValue(name: "--spp \(spp)", reason: "expected a square number of samples: 1, 4, 9, 16, ... 64")
        }
        spec.render.samplesPerAxis = root
        guard noise.isFinite, noise >= 0 else {
            throw DualcamError.invalidValue(name: "--noise", reason: "expected a non-negative sigma in 8-bit levels")
        }
        spec.render.noiseSigma = noise
        spec.render.seed = seed
        guard let pattern = LidarSampling.parsePattern(lidar) else {
            throw DualcamError.invalidValue(name: "--lidar '\(lidar)'", reason: "expected random:FRACTION (e.g. random:0.02, random:2%) or grid:COLSxROWS")
        }
        spec.lidar.pattern = pattern
        spec.lidar.noiseSigma = lidarNoise == "0" ? 0 : try parseFlag("--lidar-noise", lidarNoise) { try Distance(parsing: $0).metres }
        guard spec.lidar.noiseSigma.isFinite else {
            throw DualcamError.invalidValue(name: "--lidar-noise '\(lidarNoise)'", reason: "expected a finite sigma with a unit (e.g. 1cm), or 0")
        }
        spec.lidar.rangeLimit = try parseFlag("--lidar-range", lidarRange) { try Distance(parsing: $0).metres }
        guard spec.lidar.rangeLimit.isFinite, spec.lidar.rangeLimit > spec.lidar.minimumRange else {
            throw DualcamError.invalidValue(name: "--lidar-range '\(lidarRange)'",
                                            reason: "expected a finite range beyond the \(spec.lidar.minimumRange) m minimum (e.g. 5m)")
        }
        guard lidarOutliers >= 0, lidarOutliers <= 1 else {
            throw DualcamError.invalidValue(name: "--lidar-outliers", reason: "expected a fraction in [0, 1]")
        }
        spec.lidar.outlierFraction = lidarOutliers
        spec.lidar.seed = seed
        spec.board = try parseFlag("--board", board) { try BoardTarget(parsing: $0) }
        guard views >= 1, views <= 500 else {
            throw DualcamError.invalidValue(name: "--views", reason: "expected 1 to 500 views")
        }
        spec.boardViews = views
        if scene.name == "board" {
            try InputLimits.checkCount(views * pixelSize.width * pixelSize.height, limit: InputLimits.maxRenderedPixels,
                                       limitName: "maxRenderedPixels", what: "rendered pixels (--views x --size)", name: "--views \(views) --size \(size)")
        }
        spec.rectified = rectified
        spec.conditions = try cameraConditions.captureConditions()
        return spec
    }
}
