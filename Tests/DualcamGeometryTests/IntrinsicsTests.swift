import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class IntrinsicsTests: XCTestCase {
    let ref = PixelSize(width: 4032, height: 3024)

    func k() throws -> Intrinsics {
        try Intrinsics(fx: 2900.5, fy: 2903.25, skew: 1.5, cx: 2011.75, cy: 1518.5, referenceSize: ref)
    }

    func testMatrixLayout() throws {
        let m = try k().matrix
        XCTAssertEqual(m.rowMajor, [2900.5, 1.5, 2011.75, 0, 2903.25, 1518.5, 0, 0, 1])
        let back = try Intrinsics(matrix: m, referenceSize: ref)
        XCTAssertEqual(back, try k())
    }

    func testInitFromMatrixRejectsNonIntrinsicShapes() {
        var m = Matrix3(rowMajor: [1000, 0, 320, 0, 1000, 240, 0, 0, 1])!
        XCTAssertNoThrow(try Intrinsics(matrix: m, referenceSize: PixelSize(width: 640, height: 480)))
        m[2, 0] = 0.001
        XCTAssertThrowsError(try Intrinsics(matrix: m, referenceSize: PixelSize(width: 640, height: 480)))
        m[2, 0] = 0
        m[2, 2] = 2
        XCTAssertThrowsError(try Intrinsics(matrix: m, referenceSize: PixelSize(width: 640, height: 480)))
        m[2, 2] = 1
        m[1, 0] = 3
        XCTAssertThrowsError(try Intrinsics(matrix: m, referenceSize: PixelSize(width: 640, height: 480)))
    }

    /// Projecting with the resampled K lands where `PixelGridResampling`
    /// moves the full-size projection; `scaled(to:)` is off by 0.5 (1 - s).
    func testResampledFollowsThePixelGrid() throws {
        let full = try k(), quarter = PixelSize(width: 1008, height: 756)
        let resampled = try full.resampled(to: quarter), grid = PixelGridResampling(from: ref, to: quarter)
        XCTAssertEqual(resampled.fx, full.fx / 4, accuracy: 1e-12)
        XCTAssertEqual(resampled.cx, (2011.75 + 0.5) / 4 - 0.5, accuracy: 1e-12)
        for p in [Vector2(0.1, -0.2), Vector2(-0.4, 0.3), Vector2(0, 0)] {
            let a = full.pixel(fromNormalized: p), b = resampled.pixel(fromNormalized: p)
            let moved = grid.target(x: a.x, y: a.y)
            XCTAssertEqual(b.x, moved.x, accuracy: 1e-9)
            XCTAssertEqual(b.y, moved.y, accuracy: 1e-9)
            let back = grid.source(x: moved.x, y: moved.y)
            XCTAssertEqual(back.x, a.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, a.y, accuracy: 1e-9)
            XCTAssertEqual(try full.scaled(to: quarter).pixel(fromNormalized: p).x - b.x, 0.5 * (1 - 0.25), accuracy: 1e-9)
        }
        XCTAssertThrowsError(try full.resampled(to: PixelSize(width: 1000, height: 1000)))
    }

    func testValidation() {
        let size = PixelSize(width: 640, height: 480)
        XCTAssertThrowsError(try Intrinsics(fx: 0, fy: 500, cx: 320, cy: 240, referenceSize: size))
        XCTAssertThrowsError(try Intrinsics(fx: 500, fy: -1, cx: 320, cy: 240, referenceSize: size))
        XCTAssertThrowsError(try Intrinsics(fx: .nan, fy: 500, cx: 320, cy: 240, referenceSize: size))
        XCTAssertThrowsError(try Intrinsics(fx: 500, fy: 500, skew: .infinity, cx: 320, cy: 240, referenceSize: size))
        XCTAssertThrowsError(try Intrinsics(fx: 500, fy: 500, cx: .nan, cy: 240, referenceSize: size))
        XCTAssertThrowsError(try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, referenceSize: PixelSize(width: 0, height: 480)))
        XCTAssertThrowsError(try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, referenceSize: PixelSize(width: 640, height: -1)))
        let error = assertGeometryError(try Intrinsics(fx: 500, fy: .nan, cx: 320, cy: 240, referenceSize: size))
        XCTAssertTrue(error?.description.contains("fy") ?? false, String(describing: error))
    }

    func testScaledIsDiagonalTimesK() throws {
        let k = try k()
        for size in [PixelSize(width: 2016, height: 1512), PixelSize(width: 1920, height: 1440),
                     PixelSize(width: 640, height: 480), PixelSize(width: 8064, height: 6048),
                     PixelSize(width: 1000, height: 750)] {
            let s = try k.scaled(to: size)
            XCTAssertEqual(s.referenceSize, size)
            let sx = Double(size.width) / 4032, sy = Double(size.height) / 3024
            let expected = Matrix3.diagonal(sx, sy, 1) * k.matrix
            XCTAssertClose(s.matrix, expected, absolute: 1e-12, "\(size)")
            let factors = try k.scaleFactors(to: size)
            XCTAssertEqual(factors.x, sx)
            XCTAssertEqual(factors.y, sy)
            // A normalised point lands on the scaled pixel.
            let p = Vector2(0.3, -0.2)
            let u = k.pixel(fromNormalized: p), us = s.pixel(fromNormalized: p)
            XCTAssertClose(us, Vector2(u.x * sx, u.y * sy), absolute: 1e-10)
            // Same aspect ratio: same field of view.
            XCTAssertClose(s.horizontalFieldOfViewDegrees, k.horizontalFieldOfViewDegrees, absolute: 1e-10)
            XCTAssertClose(s.verticalFieldOfViewDegrees, k.verticalFieldOfViewDegrees, absolute: 1e-10)
        }
        XCTAssertEqual(try k.scaled(to: ref), k)
    }

    func testScaledAllowsRoundingOfOddSizes() throws {
        // 1366 * 3/4 = 1024.5: either rounding of the height is the same aspect ratio.
        let k = try k()
        for h in [1024, 1025] {
            let s = try k.scaled(to: PixelSize(width: 1366, height: h))
            XCTAssertClose(s.fy, k.fy * Double(h) / 3024, relative: 1e-15)
            XCTAssertClose(s.fx, k.fx * 1366 / 4032, relative: 1e-15)
            // Here W/Wref != H/Href, so each row of K gets its own factor (skew with the x row).
            let expected = Matrix3.diagonal(1366.0 / 4032, Double(h) / 3024, 1) * k.matrix
            XCTAssertClose(s.matrix, expected, absolute: 1e-12)
            XCTAssertClose(s.skew, k.skew * 1366 / 4032, relative: 1e-15)
            XCTAssertClose(s.cy, k.cy * Double(h) / 3024, relative: 1e-15)
        }
        XCTAssertThrowsError(try k.scaled(to: PixelSize(width: 1366, height: 1027)))
    }

    func testDifferentAspectRatioThrows() throws {
        let k = try k()
        for size in [PixelSize(width: 1920, height: 1080), PixelSize(width: 3024, height: 4032),
                     PixelSize(width: 4032, height: 2268), PixelSize(width: 640, height: 640)] {
            let error = assertGeometryError(try k.scaled(to: size), "\(size)")
            guard case .aspectRatioMismatch = error else { XCTFail("wrong error \(String(describing: error))"); continue }
            XCTAssertTrue(error!.description.contains("aspect ratio"), error!.description)
            XCTAssertTrue(error!.description.contains("\(size)"), error!.description)
            XCTAssertThrowsError(try k.scaleFactors(to: size))
        }
        XCTAssertThrowsError(try k.scaled(to: PixelSize(width: 0, height: 0)))
    }

    func testInverseMatrix() throws {
        var rng = SeededGenerator(seed: 31)
        for _ in 0..<100 {
            let k = try Intrinsics(fx: rng.uniform(200...8000), fy: rng.uniform(200...8000), skew: rng.uniform(-5...5),
                                   cx: rng.uniform(0...4000), cy: rng.uniform(0...3000), referenceSize: ref)
            XCTAssertClose(k.inverseMatrix * k.matrix, .identity, absolute: 1e-12)
            XCTAssertClose(k.matrix * k.inverseMatrix, .identity, absolute: 1e-12)
            XCTAssertClose(k.inverseMatrix, k.matrix.inverse!, absolute: 1e-15, relative: 1e-12)
        }
    }

    func testPixelNormalizedRoundTrip() throws {
        var rng = SeededGenerator(seed: 32)
        let k = try k()
        for _ in 0..<500 {
            let u = Vector2(rng.uniform(-500...4500), rng.uniform(-500...3500))
            XCTAssertClose(k.pixel(fromNormalized: k.normalized(fromPixel: u)), u, absolute: 1e-11)
            let p = Vector2(rng.uniform(-1...1), rng.uniform(-1...1))
            XCTAssertClose(k.normalized(fromPixel: k.pixel(fromNormalized: p)), p, absolute: 1e-15)
            // Same as K [x y 1]^T, and as the independent projection.
            XCTAssertClose(k.pixel(fromNormalized: p), (k.matrix * p.homogeneous).dehomogenized, absolute: 1e-11)
            XCTAssertClose(k.pixel(fromNormalized: p), pinholeProject(Vector3(p.x, p.y, 1), k), absolute: 1e-11)
        }
        // The principal point is the optical axis.
        XCTAssertEqual(k.normalized(fromPixel: Vector2(k.cx, k.cy)), Vector2(0, 0))
        // Skew shifts x in proportion to y.
        XCTAssertClose(k.pixel(fromNormalized: Vector2(0, 1)), Vector2(k.cx + 1.5, k.cy + 2903.25), absolute: 1e-12)
    }

    func testFieldOfViewOfKnownK() throws {
        // fx = W/2 gives 90 deg horizontally; fy = H / (2 tan 30 deg) gives 60 deg vertically.
        let size = PixelSize(width: 1920, height: 1440)
        let k = try Intrinsics(fx: 960, fy: 720 / tan(Double.pi / 6), cx: 960, cy: 720, referenceSize: size)
        XCTAssertClose(k.horizontalFieldOfViewDegrees, 90, absolute: 1e-12)
        XCTAssertClose(k.verticalFieldOfViewDegrees, 60, absolute: 1e-12)
        // Diagonal with equal focal lengths: half-diagonal 2000 px at f = 2000 px is 90 deg.
        let square = try Intrinsics(fx: 2000, fy: 2000, cx: 1600, cy: 1200,
                                    referenceSize: PixelSize(width: 3200, height: 2400))
        XCTAssertClose(square.diagonalFieldOfViewDegrees, 90, absolute: 1e-12)
        XCTAssertClose(square.horizontalFieldOfViewDegrees, 2 * atan(0.8) * 180 / .pi, absolute: 1e-12)
        // A typical wide camera: 4032 px at fx = 2900 is about 69.6 deg.
        XCTAssertClose(try wideIntrinsics().horizontalFieldOfViewDegrees, 69.612, absolute: 0.001)
        // Doubling the focal length narrows the view.
        XCTAssertLessThan(try teleIntrinsics().horizontalFieldOfViewDegrees, 40)
    }

    func testPixelSize() {
        XCTAssertEqual(PixelSize(parsing: "1920x1080"), PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(PixelSize(parsing: "640X480"), PixelSize(width: 640, height: 480))
        for bad in ["", "1920", "1920x", "x1080", "0x10", "10x0", "-5x4", "1.5x2", "1x2x3", "axb"] {
            XCTAssertNil(PixelSize(parsing: bad), bad)
        }
        XCTAssertEqual(PixelSize(width: 4032, height: 3024).description, "4032x3024")
        XCTAssertEqual(PixelSize(width: 1920, height: 1080).aspectRatio, 16.0 / 9.0)
    }
}
