import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation

/// Shared fixtures: the nominal rig (wide WITH its Brown-Conrady distortion)
/// scaled to 640x480, and rendered pairs cached across tests (each scene is
/// rendered once per test process).
enum Fixtures {
    static let size = PixelSize(width: 640, height: 480)
    static let options = RenderOptions(samplesPerAxis: 2)

    static func nominalRig(size: PixelSize = size) throws -> Rig {
        try Synthesizer.scaledRig(try NominalDevice.load().rig, to: size)
    }

    struct Pair {
        var wide: RenderedView
        var tele: RenderedView
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: Pair] = [:]

    private static func cached(_ key: String, _ make: () throws -> Pair) throws -> Pair {
        lock.lock()
        defer { lock.unlock() }
        if let hit = cache[key] { return hit }
        let pair = try make()
        cache[key] = pair
        return pair
    }

    /// The `plane` scene at `distance` metres seen by the nominal rig.
    static func plane(_ distance: Double) throws -> Pair {
        try cached("plane \(distance)") {
            var o = SceneLibrary.Options()
            o.planeDistance = distance
            return try render(SceneLibrary.plane(o))
        }
    }

    /// The `room` scene seen by the nominal rig.
    static func room() throws -> Pair {
        try cached("room") { try render(SceneLibrary.room(SceneLibrary.Options())) }
    }

    static func render(_ scene: Scene) throws -> Pair {
        let rig = try nominalRig()
        let views = try Renderer.render(scene, cameras: [.wide, .tele], of: rig, options: options)
        return Pair(wide: views[.wide]!, tele: views[.tele]!)
    }
}
