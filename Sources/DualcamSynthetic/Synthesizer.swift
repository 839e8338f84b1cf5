import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// What to synthesise: a named scene seen by a rig at one image size.
public struct SynthSpec: Sendable {
    public var sceneName: String
    public var sceneOptions = SceneLibrary.Options()
    /// The rig (and its provenance); every camera is rendered at `size`.
    public var calibration: CalibrationFile
    public var size: PixelSize
    public var render = RenderOptions()
    public var lidar = LidarSampling()
    /// The board of the `board` scene and how many views of it.
    public var board = BoardTarget(kind: .chessboard(columns: 9, rows: 6), squareSize: 0.025)
    public var boardViews = 1
    /// Render an ideal rectified pair (see `RectifiedStereo`) instead of the
    /// rig itself, and add the wide view's ground-truth pixel disparity.
    public var rectified = false
    /// What the cameras do to the images (photometric and optical conditions,
    /// light level; `PhotometricModel`). Clean by default: the renderer's
    /// images unchanged. Ground truth never depends on it.
    public var conditions = CaptureConditions.clean

    public init(sceneName: String, calibration: CalibrationFile, size: PixelSize) {
        self.sceneName = sceneName
        self.calibration = calibration
        self.size = size
    }
}

/// One rendered wide/tele pair with its ground truth.
public struct SynthPair: Sendable {
    public var wide: RenderedView
    public var tele: RenderedView
    /// Wide pixels whose surface point is also visible in tele (row-major).
    public var covisible: [Bool]
    /// LiDAR-like samples registered to the wide image.
    public var lidar: [LidarSample]
    /// `worldFromBoard` for board views.
    public var boardPose: RigidTransform?
    /// For rectified pairs: the wide view's pixel disparity d = f B / Z (x_tele = x_wide - d).
    public var disparity: Image?
    /// The scene's object names; `RenderedView.objectIDs` index them.
    public var objectNames: [String] = []
}

/// A synthetic dataset: the rig at the rendered size and one or more pairs.
public struct SynthDataset: Sendable {
    public var spec: SynthSpec
    /// The calibration at the rendered size (what consumers of the images use).
    public var calibration: CalibrationFile
    public var pairs: [SynthPair]
}

public enum Synthesizer {
    /// The camera names a synthetic rig must have.
    public static let wide: FrameName = .wide, tele: FrameName = .tele

    /// Renders `spec`. Validates everything first, so a bad spec fails before
    /// any work: unknown scene, impossible size, rig without wide/tele.
    public static func make(_ spec: SynthSpec) throws -> SynthDataset {
        guard SceneLibrary.names.contains(spec.sceneName) else {
            throw DualcamError.invalidValue(
                name: "scene '\(spec.sceneName)'", reason: "unknown scene; expected one of \(SceneLibrary.names.joined(separator: ", "))")
        }
        guard (16...8192).contains(spec.size.width), (16...8192).contains(spec.size.height) else {
            throw DualcamError.invalidValue(name: "size \(spec.size)", reason: "expected 16 to 8192 pixels per side")
        }
        if case let .grid(columns, rows) = spec.lidar.pattern, columns > spec.size.width || rows > spec.size.height {
            throw DualcamError.invalidValue(
                name: "lidar grid:\(columns)x\(rows)", reason: "more dots than pixels; expected at most \(spec.size.width)x\(spec.size.height)")
        }
        guard spec.boardViews >= 1 else {
            throw DualcamError.invalidValue(name: "views", reason: "expected at least 1 view")
        }
        try spec.conditions.validate()
        let scaled = try scaledRig(spec.calibration.rig, to: spec.size)
        let rig = spec.rectified ? try RectifiedStereo.rig(from: scaled) : scaled
        var calibration = spec.calibration
        calibration.rig = rig
        let note = "rendered by dualcam synth at \(spec.size) (scene \(spec.sceneName))"
            + (spec.rectified ? ", as an ideal rectified pair" : "")
        calibration.provenance.notes = [spec.calibration.provenance.notes, note].compactMap { $0 }.joined(separator: "; ")

        var pairs: [SynthPair] = []
        if spec.sceneName == "board" {
            let bitmap = try boardBitmap(spec.board)
            let poses = try BoardPoses.sample(count: spec.boardViews, target: spec.board, rig: rig, seed: spec.sceneOptions.seed)
            for (index, pose) in poses.enumerated() {
                let scene = Scene(name: "board", objects: [spec.board.sceneObject(worldFromBoard: pose, bitmap: bitmap)],
                                  background: .grey(0.5))
                var render = spec.render
                render.seed = spec.render.seed &+ UInt64(index)
                // A regular sample grid quantizes the coverage of edges that run along
                // pixel rows or columns, which biases corner positions by up to 0.2 px;
                // jittered samples do not.
                render.jitter = true
                pairs.append(try renderPair(scene, rig: rig, render: render, lidar: spec.lidar, boardPose: pose,
                                            rectified: spec.rectified, conditions: spec.conditions))
            }
        } else {
            let scene = try SceneLibrary.scene(named: spec.sceneName, options: spec.sceneOptions)
            pairs.append(try renderPair(scene, rig: rig, render: spec.render, lidar: spec.lidar, boardPose: nil,
                                        rectified: spec.rectified, conditions: spec.conditions))
        }
        return SynthDataset(spec: spec, calibration: calibration, pairs: pairs)
    }

