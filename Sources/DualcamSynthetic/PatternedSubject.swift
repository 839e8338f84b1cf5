import DualcamGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A subject covered by a regular pattern, in front of a textured wall: the
/// case where a plane sweep (or a stereo matcher) finds an equally good match
/// every pattern period along the baseline.
///
/// World frame as in `SceneLibrary` (the wide camera's: x right, y down, z
/// forward, metres). The subject faces the camera, centred on the wide
/// optical axis shifted by `offsetMetres`:
/// - `.plane`: a fronto-parallel rectangle at `distanceMetres`, large enough
///   (half extents 3 x the distance) to fill both views;
/// - `.box(sideMetres)`: a cube whose front face is at `distanceMetres`,
///   built from six rectangles so that the pattern can be turned on its faces.
///
/// The pattern (`RepetitiveTexture`) is laid on the front face with its u
/// axis turned by `orientationDegrees` from the x axis towards y (0: stripes
/// across u are vertical bars, whose period runs along the baseline; 90:
/// horizontal bars, no period along the baseline). Side faces carry it with
/// their own axes. Behind, a wall with the procedural texture at
/// `backgroundMetres`.
public struct PatternedSubject: Equatable, Sendable {
    public enum Shape: Equatable, Sendable {
        case plane
        case box(sideMetres: Double)
    }

    public var shape: Shape
    public var distanceMetres: Double
    public var pattern: RepetitiveTexture.Kind
    public var periodMetres: Double
    public var orientationDegrees: Double
    public var offsetMetres: Vector2
    public var backgroundMetres: Double
    public var primary: RGB
    public var secondary: RGB
    public var seed: UInt64

    public init(shape: Shape, distanceMetres: Double, pattern: RepetitiveTexture.Kind, periodMetres: Double,
                orientationDegrees: Double = 0, offsetMetres: Vector2 = Vector2(0, 0), backgroundMetres: Double = 4,
                primary: RGB = RGB(0.82, 0.80, 0.74), secondary: RGB = RGB(0.22, 0.25, 0.30), seed: UInt64 = 1) {
        self.shape = shape
        self.distanceMetres = distanceMetres
        self.pattern = pattern
        self.periodMetres = periodMetres
        self.orientationDegrees = orientationDegrees
        self.offsetMetres = offsetMetres
        self.backgroundMetres = backgroundMetres
        self.primary = primary
        self.secondary = secondary
        self.seed = seed
    }

    /// The period in metres that a camera of focal length `focalPixels` sees
    /// as `pixels` on a fronto-parallel surface at `distanceMetres`:
    /// period_m = pixels * distance / f (inverse of `RepetitiveTexture`'s
    /// period_px = f * period_m / Z).
    public static func periodMetres(pixels: Double, focalPixels: Double, distanceMetres: Double) -> Double {
        pixels * distanceMetres / focalPixels
    }

    /// The scene (name `patterned subject`).
    public var scene: Scene {
        let texture = Appearance.repetitive(RepetitiveTexture(kind: pattern, periodMetres: periodMetres,
                                                              primary: primary, secondary: secondary))
        let angle = Angle.radians(orientationDegrees)
        let u = Vector3(cos(angle), sin(angle), 0)
        let d = distanceMetres, c = offsetMetres
        var objects: [SceneObject] = []
        switch shape {
        case .plane:
            objects.append(SceneObject(
                name: "patterned plane",
                shape: .rectangle(center: Vector3(c.x, c.y, d), normal: Vector3(0, 0, -1), uAxis: u,
                                  halfWidth: 3 * d, halfHeight: 3 * d),
                appearance: texture))
        case let .box(side):
            let h = side / 2, centre = Vector3(c.x, c.y, d + h)
            // Front and back (normal along z) with the turned axis; the four
            // sides with an in-plane axis along y or x.
            let faces: [(String, Vector3, Vector3)] = [
                ("front", Vector3(0, 0, -1), u), ("back", Vector3(0, 0, 1), u),
                ("left", Vector3(-1, 0, 0), Vector3(0, 0, 1)), ("right", Vector3(1, 0, 0), Vector3(0, 0, 1)),
                ("top", Vector3(0, -1, 0), Vector3(1, 0, 0)), ("bottom", Vector3(0, 1, 0), Vector3(1, 0, 0)),
            ]
            for (name, n, axis) in faces {
                objects.append(SceneObject(
                    name: "patterned box \(name)",
                    shape: .rectangle(center: centre + n * h, normal: n, uAxis: axis, halfWidth: h, halfHeight: h),
                    appearance: texture))
            }
        }
        let b = backgroundMetres
        objects.append(SceneLibrary.wall("background wall", center: Vector3(0, 0, b), halfWidth: 3 * b, halfHeight: 3 * b,
                                         appearance: SceneLibrary.texture(5, seed: seed, distance: b)))
        return Scene(name: "patterned subject", objects: objects)
    }
}
