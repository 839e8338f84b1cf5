import DualcamCalibrationFiles
import DualcamStereo
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation

/// Rendered scenes shared by the depth tests: each (scene, rig, size) is
/// rendered once per test process, with its ground-truth co-visibility.
enum DepthFixtures {
    static let acceptanceSize = PixelSize(width: 1920, height: 1440)

    struct Pair: @unchecked Sendable {
        var scene: Scene
        var rig: Rig
        var wide: RenderedView
        var tele: RenderedView
        /// Co-visibility masks over each view (pixel also seen by the other camera).
        var wideCovisible: [Bool]
        var teleCovisible: [Bool]

        func view(_ name: FrameName) -> RenderedView { name == .wide ? wide : tele }
        func covisible(_ name: FrameName) -> [Bool] { name == .wide ? wideCovisible : teleCovisible }
    }

    /// The nominal wide/tele rig.
    static func nominalRig() throws -> Rig { try NominalDevice.load().rig }

    /// Two identical cameras (the nominal tele's lens, with the wide's
    /// distortion) on the nominal extrinsics: an ordinary same-lens pair.
    static func sameLensRig() throws -> Rig {
        let nominal = try NominalDevice.load().rig
        var model = try nominal.camera(.tele).model
        model.distortion = try nominal.camera(.wide).model.distortion
        return try Rig(reference: .wide,
                       cameras: [RigCamera(name: .wide, model: model), RigCamera(name: .tele, model: model)],
                       extrinsics: [try nominal.transform(from: .wide, to: .tele)])
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: Pair] = [:]

    /// `scene` seen by `rig` (nominal by default) at `size`, rendered once per process.
    static func pair(_ sceneName: String, rig rigName: String = "nominal", size: PixelSize = acceptanceSize) throws -> Pair {
        let key = "\(sceneName) \(rigName) \(size)"
        lock.lock()
        defer { lock.unlock() }
        if let hit = cache[key] { return hit }
        let base = rigName == "same-lens" ? try sameLensRig() : try nominalRig()
        let rig = try Synthesizer.scaledRig(base, to: size)
        let scene = try SceneLibrary.scene(named: sceneName, options: SceneLibrary.Options())
        // On the wide/tele rig the tests use the tele as reference: the wide view is
        // rendered only where the tele (plus parallax and rotation) can see, which
        // saves three quarters of the wide render in debug builds.
        let sameLens = rigName == "same-lens"
        var wideOptions = RenderOptions()
        if !sameLens {
            let (w, h) = (size.width, size.height)
            wideOptions.region = PixelRect(x: w * 2 / 9, y: h * 2 / 9, width: w * 5 / 9, height: h * 5 / 9)
        }
        let wide = try Renderer.render(scene, camera: .wide, of: rig, options: wideOptions)
        let tele = try Renderer.render(scene, camera: .tele, of: rig, options: RenderOptions())
        let pair = Pair(scene: scene, rig: rig, wide: wide, tele: tele,
                        wideCovisible: sameLens ? try GroundTruth.covisibility(from: wide, to: tele, rig: rig) : [],
                        teleCovisible: try GroundTruth.covisibility(from: tele, to: wide, rig: rig))
        cache[key] = pair
        return pair
    }
}
