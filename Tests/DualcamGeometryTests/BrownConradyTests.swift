import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class BrownConradyTests: XCTestCase {
    /// A realistic 5-coefficient phone wide-angle calibration.
    func fiveCoefficient() throws -> BrownConrady {
        try BrownConrady(coefficients: [-0.28, 0.07, 1e-4, -2e-4, 0])
    }

    /// A realistic 8-coefficient rational fit (CALIB_RATIONAL_MODEL: large, nearly cancelling terms).
    func rational() throws -> BrownConrady {
        try BrownConrady(coefficients: [12.5, 8.1, -1e-4, 3e-4, 0.35, 12.8, 13.2, 2.1])
    }

    /// OpenCV's projectPoints distortion, transcribed from its source layout
    /// (cdist / icdist, a1 = 2xy, a2 = r2 + 2x^2, a3 = r2 + 2y^2), independent of the library.
    func openCVDistort(_ x: Double, _ y: Double, _ k: [Double]) -> (Double, Double) {
        let c = k + Array(repeating: 0, count: 8 - k.count)
        let (k1, k2, p1, p2, k3, k4, k5, k6) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])
        let r2 = x * x + y * y
        let a1 = 2 * x * y, a2 = r2 + 2 * x * x, a3 = r2 + 2 * y * y
        let cdist = 1 + ((k3 * r2 + k2) * r2 + k1) * r2
        let icdist = 1 / (1 + ((k6 * r2 + k5) * r2 + k4) * r2)
        return (x * cdist * icdist + p1 * a1 + p2 * a2, y * cdist * icdist + p1 * a3 + p2 * a1)
    }

    func testDistortMatchesOpenCVFormula() throws {
        var rng = SeededGenerator(seed: 51)
        let sets: [[Double]] = [
            [-0.28, 0.07, 1e-4, -2e-4, 0],
            [0.1, -0.25, -3e-3, 2e-3],
            [-0.3, 0.12, 5e-4, 1e-4, -0.02],
            [12.5, 8.1, -1e-4, 3e-4, 0.35, 12.8, 13.2, 2.1],
            [0, 0, 0.01, -0.02, 0, 0.5, 0, 0],
        ]
        for c in sets {
            let model = try BrownConrady(coefficients: c)
            for _ in 0..<200 {
                let x = rng.uniform(-0.8...0.8), y = rng.uniform(-0.6...0.6)
                let (ex, ey) = openCVDistort(x, y, c)
                let d = model.distort(Vector2(x, y))
                XCTAssertClose(d, Vector2(ex, ey), absolute: 1e-15, "\(c) at (\(x), \(y))")
            }
        }
    }

    func testDistortHandComputedValues() throws {
        // k1 only, on the x axis: x (1 + k1 x^2) = 0.5 (1 - 0.28 * 0.25) = 0.465.
        XCTAssertClose(try BrownConrady(k1: -0.28).distort(Vector2(0.5, 0)), Vector2(0.465, 0), absolute: 1e-16)
        // p1 only at (0.1, 0.2): x += 2 p1 x y, y += p1 (r2 + 2 y^2).
        let p1 = try BrownConrady(p1: 0.01).distort(Vector2(0.1, 0.2))
        XCTAssertClose(p1, Vector2(0.1 + 2 * 0.01 * 0.02, 0.2 + 0.01 * (0.05 + 0.08)), absolute: 1e-16)
        // p2 only: x += p2 (r2 + 2 x^2), y += 2 p2 x y.
        let p2 = try BrownConrady(p2: 0.01).distort(Vector2(0.1, 0.2))
        XCTAssertClose(p2, Vector2(0.1 + 0.01 * (0.05 + 0.02), 0.2 + 2 * 0.01 * 0.02), absolute: 1e-16)
        // Rational: (1 + k1 r2) / (1 + k4 r2) at r2 = 0.25 with k1 = 1, k4 = 3: 1.25 / 1.75.
        XCTAssertClose(try BrownConrady(k1: 1, k4: 3).distort(Vector2(0, 0.5)), Vector2(0, 0.5 * 1.25 / 1.75), absolute: 1e-16)
        // k2, k3 at r = 1 on the diagonal: r2 = 1, factor 1 + k2 + k3.
        let s = 0.5.squareRoot()
        XCTAssertClose(try BrownConrady(k2: 0.1, k3: 0.01).distort(Vector2(s, s)), Vector2(s, s) * 1.11, absolute: 1e-15)
        // The centre never moves.
        XCTAssertEqual(try rational().distort(.zero), .zero)
    }

    func testUndistortInvertsDistortWithinTheField() throws {
        var rng = SeededGenerator(seed: 52)
        // The normalised field of a ~70 deg wide camera at 4:3: |x| <= 0.7, |y| <= 0.52.
        for model in [try fiveCoefficient(), try rational(), try BrownConrady(coefficients: [-0.3, 0.12, 5e-4, 1e-4, -0.02])] {
            var worst = 0.0
            for _ in 0..<1000 {
                let p = Vector2(rng.uniform(-0.7...0.7), rng.uniform(-0.52...0.52))
                let d = model.distort(p)
                let u = try model.undistort(d)
                worst = max(worst, (u - p).norm)
                XCTAssertClose(u, p, absolute: 1e-10, "\(model.coefficients) at \(p)")
            }
            // The model is not the identity: points do move.
            XCTAssertGreaterThan((model.distort(Vector2(0.7, 0.52)) - Vector2(0.7, 0.52)).norm, 0.01)
            // Corners and axes exactly.
            for p in [Vector2(0.7, 0.52), Vector2(-0.7, 0.52), Vector2(0.7, -0.52), Vector2(0, 0.52), Vector2(0.7, 0), .zero] {
                XCTAssertClose(try model.undistort(model.distort(p)), p, absolute: 1e-10)
            }
            XCTAssertLessThan(worst, 1e-10)
        }
    }

    func testUndistortResidualMeetsTolerance() throws {
        var rng = SeededGenerator(seed: 53)
        let model = try fiveCoefficient()
        for _ in 0..<200 {
            let target = Vector2(rng.uniform(-0.6...0.6), rng.uniform(-0.45...0.45))
            let u = try model.undistort(target)
            XCTAssertLessThanOrEqual((model.distort(u) - target).norm, 1e-12)
            let loose = try model.undistort(target, tolerance: 1e-6)
            XCTAssertLessThanOrEqual((model.distort(loose) - target).norm, 1e-6)
        }
    }

    func testUndistortThrowsWhereTheModelHasNoInverse() throws {
        // x (1 - x^2) on the x axis peaks at 2 / (3 sqrt 3) ~ 0.385 (x = 1/sqrt 3): nothing maps to 0.5.
        let strong = try BrownConrady(k1: -1)
        for target in [Vector2(0.5, 0), Vector2(0, 0.6), Vector2(0.4, 0.4), Vector2(-1, 2)] {
            let error = assertGeometryError(try strong.undistort(target), "\(target)")
            guard case .undistortionDidNotConverge = error else { XCTFail("wrong error \(String(describing: error))"); continue }
            XCTAssertTrue(error!.description.contains("did not converge"), error!.description)
        }
        // distort folds (0, -1.22) onto (0, 0.6): that preimage must not be returned.
        XCTAssertClose(strong.distort(Vector2(0, -1.2211966861810775)), Vector2(0, 0.6), absolute: 1e-12)
        // Points beyond the fold map to valid-looking targets; undistort must not hand back the folded point.
        for r in [0.7, 0.9, 1.1] {
            let folded = Vector2(r, 0)
            let target = strong.distort(folded)
            if let u = try? strong.undistort(target) {
                XCTAssertLessThan(u.norm, 1 / 3.0.squareRoot(), "folded point \(folded) came back as \(u)")
            }
        }
        // Inside the valid range the same model still inverts.
        let inside = Vector2(0.2, 0.1)
        XCTAssertClose(strong.distort(try strong.undistort(inside)), inside, absolute: 1e-12)
    }

    func testUndistortNeverReturnsGarbage() throws {
        // Over a wide grid for strongly distorting models: either an exact preimage or an error.
        var thrown = 0, solved = 0
        for model in [try BrownConrady(k1: -1), try BrownConrady(k1: -0.5, k2: -0.5, p1: 0.05), try BrownConrady(k1: 0.5, k4: 4)] {
            for i in -20...20 {
                for j in -20...20 {
                    let target = Vector2(Double(i) * 0.05, Double(j) * 0.05)
                    if let u = try? model.undistort(target) {
                        XCTAssertLessThanOrEqual((model.distort(u) - target).norm, 1e-12, "\(model) at \(target)")
                        // Never a point flipped through the centre.
                        XCTAssertGreaterThanOrEqual(u.x * target.x + u.y * target.y, 0, "\(model) at \(target) -> \(u)")
                        if model.k1 == -1 {
                            // x (1 - r^2) folds over at r = 1/sqrt(3): a solution beyond it is the wrong sheet.
                            XCTAssertLessThan(u.norm, 1 / 3.0.squareRoot(), "\(target) -> \(u)")
                        }
                        solved += 1
                    } else {
                        thrown += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(thrown, 0)
        XCTAssertGreaterThan(solved, 0)
    }

    func testCoefficientCountValidation() throws {
        for n in [4, 5, 8] {
            let c = (0..<n).map { Double($0 + 1) * 0.01 }
            let model = try BrownConrady(coefficients: c)
            XCTAssertEqual(Array(model.coefficients.prefix(n)), c, "\(n)")
        }
        for n in [0, 1, 2, 3, 6, 7, 9, 10, 11, 13, 15] {
            let error = assertGeometryError(try BrownConrady(coefficients: Array(repeating: 0.01, count: n)), "\(n)")
            guard case .invalidDistortion = error else { XCTFail("wrong error for \(n)"); continue }
            XCTAssertTrue(error!.description.contains("4, 5 or 8"), error!.description)
            XCTAssertTrue(error!.description.contains("got \(n)"), error!.description)
        }
        // OpenCV's 12/14-vectors are accepted when the thin-prism/tilt terms are zero.
        XCTAssertEqual(try BrownConrady(coefficients: [-0.1, 0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
                       try BrownConrady(k1: -0.1, k2: 0.01))
        XCTAssertNoThrow(try BrownConrady(coefficients: Array(repeating: 0, count: 14)))
        var prism = Array(repeating: 0.0, count: 12)
        prism[9] = 1e-3
        XCTAssertThrowsError(try BrownConrady(coefficients: prism))
        var tilt = Array(repeating: 0.0, count: 14)
        tilt[13] = 1e-3
        XCTAssertThrowsError(try BrownConrady(coefficients: tilt))
    }

    func testCoefficientOrderIsOpenCVs() throws {
        let m = try BrownConrady(coefficients: [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual([m.k1, m.k2, m.p1, m.p2, m.k3, m.k4, m.k5, m.k6], [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertTrue(m.isRational)
        XCTAssertEqual(m.coefficients, [1, 2, 3, 4, 5, 6, 7, 8])
        let four = try BrownConrady(coefficients: [1, 2, 3, 4])
        XCTAssertEqual(four.k3, 0)
        XCTAssertFalse(four.isRational)
        XCTAssertEqual(four.coefficients, [1, 2, 3, 4, 0])
        XCTAssertEqual(try BrownConrady(coefficients: [1, 2, 3, 4, 5, 0, 0, 0]).coefficients, [1, 2, 3, 4, 5])
        XCTAssertTrue(try BrownConrady(coefficients: [0, 0, 0, 0, 0, 0, 0, 1e-9]).isRational)
    }

    func testNonFiniteCoefficientsThrow() {
        XCTAssertThrowsError(try BrownConrady(k1: .nan))
        XCTAssertThrowsError(try BrownConrady(k6: .infinity))
        XCTAssertThrowsError(try BrownConrady(coefficients: [0, 0, .nan, 0]))
    }

    func testIdentity() throws {
        let id = try BrownConrady()
        XCTAssertTrue(id.isIdentity)
        XCTAssertFalse(try BrownConrady(p2: 1e-9).isIdentity)
        let p = Vector2(0.3, -0.2)
        XCTAssertEqual(id.distort(p), p)
        XCTAssertEqual(try id.undistort(p), p)
    }

    func testDistortionIsScaleFreeInPixels() throws {
        // The same normalised model serves every buffer size through its scaled K.
        var rng = SeededGenerator(seed: 54)
        let full = try wideIntrinsics(), half = try full.scaled(to: PixelSize(width: 2016, height: 1512))
        let d = LensDistortion.brownConrady(try fiveCoefficient())
        for _ in 0..<100 {
            let u = Vector2(rng.uniform(0...4032), rng.uniform(0...3024))
            let a = try d.distortPixel(u, intrinsics: full)
            let b = try d.distortPixel(u * 0.5, intrinsics: half)
            XCTAssertClose(b, a * 0.5, absolute: 1e-9)
            XCTAssertClose(try d.undistortPixel(a, intrinsics: full), u, absolute: 1e-8)
        }
    }
}
