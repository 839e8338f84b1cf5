/// 2- and 3-vectors of Double. Plain SIMD types, so arithmetic is the standard library's.
public typealias Vector2 = SIMD2<Double>
public typealias Vector3 = SIMD3<Double>

public extension SIMD3 where Scalar == Double {
    /// Euclidean length.
    var norm: Double { (self * self).sum().squareRoot() }
    /// Dot product.
    func dot(_ other: Vector3) -> Double { (self * other).sum() }
    /// Cross product self x other.
    func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Divides by z: the point on the plane z = 1 (homogeneous to Euclidean 2D).
    var dehomogenized: Vector2 { Vector2(x / z, y / z) }
}

public extension SIMD2 where Scalar == Double {
    var norm: Double { (self * self).sum().squareRoot() }
    /// (x, y, 1).
    var homogeneous: Vector3 { Vector3(x, y, 1) }
}

/// A 3x3 matrix of Double, stored by rows. Used for rotations, intrinsic
/// matrices K and homographies; `matrix * vector` treats the vector as a column.
public struct Matrix3: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0; self.row1 = row1; self.row2 = row2
    }

    /// Builds from 9 numbers in row-major order; nil unless exactly 9 are given.
    public init?(rowMajor values: [Double]) {
        guard values.count == 9 else { return nil }
        self.init(rows: Vector3(values[0], values[1], values[2]),
                  Vector3(values[3], values[4], values[5]),
                  Vector3(values[6], values[7], values[8]))
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    public static let zero = Matrix3(rows: .zero, .zero, .zero)

    /// diag(a, b, c).
    public static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 {
        Matrix3(rows: Vector3(a, 0, 0), Vector3(0, b, 0), Vector3(0, 0, c))
    }

    /// The outer product u v^T.
    public static func outer(_ u: Vector3, _ v: Vector3) -> Matrix3 {
        Matrix3(rows: u.x * v, u.y * v, u.z * v)
    }

    /// The 9 entries in row-major order.
    public var rowMajor: [Double] {
        [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z]
    }

    public subscript(row: Int, column: Int) -> Double {
        get {
            precondition((0..<3).contains(row) && (0..<3).contains(column), "Matrix3 index out of range")
            switch row { case 0: return row0[column]; case 1: return row1[column]; default: return row2[column] }
        }
        set {
            precondition((0..<3).contains(row) && (0..<3).contains(column), "Matrix3 index out of range")
            switch row { case 0: row0[column] = newValue; case 1: row1[column] = newValue; default: row2[column] = newValue }
        }
    }

    public func column(_ j: Int) -> Vector3 { Vector3(row0[j], row1[j], row2[j]) }

    public var transposed: Matrix3 { Matrix3(rows: column(0), column(1), column(2)) }

    public var determinant: Double { row0.dot(row1.cross(row2)) }

    public var trace: Double { row0.x + row1.y + row2.z }

    /// All entries finite (no NaN or infinity).
    public var isFinite: Bool { rowMajor.allSatisfy(\.isFinite) }

    /// The inverse by the adjugate, or nil when the matrix is singular
    /// (|det| below 1e-300 or not finite).
    public var inverse: Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        // Columns of the adjugate transposed are cross products of rows.
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        return Matrix3(rows: c0, c1, c2).transposed * (1 / det)
    }

    /// The largest absolute entry difference, for tolerance checks.
    public func maxAbsDifference(_ other: Matrix3) -> Double {
        zip(rowMajor, other.rowMajor).map { abs($0 - $1) }.max() ?? 0
    }

    /// Scaled so that entry (2,2) is 1 (the usual normalisation of a homography);
    /// unchanged when that entry is 0.
    public var normalizedHomography: Matrix3 {
        // Divide (not multiply by the reciprocal) so that entry (2,2) is exactly 1.
        row2.z == 0 ? self : Matrix3(rows: row0 / row2.z, row1 / row2.z, row2 / row2.z)
    }

    public var description: String {
        "[" + [row0, row1, row2].map { "[\($0.x), \($0.y), \($0.z)]" }.joined(separator: ", ") + "]"
    }

    public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.row0.dot(v), a.row1.dot(v), a.row2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(rows: bt * a.row0, bt * a.row1, bt * a.row2)
    }

    public static func * (a: Matrix3, s: Double) -> Matrix3 {
        Matrix3(rows: a.row0 * s, a.row1 * s, a.row2 * s)
    }

    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2)
    }

    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2)
    }

    /// Applies the matrix as a homography to a 2D point: (H [x y 1]^T) dehomogenized.
    public func applyHomography(_ p: Vector2) -> Vector2 {
        (self * p.homogeneous).dehomogenized
    }
}
