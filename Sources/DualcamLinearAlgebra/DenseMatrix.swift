/// A dense row-major matrix of Double of any size, the currency of the LAPACKE
/// wrappers (least squares, eigen, SVD). Small fixed-size geometry lives in
/// DualcamGeometry's Matrix3; this type is for the variable-size problems
/// (robust fits, calibration refinements) that go to LAPACK.
public struct DenseMatrix: Equatable, Sendable {
    public let rows: Int
    public let columns: Int
    /// Entries by rows: element (i, j) is `values[i * columns + j]`.
    public var values: [Double]

    public init(rows: Int, columns: Int, values: [Double]) throws {
        guard rows > 0, columns > 0, values.count == rows * columns else {
            throw LinearAlgebraError.dimensions(
                "a \(rows)x\(columns) matrix needs \(max(0, rows * columns)) values, got \(values.count)")
        }
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        precondition(rows > 0 && columns > 0, "DenseMatrix dimensions must be positive")
        self.rows = rows
        self.columns = columns
        values = Array(repeating: value, count: rows * columns)
    }

    public subscript(row: Int, column: Int) -> Double {
        get {
            precondition((0..<rows).contains(row) && (0..<columns).contains(column), "DenseMatrix index out of range")
            return values[row * columns + column]
        }
        set {
            precondition((0..<rows).contains(row) && (0..<columns).contains(column), "DenseMatrix index out of range")
            values[row * columns + column] = newValue
        }
    }

    public static func identity(_ n: Int) -> DenseMatrix {
        var m = DenseMatrix(rows: n, columns: n)
        for i in 0..<n { m[i, i] = 1 }
        return m
    }

    public var transposed: DenseMatrix {
        var t = DenseMatrix(rows: columns, columns: rows)
        for i in 0..<rows { for j in 0..<columns { t[j, i] = self[i, j] } }
        return t
    }

    /// Matrix product (naive triple loop: these matrices are small).
    public static func * (a: DenseMatrix, b: DenseMatrix) -> DenseMatrix {
        precondition(a.columns == b.rows, "DenseMatrix product of \(a.rows)x\(a.columns) and \(b.rows)x\(b.columns)")
        var c = DenseMatrix(rows: a.rows, columns: b.columns)
        for i in 0..<a.rows {
            for k in 0..<a.columns {
                let aik = a[i, k]
                if aik == 0 { continue }
                for j in 0..<b.columns { c.values[i * b.columns + j] += aik * b.values[k * b.columns + j] }
            }
        }
        return c
    }

    /// Matrix-vector product.
    public static func * (a: DenseMatrix, x: [Double]) -> [Double] {
        precondition(a.columns == x.count, "DenseMatrix times vector of wrong length")
        return (0..<a.rows).map { i in (0..<a.columns).reduce(0) { $0 + a[i, $1] * x[$1] } }
    }
}

/// Errors of the linear-algebra wrappers (one line each).
public enum LinearAlgebraError: Error, Equatable, CustomStringConvertible {
    case dimensions(String)
    case notFinite(String)
    case lapack(routine: String, info: Int32)

    public var description: String {
        switch self {
        case let .dimensions(m), let .notFinite(m): return m
        case let .lapack(routine, info):
            return info < 0
                ? "LAPACK \(routine): argument \(-info) is invalid"
                : "LAPACK \(routine) failed to converge or the matrix is rank deficient (info \(info))"
        }
    }
}