    static func renderPair(_ scene: Scene, rig: Rig, render: RenderOptions, lidar: LidarSampling,
                           boardPose: RigidTransform?, rectified: Bool,
                           conditions: CaptureConditions = .clean) throws -> SynthPair {
        let wide = try Renderer.render(scene, camera: Self.wide, of: rig, options: render, conditions: conditions)
        let tele = try Renderer.render(scene, camera: Self.tele, of: rig, options: render, conditions: conditions)
        let covisible = try GroundTruth.covisibility(from: wide, to: tele, rig: rig, scene: scene)
        var sampling = lidar
        sampling.seed = lidar.seed &+ render.seed
        return SynthPair(wide: wide, tele: tele, covisible: covisible, lidar: try sampling.sample(wide.depth),
                         boardPose: boardPose,
                         disparity: rectified ? try RectifiedStereo.disparity(of: wide, rectifiedRig: rig) : nil,
                         objectNames: scene.objects.map(\.name))
    }

    /// Every camera of `rig` with its intrinsics scaled to `size` (same aspect
    /// ratio required); wide and tele must be present.
    public static func scaledRig(_ rig: Rig, to size: PixelSize) throws -> Rig {
        var scaled = rig
        for name in [wide, tele] where !rig.cameraNames.contains(name) {
            throw DualcamError.invalidValue(
                name: "rig", reason: "has no '\(name)' camera (it has \(rig.cameraNames.map(\.rawValue).joined(separator: ", ")))")
        }
        for camera in rig.cameras {
            do {
                try scaled.setCamera(RigCamera(name: camera.name, model: try camera.model.scaled(to: size)))
            } catch let error as GeometryError {
                throw DualcamError.invalidValue(name: "size \(size)", reason: "\(camera.name) camera: \(error.description)")
            }
        }
        return scaled
    }

    static func boardBitmap(_ board: BoardTarget) throws -> Bitmap {
        if let bitmap = board.chessboardBitmap() { return bitmap }
        return try BoardBitmaps.charuco(board)
    }
}

extension SceneLibrary {
    /// The scene called `name` (`plane`, `steps`, `room`, `office`); `board`
    /// scenes are built per view by `Synthesizer`.
    public static func scene(named name: String, options: Options) throws -> Scene {
        switch name {
        case "plane": return plane(options)
        case "steps": return steps(options)
        case "room": return room(options)
        case "office": return office(options)
        default:
            throw DualcamError.invalidValue(name: "scene '\(name)'", reason: "unknown scene; expected one of \(names.joined(separator: ", "))")
        }
    }
}

/// The built-in demo input of commands run without files: the `room` scene
/// seen by `calibration`'s wide and tele cameras at `size`.
public struct DemoPair: Sendable {
    /// The calibration at the rendered size.
    public var calibration: CalibrationFile
    public var wide: RenderedView
    public var tele: RenderedView

    public init(calibration: CalibrationFile, size: PixelSize = PixelSize(width: 1280, height: 960)) throws {
        var scaled = calibration
        scaled.rig = try Synthesizer.scaledRig(calibration.rig, to: size)
        let scene = SceneLibrary.room(.init())
        self.calibration = scaled
        wide = try Renderer.render(scene, camera: Synthesizer.wide, of: scaled.rig, options: RenderOptions())
        tele = try Renderer.render(scene, camera: Synthesizer.tele, of: scaled.rig, options: RenderOptions())
    }
}
