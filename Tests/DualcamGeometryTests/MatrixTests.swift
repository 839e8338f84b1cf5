import DualcamGeometry
import TestSupport
import XCTest

final class MatrixTests: XCTestCase {
    let a = Matrix3(rowMajor: [2, -1, 0.5, 3, 4, -2, 1, 0, 5])!
    let b = Matrix3(rowMajor: [1, 2, 3, 0, -1, 4, 2, 2, -3])!

    func testRowMajorRoundTripAndSubscripts() {
        XCTAssertEqual(a.rowMajor, [2, -1, 0.5, 3, 4, -2, 1, 0, 5])
        XCTAssertEqual(a[0, 2], 0.5)
        XCTAssertEqual(a[1, 0], 3)
        XCTAssertEqual(a[2, 2], 5)
        XCTAssertEqual(a.column(1), Vector3(-1, 4, 0))
        XCTAssertNil(Matrix3(rowMajor: [1, 2, 3]))
        XCTAssertNil(Matrix3(rowMajor: Array(repeating: 0, count: 10)))
        var m = a
        m[1, 2] = 7
        XCTAssertEqual(m.row1, Vector3(3, 4, 7))
        XCTAssertEqual(m.row0, a.row0)
    }

    func testProductMatchesHandComputation() {
        // Row-by-column products written out.
        var expected = [Double]()
        for i in 0..<3 {
            for j in 0..<3 {
                expected.append((0..<3).map { a[i, $0] * b[$0, j] }.reduce(0, +))
            }
        }
        XCTAssertEqual((a * b).rowMajor, expected)
        XCTAssertNotEqual((a * b).rowMajor, (b * a).rowMajor, "matrix product is not commutative")
        XCTAssertEqual(a * Vector3(1, 2, 3), Vector3(2 - 2 + 1.5, 3 + 8 - 6, 1 + 0 + 15))
    }

    func testTransposeDeterminantTrace() {
        XCTAssertEqual(a.transposed.rowMajor, [2, 3, 1, -1, 4, 0, 0.5, -2, 5])
        // det by cofactor expansion along the first row.
        let c0: Double = 2 * (4 * 5 - (-2) * 0)
        let c1: Double = -(-1) * (3 * 5 - (-2) * 1)
        let c2: Double = 0.5 * (3 * 0 - 4 * 1)
        XCTAssertEqual(a.determinant, c0 + c1 + c2)
        XCTAssertEqual(a.trace, 11)
        XCTAssertClose((a * b).determinant, a.determinant * b.determinant, relative: 1e-12)
    }

    func testInverse() throws {
        let inv = try XCTUnwrap(a.inverse)
        XCTAssertClose(a * inv, .identity, absolute: 1e-14)
        XCTAssertClose(inv * a, .identity, absolute: 1e-14)
        let singular = Matrix3(rowMajor: [1, 2, 3, 2, 4, 6, 0, 1, 1])!
        XCTAssertNil(singular.inverse)
        var nonFinite = a
        nonFinite[0, 0] = .nan
        XCTAssertNil(nonFinite.inverse)
    }

    func testArithmeticAndHelpers() {
        XCTAssertEqual((a + b).rowMajor, zip(a.rowMajor, b.rowMajor).map { $0 + $1 })
        XCTAssertEqual((a - b).rowMajor, zip(a.rowMajor, b.rowMajor).map { $0 - $1 })
        XCTAssertEqual((a * 2).rowMajor, a.rowMajor.map { $0 * 2 })
        XCTAssertEqual(Matrix3.diagonal(2, 3, 4).rowMajor, [2, 0, 0, 0, 3, 0, 0, 0, 4])
        XCTAssertEqual(Matrix3.outer(Vector3(1, 2, 3), Vector3(4, 5, 6)).rowMajor, [4, 5, 6, 8, 10, 12, 12, 15, 18])
        XCTAssertEqual(a.maxAbsDifference(b), 8)  // |5 - (-3)|
        XCTAssertTrue(a.isFinite)
        var inf = a
        inf[2, 1] = .infinity
        XCTAssertFalse(inf.isFinite)
    }

    func testHomographyApplicationAndNormalisation() {
        let h = Matrix3(rowMajor: [2, 0, 10, 0, 3, -5, 0.001, 0, 2])!
        let p = Vector2(100, 50)
        let w = 0.001 * 100 + 2
        XCTAssertEqual(h.applyHomography(p), Vector2((200 + 10) / w, (150 - 5) / w))
        let n = h.normalizedHomography
        XCTAssertEqual(n[2, 2], 1)
        XCTAssertEqual(n[0, 0], 1)
        XCTAssertClose(n.applyHomography(p), h.applyHomography(p), absolute: 1e-12)
        // Exactly 1 even when 1 / H[2][2] is not representable.
        for corner in [0.3, 3, 7e-4, -1.7, 123.456] {
            var m = h
            m[2, 2] = corner
            XCTAssertEqual(m.normalizedHomography[2, 2], 1, "\(corner)")
            XCTAssertClose(m.normalizedHomography.applyHomography(p), m.applyHomography(p), absolute: 1e-9)
        }
        var zeroCorner = h
        zeroCorner[2, 2] = 0
        XCTAssertEqual(zeroCorner.normalizedHomography, zeroCorner)
    }

    func testVectorHelpers() {
        let u = Vector3(1, 2, 3), v = Vector3(-2, 0.5, 4)
        XCTAssertEqual(u.dot(v), -2 + 1 + 12)
        XCTAssertEqual(u.cross(v), Vector3(2 * 4 - 3 * 0.5, 3 * -2 - 1 * 4, 1 * 0.5 - 2 * -2))
        XCTAssertEqual(u.cross(v).dot(u), 0)
        XCTAssertEqual(Vector3(3, 4, 12).norm, 13)
        XCTAssertEqual(Vector2(3, 4).norm, 5)
        XCTAssertEqual(Vector3(4, 6, 2).dehomogenized, Vector2(2, 3))
        XCTAssertEqual(Vector2(7, 8).homogeneous, Vector3(7, 8, 1))
    }

    func testDescriptionListsRows() {
        XCTAssertEqual(Matrix3.identity.description, "[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]")
    }
}
