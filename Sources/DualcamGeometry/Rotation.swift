/// A proper rotation matrix: R^T R = I within 1e-6 (entry-wise) and det R = +1.
///
/// Construction validates instead of repairing: a matrix that is not
/// orthonormal, or is a reflection (det -1), is an error, because silently
/// re-orthonormalising would hide a broken calibration.
public struct Rotation: Equatable, Hashable, Sendable {
    /// Entry-wise tolerance on R^T R - I and on det R - 1.
    public static let orthonormalityTolerance = 1e-6

    public let matrix: Matrix3

    public init(_ matrix: Matrix3) throws {
        guard matrix.isFinite else {
            throw GeometryError.notARotation("rotation has non-finite entries: \(matrix)")
        }
        let deviation = (matrix.transposed * matrix).maxAbsDifference(.identity)
        guard deviation <= Rotation.orthonormalityTolerance else {
            throw GeometryError.notARotation(
                "rotation is not orthonormal: |R^T R - I| = \(deviation) exceeds \(Rotation.orthonormalityTolerance)")
        }
        let det = matrix.determinant
        guard abs(det - 1) <= Rotation.orthonormalityTolerance else {
            throw GeometryError.notARotation(
                "rotation has determinant \(det), expected +1 (a reflection is not a rotation)")
        }
        self.matrix = matrix
    }

    private init(unchecked matrix: Matrix3) { self.matrix = matrix }

    public static let identity = Rotation(unchecked: .identity)

    /// Rodrigues' formula for a rotation by `angle` radians about `axis`
    /// (right-handed): R = I + sin(a) [k]x + (1 - cos(a)) [k]x^2, k = axis/|axis|.
    /// A zero axis or zero angle gives the identity.
    public init(axis: Vector3, angle: Double) {
        let n = axis.norm
        guard n > 0, angle != 0 else { self = .identity; return }
        let k = axis / n
        let kx = Matrix3(rows: Vector3(0, -k.z, k.y), Vector3(k.z, 0, -k.x), Vector3(-k.y, k.x, 0))
        self.init(unchecked: .identity + kx * sin(angle) + (kx * kx) * (1 - cos(angle)))
    }

    /// A rotation from a Rodrigues vector (axis times angle in radians), as OpenCV's `Rodrigues`.
    public init(rotationVector r: Vector3) {
        self.init(axis: r, angle: r.norm)
    }

    /// The rotation angle in radians, in [0, pi]: atan2(|w| / 2, (trace - 1) / 2) with
    /// w = (R32 - R23, R13 - R31, R21 - R12) = 2 sin(angle) axis (accurate near 0 and pi,
    /// where acos((trace - 1) / 2) loses half the digits).
    public var angle: Double {
        atan2(skewVector.norm / 2, (matrix.trace - 1) / 2)
    }

    /// w = (R32 - R23, R13 - R31, R21 - R12) = 2 sin(angle) axis.
    private var skewVector: Vector3 {
        let m = matrix
        return Vector3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1])
    }

    /// The rotation angle in degrees.
    public var angleDegrees: Double { Angle.degrees(angle) }

    /// The Rodrigues vector (unit axis times angle in radians), as OpenCV's `Rodrigues`.
    public var rotationVector: Vector3 {
        let a = angle
        let m = matrix
        let w = skewVector
        if a < 1e-12 { return w / 2 }  // first order: R ~ I + [r]x
        if a < .pi - 1e-3 { return w * (a / (2 * sin(a))) }
        // Near pi w is tiny, so read the axis from the symmetric part instead:
        // (R + R^T) / 2 = cos(a) I + (1 - cos(a)) k k^T. Take the column of k k^T
        // with the largest diagonal.
        let c = cos(a)
        let b = ((m + m.transposed) * 0.5 - Matrix3.identity * c) * (1 / (1 - c))
        let i = [b[0, 0], b[1, 1], b[2, 2]].enumerated().max { $0.element < $1.element }!.offset
        var k = b.column(i) / b[i, i].squareRoot()
        if k.dot(w) < 0 { k = -k }  // w = 2 sin(a) k fixes the sign while a < pi
        return k / k.norm * a
    }

    public var inverse: Rotation { Rotation(unchecked: matrix.transposed) }

    /// self applied after `other`: (self * other) x = self(other(x)).
    public static func * (a: Rotation, b: Rotation) -> Rotation { Rotation(unchecked: a.matrix * b.matrix) }

    public static func * (r: Rotation, v: Vector3) -> Vector3 { r.matrix * v }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
