import DualcamGeometry

/// The named synthetic scenes. World coordinates are the reference (wide)
/// camera's frame in metres: x right, y down, z forward. Every scene is a pure
/// function of its parameters and seed.
public enum SceneLibrary {
    /// Names accepted by `scene(named:)`.
    public static let names = ["plane", "steps", "room", "board", "office"]

    /// Options shared by the scene builders.
    public struct Options: Equatable, Sendable {
        /// Distance of the `plane` scene's plane along the wide optical axis, metres.
        public var planeDistance: Double = 1.2
        /// Tilt of the `plane` scene's plane about the vertical axis, degrees.
        public var planeTiltDegrees: Double = 0
        /// Adds untextured (flat) regions, to exercise hole handling in depth.
        public var untextured = false
        /// Texture seed.
        public var seed: UInt64 = 1
        public init() {}
    }

    /// Colour palette for textured surfaces: muted, distinct hues.
    static let palette: [RGB] = [
        RGB(0.62, 0.52, 0.40), RGB(0.40, 0.55, 0.62), RGB(0.55, 0.62, 0.42), RGB(0.66, 0.45, 0.45),
        RGB(0.50, 0.47, 0.65), RGB(0.60, 0.60, 0.58), RGB(0.45, 0.62, 0.58), RGB(0.70, 0.58, 0.35),
    ]

    /// A textured surface whose finest features are about 4 pixels wide for a
    /// camera with a 1400 px focal length seen from `distance` metres
    /// (featureSize = 0.003 * distance), so matching works at every depth.
    static func texture(_ index: Int, seed: UInt64, distance: Double) -> Appearance {
        .textured(ProceduralTexture(seed: seed &* 1_000_003 &+ UInt64(index) &* 7919,
                                    baseColor: palette[index % palette.count],
                                    featureSize: max(0.001, 0.003 * distance)))
    }

    /// A square rectangle facing the camera (normal towards -z, seen from the origin).
    static func wall(_ name: String, center: Vector3, halfWidth: Double, halfHeight: Double,
                     appearance: Appearance) -> SceneObject {
        SceneObject(name: name, shape: .rectangle(center: center, normal: Vector3(0, 0, -1), uAxis: Vector3(1, 0, 0),
                                                  halfWidth: halfWidth, halfHeight: halfHeight),
                    appearance: appearance)
    }

    /// `plane`: one textured plane at `planeDistance` along the wide optical
    /// axis, optionally turned by `planeTiltDegrees` about the y axis, large
    /// enough to fill both cameras' views.
    public static func plane(_ options: Options) -> Scene {
        let d = options.planeDistance
        let tilt = Angle.radians(options.planeTiltDegrees)
        let normal = Vector3(sin(tilt), 0, -cos(tilt))  // faces the camera
        let uAxis = Vector3(cos(tilt), 0, sin(tilt))
        var objects = [SceneObject(
            name: "plane",
            shape: .rectangle(center: Vector3(0, 0, d), normal: normal, uAxis: uAxis, halfWidth: 3 * d, halfHeight: 3 * d),
            appearance: texture(0, seed: options.seed, distance: d))]
        if options.untextured {
            objects.insert(SceneObject(
                name: "untextured patch",
                shape: .rectangle(center: Vector3(0.15 * d, 0.1 * d, d - 1e-4 * d) , normal: normal, uAxis: uAxis,
                                  halfWidth: 0.08 * d, halfHeight: 0.06 * d),
                appearance: .flat(.grey(0.55))), at: 0)
        }
        return Scene(name: "plane", objects: objects)
    }

    /// `steps`: fronto-parallel planes at 0.5, 1, 2 and 4 m, each covering a
    /// vertical band of the wide view (nearest on the left), in front of a
    /// back wall at 6 m.
    public static func steps(_ options: Options) -> Scene {
        let distances = [0.5, 1.0, 2.0, 4.0]
        // Bands in normalised x (x/z) from -0.75 to 0.75 with small gaps that show the wall.
        var objects: [SceneObject] = []
        for (i, d) in distances.enumerated() {
            let x0 = -0.75 + 0.375 * Double(i) + 0.015, x1 = x0 + 0.375 - 0.03
            objects.append(wall("step \(d) m", center: Vector3((x0 + x1) / 2 * d, 0, d),
                                halfWidth: (x1 - x0) / 2 * d, halfHeight: 0.42 * d,
                                appearance: texture(i, seed: options.seed, distance: d)))
        }
        objects.append(wall("back wall", center: Vector3(0, 0, 6), halfWidth: 8, halfHeight: 6,
                            appearance: texture(5, seed: options.seed, distance: 6)))
        if options.untextured {
            objects.insert(wall("untextured patch", center: Vector3(-0.3, -0.15, 0.999), halfWidth: 0.08, halfHeight: 0.06,
                                appearance: .flat(.grey(0.5))), at: 0)
        }
        return Scene(name: "steps", objects: objects)
    }

    /// `room`: the inside of a 5 x 2.7 x 6.5 m box (back wall 6 m ahead, floor
    /// 1.2 m below the camera) with spheres and boxes from 0.41 m to 5.5 m; the two nearest objects
    /// are seen by tele (tap-to-converge targets): their front centres lie inside the tele field of
    /// view, though both extend past its edges.
    public static func room(_ options: Options) -> Scene {
        let s = options.seed
        var objects = [
            SceneObject(name: "walls", shape: .box(center: Vector3(0, -0.15, 2.75), halfSize: Vector3(2.5, 1.35, 3.25),
                                                   interior: true),
                        appearance: texture(5, seed: s, distance: 4)),
            SceneObject(name: "near sphere", shape: .sphere(center: Vector3(-0.12, 0.08, 0.56), radius: 0.15),
                        appearance: texture(0, seed: s, distance: 0.45)),
            SceneObject(name: "near box", shape: .box(center: Vector3(0.30, 0.18, 1.2), halfSize: Vector3(0.12, 0.12, 0.12),
                                                      interior: false),
                        appearance: texture(1, seed: s, distance: 1)),
            SceneObject(name: "sphere", shape: .sphere(center: Vector3(-0.85, 0.35, 2.2), radius: 0.35),
                        appearance: texture(2, seed: s, distance: 2)),
            SceneObject(name: "table", shape: .box(center: Vector3(0.9, 0.85, 3.0), halfSize: Vector3(0.6, 0.35, 0.45),
                                                   interior: false),
                        appearance: texture(3, seed: s, distance: 3)),
            SceneObject(name: "cabinet", shape: .box(center: Vector3(-1.6, 0.1, 4.4), halfSize: Vector3(0.45, 1.1, 0.35),
                                                     interior: false),
                        appearance: texture(4, seed: s, distance: 4.4)),
            SceneObject(name: "far sphere", shape: .sphere(center: Vector3(0.7, -0.2, 5.1), radius: 0.4),
                        appearance: texture(6, seed: s, distance: 5)),
        ]
        if options.untextured {
            objects.append(wall("poster (untextured)", center: Vector3(-0.2, -0.4, 5.999), halfWidth: 0.6, halfHeight: 0.4,
                                appearance: .flat(RGB(0.8, 0.78, 0.7))))
        }
        return Scene(name: "room", objects: objects)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
