import DualcamGeometry

/// The nearest surface a ray hits.
///
/// Rays are `origin + t * direction` with t > 0; `direction` need not be a unit
/// vector. The renderer's camera rays have direction R^T (xn, yn, 1), so for
/// them `distance` is exactly the Z coordinate (depth along the optical axis)
/// of the hit point in that camera's frame.
public struct SurfaceHit: Equatable, Sendable {
    /// The ray parameter t of the hit.
    public var distance: Double
    /// Index of the object in `Scene.objects`.
    public var objectIndex: Int
    /// For boxes the face hit: 2 * axis + (1 on the +axis side, 0 on the -axis
    /// side), axis 0 = x, 1 = y, 2 = z. 0 for other shapes.
    public var face: Int
}

/// a . b, inlined (the geometry module's `dot` is not inlinable across modules).
@inline(__always)
func dot3(_ a: Vector3, _ b: Vector3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

/// The evaluation form of a `Shape`: plain stored values, no existentials.
struct CompiledShape {
    enum Kind: UInt8 { case rectangle, boxInterior, boxExterior, sphere }

    /// Smallest accepted ray parameter (rejects self-hits at the origin).
    static let minimumDistance = 1e-9

    var kind: Kind
    /// Rectangle/sphere/box centre.
    var center: Vector3
    /// Rectangle frame: unit normal n, unit u axis, v = n x u.
    var normal = Vector3.zero
    var uAxis = Vector3.zero
    var vAxis = Vector3.zero
    var halfU = 0.0
    var halfV = 0.0
    /// Box corners.
    var lo = Vector3.zero
    var hi = Vector3.zero
    var radius = 0.0

    init(_ shape: Shape) throws {
        switch shape {
        case let .rectangle(c, n, u, hw, hh):
            let nn = n.norm
            guard nn > 0, nn.isFinite, hw > 0, hh > 0, !hw.isNaN, !hh.isNaN, c.norm.isFinite else {
                throw RenderError.invalidScene("rectangle needs a finite centre, a non-zero normal and positive half extents")
            }
            let normal = n / nn
            // Gram-Schmidt: remove any normal component from the u axis.
            let uPlane = u - normal * normal.dot(u)
            guard uPlane.norm > 1e-9 * max(1, u.norm) else {
                throw RenderError.invalidScene("rectangle uAxis \(u) is parallel to its normal \(n)")
            }
            kind = .rectangle
            center = c
            self.normal = normal
            uAxis = uPlane / uPlane.norm
            vAxis = normal.cross(uAxis)
            halfU = hw
            halfV = hh
        case let .box(c, h, interior):
            guard h.x > 0, h.y > 0, h.z > 0, (c.norm + h.norm).isFinite else {
                throw RenderError.invalidScene("box needs a finite centre and positive, finite half sizes, got \(h)")
            }
            kind = interior ? .boxInterior : .boxExterior
            center = c
            lo = c - h
            hi = c + h
        case let .sphere(c, r):
            guard r > 0, r.isFinite, c.norm.isFinite else {
                throw RenderError.invalidScene("sphere needs a finite centre and a positive radius, got \(r)")
            }
            kind = .sphere
            center = c
            radius = r
        }
    }

    /// The ray parameter of this shape's visible hit (infinity when none) and
    /// the box face. `inverse` is 1 / direction, componentwise.
    /// - rectangle (both sides): t = n.(c - o) / n.d, inside when |u| <= halfU, |v| <= halfV.
    /// - box, slab method: per axis t1 = (lo - o) / d, t2 = (hi - o) / d;
    ///   tNear = max of the per-axis minima, tFar = min of the maxima; an
    ///   exterior box is hit at tNear (when tNear <= tFar), an interior box
    ///   (seen from inside; its near walls are invisible from outside) at tFar
    ///   (when tFar >= max(tNear, 0)).
    /// - sphere (outside only): smaller root of |o + t d - c|^2 = r^2; none when
    ///   the origin is inside.
    @inline(__always)
    func intersect(origin o: Vector3, direction d: Vector3, inverse inv: Vector3) -> (t: Double, face: Int) {
        let none = (t: Double.infinity, face: 0)
        switch kind {
        case .rectangle:
            let t = dot3(normal, center - o) / dot3(normal, d)
            guard t > Self.minimumDistance, t.isFinite else { return none }
            let p = o + t * d - center
            guard abs(dot3(p, uAxis)) <= halfU, abs(dot3(p, vAxis)) <= halfV else { return none }
            return (t, 0)
        case .boxInterior, .boxExterior:
            let t1 = (lo - o) * inv, t2 = (hi - o) * inv
            let tMin = Vector3(min(t1.x, t2.x), min(t1.y, t2.y), min(t1.z, t2.z))
            let tMax = Vector3(max(t1.x, t2.x), max(t1.y, t2.y), max(t1.z, t2.z))
            let tNear = max(max(tMin.x, tMin.y), tMin.z), tFar = min(min(tMax.x, tMax.y), tMax.z)
            guard tNear <= tFar else { return none }
            if kind == .boxExterior {
                guard tNear > Self.minimumDistance else { return none }
                let axis = tMin.x == tNear ? 0 : (tMin.y == tNear ? 1 : 2)
                return (tNear, 2 * axis + (d[axis] > 0 ? 0 : 1))
            }
            guard tFar > Self.minimumDistance, tFar.isFinite else { return none }
            let axis = tMax.x == tFar ? 0 : (tMax.y == tFar ? 1 : 2)
            return (tFar, 2 * axis + (d[axis] > 0 ? 1 : 0))
        case .sphere:
            let oc = o - center
            let c = dot3(oc, oc) - radius * radius
            guard c > 0 else { return none }
            let a = dot3(d, d), b = dot3(oc, d)
            let disc = b * b - a * c
            guard disc >= 0, b < 0 else { return none }
            // Stable form of the smaller root: c / q with q = -b + sqrt(disc).
            let t = c / (-b + disc.squareRoot())
            return t > Self.minimumDistance ? (t, 0) : none
        }
    }

    /// The same shape moved by `offset` (all positions shifted).
    func translated(by offset: Vector3) -> CompiledShape {
        var s = self
        s.center += offset
        s.lo += offset
        s.hi += offset
        return s
    }

    /// Surface coordinates (see `SurfaceCoordinates`) of a point on the shape.
    @inline(__always)
    func surfaceCoordinates(at p: Vector3, face: Int) -> SurfaceCoordinates {
        switch kind {
        case .rectangle:
            let q = p - center
            return SurfaceCoordinates(u: dot3(q, uAxis), v: dot3(q, vAxis), halfU: halfU, halfV: halfV, textureOffset: 0)
        case .boxInterior, .boxExterior:
            let axis = face >> 1
            let a1 = axis == 2 ? 0 : axis + 1, a2 = axis == 0 ? 2 : (axis == 1 ? 0 : 1)
            let q = p - center, h = 0.5 * (hi - lo)
            return SurfaceCoordinates(u: q[a1], v: q[a2], halfU: h[a1], halfV: h[a2],
                                      textureOffset: 97.0 * Double(face + 1))
        case .sphere:
            let q = p - center
            let lon = atan2(q.x, q.z)
            let lat = asin(min(max(-q.y / radius, -1), 1))
            return SurfaceCoordinates(u: radius * lon, v: radius * lat, halfU: Double.pi * radius,
                                      halfV: 0.5 * Double.pi * radius, textureOffset: 0)
        }
    }
}

/// Casts rays into a scene: nearest positive hit over all objects (a plain
/// loop; scenes have tens of objects) and the surface colour there.
public struct SceneRayCaster: Sendable {
    public let scene: Scene
    let shapes: [CompiledShape]
    let appearances: [CompiledAppearance]
    let bitmaps: [Bitmap]
    let background: SIMD3<Double>

    /// Validates and compiles the scene; throws `RenderError.invalidScene` for
    /// degenerate shapes (zero normals, non-positive sizes) or textures.
    public init(_ scene: Scene) throws {
        self.scene = scene
        var shapes: [CompiledShape] = [], appearances: [CompiledAppearance] = [], bitmaps: [Bitmap] = []
        for object in scene.objects {
            do {
                shapes.append(try CompiledShape(object.shape))
                if case let .bitmap(b) = object.appearance { bitmaps.append(b) }
                appearances.append(try CompiledAppearance(object.appearance, bitmapIndex: bitmaps.count - 1))
            } catch let RenderError.invalidScene(message) {
                throw RenderError.invalidScene("scene object '\(object.name)': \(message)")
            }
        }
        self.shapes = shapes
        self.appearances = appearances
        self.bitmaps = bitmaps
        background = SIMD3(scene.background.r, scene.background.g, scene.background.b)
    }

    /// The nearest hit of the ray origin + t direction (t > 0), or nil.
    public func cast(origin: Vector3, direction: Vector3) -> SurfaceHit? {
        shapes.withUnsafeBufferPointer { s in
            let h = Self.nearest(s, origin: origin, direction: direction)
            return h.index < 0 ? nil : SurfaceHit(distance: h.t, objectIndex: h.index, face: h.face)
        }
    }

    /// The colour the ray sees: the hit surface's colour, or the background.
    public func color(origin: Vector3, direction: Vector3) -> RGB {
        let c = withBuffers { s, a, b in Self.trace(s, a, b, background: background, origin: origin, direction: direction) }
        return RGB(c.x, c.y, c.z)
    }

    /// The caster of the scene moved by `offset` (world -> world + offset):
    /// rays from a camera centre C are cast from the origin into the scene
    /// translated by -C. Surface coordinates, and so colours, are unchanged.
    func translated(by offset: Vector3) -> SceneRayCaster {
        SceneRayCaster(scene: scene, shapes: shapes.map { $0.translated(by: offset) }, appearances: appearances,
                       bitmaps: bitmaps, background: background)
    }

    private init(scene: Scene, shapes: [CompiledShape], appearances: [CompiledAppearance], bitmaps: [Bitmap],
                 background: SIMD3<Double>) {
        self.scene = scene
        self.shapes = shapes
        self.appearances = appearances
        self.bitmaps = bitmaps
        self.background = background
    }

    /// Runs `body` with unsafe views of the compiled arrays (no retain/release
    /// in the per-sample loop).
    func withBuffers<R>(_ body: (UnsafeBufferPointer<CompiledShape>, UnsafeBufferPointer<CompiledAppearance>,
                                 UnsafeBufferPointer<Bitmap>) throws -> R) rethrows -> R {
        try shapes.withUnsafeBufferPointer { s in
            try appearances.withUnsafeBufferPointer { a in
                try bitmaps.withUnsafeBufferPointer { b in try body(s, a, b) }
            }
        }
    }

    /// Nearest hit over all shapes; index -1 when none. Ties keep the lower index.
    @inline(__always)
    static func nearest(_ shapes: UnsafeBufferPointer<CompiledShape>, origin o: Vector3,
                        direction d: Vector3) -> (t: Double, index: Int, face: Int) {
        let inv = 1 / d
        var best = (t: Double.infinity, index: -1, face: 0)
        for i in 0..<shapes.count {
            let h = shapes[i].intersect(origin: o, direction: d, inverse: inv)
            if h.t < best.t { best = (h.t, i, h.face) }
        }
        return best
    }

    /// The colour seen along a ray (background when nothing is hit).
    @inline(__always)
    static func trace(_ shapes: UnsafeBufferPointer<CompiledShape>, _ appearances: UnsafeBufferPointer<CompiledAppearance>,
                      _ bitmaps: UnsafeBufferPointer<Bitmap>, background: SIMD3<Double>,
                      origin o: Vector3, direction d: Vector3) -> SIMD3<Double> {
        let h = nearest(shapes, origin: o, direction: d)
        guard h.index >= 0 else { return background }
        let s = shapes[h.index].surfaceCoordinates(at: o + h.t * d, face: h.face)
        return appearances[h.index].color(s, bitmaps: bitmaps)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
