import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class RotationTests: XCTestCase {
    // MARK: Validation

    func testProperRotationIsAccepted() throws {
        let r = Rotation(axis: Vector3(1, 2, 3), angle: 0.7)
        let copy = try Rotation(r.matrix)
        XCTAssertEqual(copy, r)
        XCTAssertNoThrow(try Rotation(.identity))
    }

    func testNonOrthonormalBeyondToleranceThrows() {
        // diag(s, 1, 1): R^T R - I has (0,0) entry s^2 - 1.
        let base = Rotation(axis: Vector3(0.3, -1, 0.2), angle: 0.4).matrix
        for deviation in [1.5e-6, 1e-5, 1e-3, 0.5] {
            let m = base * Matrix3.diagonal((1 + deviation).squareRoot(), 1, 1)
            let error = assertGeometryError(try Rotation(m), "deviation \(deviation)")
            guard case .notARotation = error else { return XCTFail("wrong error \(String(describing: error))") }
            XCTAssertTrue(error!.description.contains("orthonormal"), error!.description)
        }
        // A shear keeps det = 1 but breaks orthonormality.
        var shear = Matrix3.identity
        shear[0, 1] = 1e-5
        XCTAssertThrowsError(try Rotation(shear))
    }

    func testNearlyOrthonormalWithinToleranceIsAccepted() throws {
        let base = Rotation(axis: Vector3(0.3, -1, 0.2), angle: 0.4).matrix
        // Entry-wise noise of 1e-7 (as in a rotation printed with 7 digits).
        var noisy = base
        noisy[0, 1] += 1e-7
        noisy[2, 0] -= 1e-7
        noisy[1, 1] += 1e-7
        XCTAssertNoThrow(try Rotation(noisy))
        XCTAssertNoThrow(try Rotation(base * Matrix3.diagonal((1 + 5e-7).squareRoot(), 1, 1)))
        // Rounded to 7 decimals, as calibration files often are.
        let rounded = Matrix3(rowMajor: base.rowMajor.map { ($0 * 1e7).rounded() / 1e7 })!
        XCTAssertNoThrow(try Rotation(rounded))
    }

    func testReflectionThrows() {
        for m in [Matrix3.diagonal(1, 1, -1), Matrix3.diagonal(-1, -1, -1),
                  Rotation(axis: Vector3(1, 1, 0), angle: 1).matrix * Matrix3.diagonal(-1, 1, 1)] {
            let error = assertGeometryError(try Rotation(m))
            XCTAssertEqual(error.map { if case .notARotation = $0 { return true } else { return false } }, true)
            XCTAssertTrue(error?.description.contains("determinant") ?? false, String(describing: error))
        }
    }

    func testNonFiniteThrows() {
        for bad in [Double.nan, .infinity, -.infinity] {
            var m = Matrix3.identity
            m[1, 2] = bad
            XCTAssertThrowsError(try Rotation(m)) { error in
                XCTAssertTrue(String(describing: error).contains("non-finite"), "\(error)")
            }
        }
    }

    // MARK: Rodrigues

    func testRodriguesMatchesKnownRotations() {
        // 90 deg about z maps x to y (right-handed).
        let rz = Rotation(axis: Vector3(0, 0, 2), angle: .pi / 2)
        XCTAssertClose(rz * Vector3(1, 0, 0), Vector3(0, 1, 0), absolute: 1e-15)
        XCTAssertClose(rz * Vector3(0, 1, 0), Vector3(-1, 0, 0), absolute: 1e-15)
        // 90 deg about x maps y to z.
        let rx = Rotation(axis: Vector3(3, 0, 0), angle: .pi / 2)
        XCTAssertClose(rx * Vector3(0, 1, 0), Vector3(0, 0, 1), absolute: 1e-15)
        // 120 deg about (1,1,1) cycles the axes x -> y -> z.
        let cyc = Rotation(axis: Vector3(1, 1, 1), angle: 2 * .pi / 3)
        XCTAssertClose(cyc.matrix, Matrix3(rowMajor: [0, 0, 1, 1, 0, 0, 0, 1, 0])!, absolute: 1e-15)
        XCTAssertEqual(Rotation(axis: .zero, angle: 1), .identity)
        XCTAssertEqual(Rotation(axis: Vector3(1, 0, 0), angle: 0), .identity)
        XCTAssertEqual(Rotation(rotationVector: .zero), .identity)
    }

    func testRodriguesProducesValidRotations() throws {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let r = Rotation(axis: rng.unitVector() * rng.uniform(0.1...10), angle: rng.uniform(-7...7))
            // Re-validating must succeed with a much tighter margin than the tolerance.
            XCTAssertLessThan((r.matrix.transposed * r.matrix).maxAbsDifference(.identity), 1e-14)
            XCTAssertClose(r.matrix.determinant, 1, absolute: 1e-14)
            XCTAssertNoThrow(try Rotation(r.matrix))
        }
    }

    func testAngleAndAxisRoundTripRandom() {
        var rng = SeededGenerator(seed: 12)
        for _ in 0..<500 {
            let axis = rng.unitVector()
            let angle = rng.uniform(0...Double.pi)
            let r = Rotation(axis: axis, angle: angle)
            XCTAssertClose(r.angle, angle, absolute: 1e-12, "axis \(axis)")
            XCTAssertClose(r.rotationVector, axis * angle, absolute: 1e-12, "axis \(axis) angle \(angle)")
            XCTAssertClose(r.angleDegrees, angle * 180 / .pi, absolute: 1e-10)
            // Back through the rotation vector.
            XCTAssertClose(Rotation(rotationVector: r.rotationVector).matrix, r.matrix, absolute: 1e-12)
        }
    }

    func testNegativeAngleIsTheSameAsReversedAxis() {
        let r1 = Rotation(axis: Vector3(1, -2, 0.5), angle: -0.8)
        let r2 = Rotation(axis: Vector3(-1, 2, -0.5), angle: 0.8)
        XCTAssertClose(r1.matrix, r2.matrix, absolute: 1e-15)
        XCTAssertClose(r1.angle, 0.8, absolute: 1e-14)
        XCTAssertClose(r1.rotationVector, Vector3(-1, 2, -0.5) / Vector3(1, -2, 0.5).norm * 0.8, absolute: 1e-14)
    }

    func testRoundTripNearZeroAngle() {
        var rng = SeededGenerator(seed: 13)
        for angle in [1e-15, 1e-13, 1e-12, 1e-11, 1e-9, 3e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3] {
            for _ in 0..<20 {
                let axis = rng.unitVector()
                let r = Rotation(axis: axis, angle: angle)
                let v = r.rotationVector
                // Absolute accuracy relative to the angle itself.
                XCTAssertClose(v, axis * angle, absolute: angle * 1e-8, "angle \(angle)")
                XCTAssertClose(Rotation(rotationVector: v).matrix, r.matrix, absolute: 1e-15)
            }
        }
    }

    func testRoundTripNearPi() {
        var rng = SeededGenerator(seed: 14)
        for delta in [0.0, 1e-12, 1e-10, 1e-9, 1e-8, 1e-7, 5e-7, 1e-6, 2e-6, 1e-5, 1e-4, 1e-3, 1e-2] {
            for _ in 0..<20 {
                let axis = rng.unitVector()
                let angle = Double.pi - delta
                let r = Rotation(axis: axis, angle: angle)
                let v = r.rotationVector
                XCTAssertClose(v.norm, angle, absolute: 1e-12, "delta \(delta)")
                if delta == 0 {
                    // At exactly pi, k and -k describe the same rotation.
                    let sign: Double = v.dot(axis) >= 0 ? 1 : -1
                    XCTAssertClose(v, axis * angle * sign, absolute: 1e-12, "delta 0")
                } else {
                    XCTAssertClose(v, axis * angle, absolute: 1e-12, "delta \(delta) axis \(axis)")
                }
                XCTAssertClose(Rotation(rotationVector: v).matrix, r.matrix, absolute: 1e-12, "delta \(delta)")
            }
        }
    }

    func testHalfTurnsAboutCoordinateAxes() throws {
        for (i, m) in [Matrix3.diagonal(1, -1, -1), .diagonal(-1, 1, -1), .diagonal(-1, -1, 1)].enumerated() {
            let r = try Rotation(m)
            XCTAssertEqual(r.angle, .pi, accuracy: 1e-15)
            let v = r.rotationVector
            var expected = Vector3.zero
            expected[i] = .pi
            XCTAssertClose(Vector3(abs(v.x), abs(v.y), abs(v.z)), expected, absolute: 1e-15)
            XCTAssertClose(Rotation(rotationVector: v).matrix, m, absolute: 1e-15)
        }
    }

    // MARK: Algebra

    func testInverse() {
        var rng = SeededGenerator(seed: 15)
        for _ in 0..<50 {
            let r = rng.rotation(degrees: 0...180)
            XCTAssertClose((r * r.inverse).matrix, .identity, absolute: 1e-15)
            XCTAssertClose((r.inverse * r).matrix, .identity, absolute: 1e-15)
            XCTAssertEqual(r.inverse.matrix, r.matrix.transposed)
            let p = Vector3(rng.uniform(-5...5), rng.uniform(-5...5), rng.uniform(-5...5))
            XCTAssertClose(r.inverse * (r * p), p, absolute: 1e-14)
            // Same axis, opposite angle.
            XCTAssertClose(r.inverse.rotationVector, -r.rotationVector, absolute: 1e-12)
        }
    }

    func testCompositionAppliesRightFactorFirst() {
        // Rotate 90 deg about z, then 90 deg about x: x -> y -> z.
        let rz = Rotation(axis: Vector3(0, 0, 1), angle: .pi / 2)
        let rx = Rotation(axis: Vector3(1, 0, 0), angle: .pi / 2)
        XCTAssertClose((rx * rz) * Vector3(1, 0, 0), Vector3(0, 0, 1), absolute: 1e-15)
        // The other order gives a different result: x -> x -> y.
        XCTAssertClose((rz * rx) * Vector3(1, 0, 0), Vector3(0, 1, 0), absolute: 1e-15)
    }

    func testCompositionAboutOneAxisAddsAngles() {
        var rng = SeededGenerator(seed: 16)
        for _ in 0..<50 {
            let axis = rng.unitVector()
            let a = rng.uniform(-1.5...1.5), b = rng.uniform(-1.5...1.5)
            let composed = Rotation(axis: axis, angle: a) * Rotation(axis: axis, angle: b)
            XCTAssertClose(composed.matrix, Rotation(axis: axis, angle: a + b).matrix, absolute: 1e-14)
        }
    }

    func testCompositionIsMatrixProductAndAssociative() {
        var rng = SeededGenerator(seed: 17)
        for _ in 0..<50 {
            let a = rng.rotation(degrees: 0...180), b = rng.rotation(degrees: 0...180), c = rng.rotation(degrees: 0...180)
            XCTAssertEqual((a * b).matrix, a.matrix * b.matrix)
            XCTAssertClose(((a * b) * c).matrix, (a * (b * c)).matrix, absolute: 1e-14)
            let p = Vector3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
            XCTAssertClose((a * b) * p, a * (b * p), absolute: 1e-14)
            XCTAssertNoThrow(try Rotation((a * b * c).matrix))
        }
    }

    func testRodriguesAgainstIndependentSeries() {
        // exp([r]x) by its power series, independent of the closed form.
        var rng = SeededGenerator(seed: 18)
        for _ in 0..<20 {
            let r = rng.unitVector() * rng.uniform(0...3)
            let w = crossMatrix(r)
            var term = Matrix3.identity, sum = Matrix3.identity
            for n in 1..<40 {
                term = term * w * (1 / Double(n))
                sum = sum + term
            }
            XCTAssertClose(Rotation(rotationVector: r).matrix, sum, absolute: 1e-13)
        }
    }
}
