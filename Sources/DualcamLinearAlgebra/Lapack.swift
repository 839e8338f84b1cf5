import CLapacke

// Thin wrappers over LAPACKE (row-major layout). LAPACK is the well-kept
// library for these dense solves; nothing here re-implements a factorisation.
// Note: `lapack_int` is Int32 and is not imported by name, hence the Int32s.

private let rowMajor: Int32 = 101  // LAPACK_ROW_MAJOR

private func checkFinite(_ values: [Double], _ what: String) throws {
    guard values.allSatisfy(\.isFinite) else {
        throw LinearAlgebraError.notFinite("\(what) contains NaN or infinity")
    }
}

public enum LeastSquares {
    /// The x minimising |A x - b|_2 for a full-rank A with rows >= columns
    /// (QR via LAPACKE_dgels). Throws for rank-deficient A.
    public static func solve(_ a: DenseMatrix, _ b: [Double]) throws -> [Double] {
        guard b.count == a.rows else {
            throw LinearAlgebraError.dimensions("least squares: A has \(a.rows) rows but b has \(b.count) entries")
        }
        guard a.rows >= a.columns else {
            throw LinearAlgebraError.dimensions("least squares: A is \(a.rows)x\(a.columns); needs at least as many rows as columns")
        }
        try checkFinite(a.values, "least squares: A")
        try checkFinite(b, "least squares: b")
        var av = a.values
        var bv = b
        let info = LAPACKE_dgels(rowMajor, Int8(UInt8(ascii: "N")), Int32(a.rows), Int32(a.columns), 1,
                                 &av, Int32(a.columns), &bv, 1)
        guard info == 0 else { throw LinearAlgebraError.lapack(routine: "dgels", info: info) }
        // dgels only reports an exactly zero diagonal of R; treat a numerically
        // zero one (relative to the largest, at LAPACK's rank tolerance) as rank deficient.
        let diagonal = (0..<a.columns).map { abs(av[$0 * a.columns + $0]) }
        let tolerance = Double(max(a.rows, a.columns)) * Double.ulpOfOne * (diagonal.max() ?? 0)
        guard diagonal.allSatisfy({ $0 > tolerance }) else {
            throw LinearAlgebraError.dimensions("least squares: A is rank deficient (columns are linearly dependent)")
        }
        return Array(bv.prefix(a.columns))
    }

    /// Weighted least squares: minimises sum w_i (A_i x - b_i)^2 with w_i >= 0,
    /// by scaling each row by sqrt(w_i).
    public static func solve(_ a: DenseMatrix, _ b: [Double], weights: [Double]) throws -> [Double] {
        guard weights.count == a.rows, weights.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
            throw LinearAlgebraError.dimensions("weighted least squares: need \(a.rows) finite non-negative weights")
        }
        var scaled = a
        var sb = b
        for i in 0..<a.rows {
            let s = weights[i].squareRoot()
            for j in 0..<a.columns { scaled[i, j] *= s }
            if i < sb.count { sb[i] *= s }
        }
        return try solve(scaled, sb)
    }
}

public enum SymmetricEigen {
    /// Eigen-decomposition of a symmetric matrix (LAPACKE_dsyevd, upper triangle
    /// used): eigenvalues ascending, and the matrix whose *columns* are the
    /// corresponding unit eigenvectors.
    public static func decompose(_ a: DenseMatrix) throws -> (values: [Double], vectors: DenseMatrix) {
        guard a.rows == a.columns else {
            throw LinearAlgebraError.dimensions("eigen: matrix must be square, got \(a.rows)x\(a.columns)")
        }
        try checkFinite(a.values, "eigen: matrix")
        var v = a.values
        var w = [Double](repeating: 0, count: a.rows)
        let info = LAPACKE_dsyevd(rowMajor, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "U")), Int32(a.rows),
                                  &v, Int32(a.rows), &w)
        guard info == 0 else { throw LinearAlgebraError.lapack(routine: "dsyevd", info: info) }
        return (w, try DenseMatrix(rows: a.rows, columns: a.rows, values: v))
    }
}

public enum SingularValueDecomposition {
    /// A = U diag(s) V^T (LAPACKE_dgesdd, thin): singular values descending;
    /// U is rows x k and Vt is k x columns with k = min(rows, columns).
    public static func decompose(_ a: DenseMatrix) throws -> (u: DenseMatrix, s: [Double], vt: DenseMatrix) {
        try checkFinite(a.values, "SVD: matrix")
        let m = a.rows, n = a.columns, k = min(m, n)
        var av = a.values
        var s = [Double](repeating: 0, count: k)
        var u = [Double](repeating: 0, count: m * k)
        var vt = [Double](repeating: 0, count: k * n)
        let info = LAPACKE_dgesdd(rowMajor, Int8(UInt8(ascii: "S")), Int32(m), Int32(n), &av, Int32(n),
                                  &s, &u, Int32(k), &vt, Int32(n))
        guard info == 0 else { throw LinearAlgebraError.lapack(routine: "dgesdd", info: info) }
        return (try DenseMatrix(rows: m, columns: k, values: u), s,
                try DenseMatrix(rows: k, columns: n, values: vt))
    }

    /// The unit vector x minimising |A x| (the right singular vector of the
    /// smallest singular value): the standard solution of homogeneous systems
    /// such as DLT homography fits.
    public static func nullVector(_ a: DenseMatrix) throws -> [Double] {
        // Pad to at least as many rows as columns so the thin SVD yields all of V.
        var padded = a
        if a.rows < a.columns {
            padded = try DenseMatrix(rows: a.columns, columns: a.columns,
                                     values: a.values + [Double](repeating: 0, count: (a.columns - a.rows) * a.columns))
        }
        let (_, _, vt) = try decompose(padded)
        let last = vt.rows - 1
        return (0..<vt.columns).map { vt[last, $0] }
    }
}
