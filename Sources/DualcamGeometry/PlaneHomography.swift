/// A plane n^T X = d in some camera's coordinates: `normal` is a unit vector
/// and `distance` > 0 the distance from that camera's centre to the plane, in
/// `unit` (infinity gives the plane at infinity).
public struct Plane: Equatable, Sendable {
    public let normal: Vector3
    public let distance: Double
    public let unit: LengthUnit
    public let frame: FrameName

    /// Throws unless the normal is finite and non-zero (it is normalised to unit
    /// length) and the distance positive (infinity allowed).
    public init(normal: Vector3, distance: Double, unit: LengthUnit, in frame: FrameName) throws {
        let length = normal.norm
        guard length.isFinite, length > 0 else {
            throw GeometryError.invalidPlane("plane normal must be a finite non-zero vector, got (\(normal.x), \(normal.y), \(normal.z))")
        }
        guard !distance.isNaN, distance > 0 else {
            throw GeometryError.invalidPlane("plane distance must be positive, got \(distance)")
        }
        self.normal = normal / length
        self.distance = distance
        self.unit = unit
        self.frame = frame
    }

    /// The fronto-parallel plane Z = distance in `frame`: n = (0, 0, 1).
    public static func frontoParallel(distance: Distance, in frame: FrameName) -> Plane {
        try! Plane(normal: Vector3(0, 0, 1), distance: distance.metres, unit: .metre, in: frame)
    }

    /// The plane's tilt from fronto-parallel in degrees: the angle between n and the optical axis.
    public var tiltDegrees: Double { Angle.degrees(acos(min(1, abs(normal.z)))) }
}

/// Plane-induced homographies between two cameras.
public enum PlaneHomography {
    /// The homography induced by a plane between two views:
    ///
    ///     H_dst<-src = K_dst (R + t n^T / d) K_src^-1
    ///
    /// for the plane n^T X = d (unit normal n, distance d > 0) in *source*
    /// coordinates and X_dst = R X_src + t (`dstFromSrc`; t and d in one unit,
    /// converted here). Hartley & Zisserman write the plane as n^T X + d = 0,
    /// hence their minus sign. An infinite d gives the infinite homography
    /// K_dst R K_src^-1. A pixel u_src of a point on the plane maps to
    /// u_dst ~ H u_src. Intrinsics must be those of the buffers involved; the
    /// result is normalised so that H[2][2] = 1 when that entry is non-zero.
    public static func homography(
        from source: Intrinsics, to destination: Intrinsics,
        dstFromSrc: RigidTransform, plane: Plane
    ) throws -> Matrix3 {
        guard plane.frame == dstFromSrc.source else {
            throw GeometryError.frameMismatch(
                "the plane is given in \(plane.frame) coordinates but the transform maps from \(dstFromSrc.source)")
        }
        var core = dstFromSrc.rotation.matrix
        if plane.distance.isFinite {
            let t = dstFromSrc.translation(in: plane.unit)
            core = core + Matrix3.outer(t, plane.normal) * (1 / plane.distance)
        }
        let h = destination.matrix * core * source.inverseMatrix
        guard h.isFinite, abs(h.determinant) > 1e-300 else {
            throw GeometryError.singular("the plane-induced homography is singular (the plane passes through a camera centre?)")
        }
        return h.normalizedHomography
    }

    /// The homography for the fronto-parallel plane Z = `distance` in source coordinates.
    public static func frontoParallel(
        from source: Intrinsics, to destination: Intrinsics,
        dstFromSrc: RigidTransform, distance: Distance
    ) throws -> Matrix3 {
        try homography(from: source, to: destination, dstFromSrc: dstFromSrc,
                       plane: .frontoParallel(distance: distance, in: dstFromSrc.source))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
