import DualcamLinearAlgebra
import TestSupport
import XCTest

final class LapackTests: XCTestCase {
    func testLeastSquaresRecoversLineThroughNoisyPoints() throws {
        // y = 2.5 x - 1 sampled exactly: the fit must be exact to rounding.
        let xs = (0..<20).map { Double($0) * 0.37 - 2 }
        let a = try DenseMatrix(rows: xs.count, columns: 2, values: xs.flatMap { [$0, 1] })
        let solution = try LeastSquares.solve(a, xs.map { 2.5 * $0 - 1 })
        XCTAssertClose(solution, [2.5, -1], absolute: 1e-12)
    }

    func testWeightedLeastSquaresIgnoresZeroWeightOutlier() throws {
        let xs: [Double] = [0, 1, 2, 3, 4]
        var ys = xs.map { 3 * $0 + 0.5 }
        ys[2] = 100  // outlier
        let a = try DenseMatrix(rows: 5, columns: 2, values: xs.flatMap { [$0, 1] })
        let plain = try LeastSquares.solve(a, ys)
        XCTAssertGreaterThan(abs(plain[0] - 3) + abs(plain[1] - 0.5), 1, "the outlier should skew a plain fit")
        let weighted = try LeastSquares.solve(a, ys, weights: [1, 1, 0, 1, 1])
        XCTAssertClose(weighted, [3, 0.5], absolute: 1e-12)
    }

    func testLeastSquaresRejectsRankDeficientAndBadShapes() throws {
        let a = try DenseMatrix(rows: 3, columns: 2, values: [1, 2, 2, 4, 3, 6])  // column 2 = 2 x column 1
        XCTAssertThrowsError(try LeastSquares.solve(a, [1, 2, 3]))
        XCTAssertThrowsError(try LeastSquares.solve(a, [1, 2]))
        XCTAssertThrowsError(try LeastSquares.solve(try DenseMatrix(rows: 1, columns: 2, values: [1, 2]), [1]))
        XCTAssertThrowsError(try LeastSquares.solve(try DenseMatrix(rows: 2, columns: 1, values: [.nan, 1]), [1, 2]))
        XCTAssertThrowsError(try DenseMatrix(rows: 2, columns: 2, values: [1, 2, 3]))
    }

    func testSymmetricEigenReconstructsMatrix() throws {
        var rng = SeededGenerator(seed: 7)
        let n = 5
        var m = DenseMatrix(rows: n, columns: n)
        for i in 0..<n { for j in i..<n { let v = Double.random(in: -1...1, using: &rng); m[i, j] = v; m[j, i] = v } }
        let (values, vectors) = try SymmetricEigen.decompose(m)
        XCTAssertEqual(values, values.sorted())
        var d = DenseMatrix(rows: n, columns: n)
        for i in 0..<n { d[i, i] = values[i] }
        let rebuilt = vectors * d * vectors.transposed
        XCTAssertClose(rebuilt.values, m.values, absolute: 1e-12)
        let orthogonality = vectors.transposed * vectors
        XCTAssertClose(orthogonality.values, DenseMatrix.identity(n).values, absolute: 1e-12)
    }

    func testKnownEigenvalues() throws {
        let m = try DenseMatrix(rows: 2, columns: 2, values: [2, 1, 1, 2])
        XCTAssertClose(try SymmetricEigen.decompose(m).values, [1, 3], absolute: 1e-14)
    }

    func testSVDReconstructsAndFindsNullVector() throws {
        var rng = SeededGenerator(seed: 11)
        let a = try DenseMatrix(rows: 6, columns: 4, values: (0..<24).map { _ in Double.random(in: -2...2, using: &rng) })
        let (u, s, vt) = try SingularValueDecomposition.decompose(a)
        XCTAssertEqual(s, s.sorted(by: >))
        var d = DenseMatrix(rows: 4, columns: 4)
        for i in 0..<4 { d[i, i] = s[i] }
        XCTAssertClose((u * d * vt).values, a.values, absolute: 1e-12)

        // Rows orthogonal to x = (1, -2, 0.5, 3): the null vector is x up to sign and scale.
        let x: [Double] = [1, -2, 0.5, 3]
        let norm = x.reduce(0) { $0 + $1 * $1 }.squareRoot()
        let rows: [[Double]] = [[2, 1, 0, 0], [0, 1.5, 6, 0], [3, 0, 0, -1], [0, 0, 6, -1], [1, 2, 0, 1]]
        let system = try DenseMatrix(rows: rows.count, columns: 4, values: rows.flatMap { $0 })
        let null = try SingularValueDecomposition.nullVector(system)
        let sign = null[0] > 0 ? 1.0 : -1.0
        XCTAssertClose(null.map { $0 * sign }, x.map { $0 / norm }, absolute: 1e-12)
    }
}
