import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class RadialLookupTableTests: XCTestCase {
    /// 80x60 image, centre (40, 30): rmax = 50, samples at r = 0, 25, 50.
    func small() throws -> RadialLookupTable {
        try RadialLookupTable(center: Vector2(40, 30), referenceSize: PixelSize(width: 80, height: 60),
                              magnification: [0, 0.01, 0.03])
    }

    /// A realistic barrel table for a 12 MP wide camera, off-centre, 33 samples.
    func realistic(withInverse: Bool) throws -> RadialLookupTable {
        let size = PixelSize(width: 4032, height: 3024)
        let center = Vector2(2025.3, 1498.7)
        let n = 33
        let forward = (0..<n).map { i -> Double in
            let t = Double(i) / Double(n - 1)
            return -0.035 * t * t + 0.006 * t * t * t * t
        }
        var table = try RadialLookupTable(center: center, referenceSize: size, magnification: forward)
        guard withInverse else { return table }
        // The inverse table: at each distorted radius rd, m_inv with r = rd (1 + m_inv(rd)),
        // found by bisection on the forward model (independently of `undistort`).
        let rmax = table.maxRadius
        let inverse = (0..<n).map { i -> Double in
            let rd = Double(i) / Double(n - 1) * rmax
            if rd == 0 { return 0 }
            var lo = 0.0, hi = 2 * rd
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if mid * (1 + table.magnification(atRadius: mid)) < rd { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2 / rd - 1
        }
        table = try RadialLookupTable(center: center, referenceSize: size, magnification: forward,
                                      inverseMagnification: inverse)
        return table
    }

    func testMaxRadiusIsTheFarthestCorner() throws {
        XCTAssertEqual(try small().maxRadius, 50)
        let offCentre = try RadialLookupTable(center: Vector2(10, 20), referenceSize: PixelSize(width: 80, height: 60),
                                              magnification: [0, 0])
        XCTAssertEqual(offCentre.maxRadius, (70.0 * 70 + 40 * 40).squareRoot())
        let outside = try RadialLookupTable(center: Vector2(-10, 70), referenceSize: PixelSize(width: 80, height: 60),
                                            magnification: [0, 0])
        XCTAssertEqual(outside.maxRadius, (90.0 * 90 + 70 * 70).squareRoot())
    }

    func testMagnificationIsLinearlyInterpolated() throws {
        let t = try small()
        XCTAssertEqual(t.magnification(atRadius: 0), 0)
        XCTAssertEqual(t.magnification(atRadius: 25), 0.01)
        XCTAssertEqual(t.magnification(atRadius: 50), 0.03)
        XCTAssertClose(t.magnification(atRadius: 10), 0.004, absolute: 1e-17)
        XCTAssertClose(t.magnification(atRadius: 37.5), 0.02, absolute: 1e-17)
        XCTAssertClose(t.magnification(atRadius: 45), 0.01 + 0.02 * 0.8, absolute: 1e-17)
        // Beyond rmax the last sample holds.
        XCTAssertEqual(t.magnification(atRadius: 60), 0.03)
        XCTAssertEqual(t.magnification(atRadius: 1e6), 0.03)
    }

    func testDistortHandComputed() throws {
        let t = try small()
        // r = 10 (offset (6, 8)): m = 0.004, so the offset grows by 1.004.
        XCTAssertClose(t.distort(Vector2(46, 38)), Vector2(40 + 6 * 1.004, 30 + 8 * 1.004), absolute: 1e-13)
        XCTAssertClose(t.distort(Vector2(46, 38)), Vector2(46.024, 38.032), absolute: 1e-13)
        // r = 37.5 (offset (-22.5, -30)): halfway between 0.01 and 0.03, m = 0.02.
        XCTAssertClose(t.distort(Vector2(17.5, 0)), Vector2(40 - 22.5 * 1.02, 30 - 30 * 1.02), absolute: 1e-13)
        // Beyond the corner: m = 0.03.
        XCTAssertClose(t.distort(Vector2(40, 90)), Vector2(40, 30 + 60 * 1.03), absolute: 1e-13)
        // The centre does not move.
        XCTAssertEqual(t.distort(Vector2(40, 30)), Vector2(40, 30))
    }

    func testDistortFormulaOnRandomPoints() throws {
        var rng = SeededGenerator(seed: 61)
        let t = try realistic(withInverse: false)
        let rmax = t.maxRadius, n = Double(t.magnification.count - 1)
        for _ in 0..<500 {
            let p = Vector2(rng.uniform(0...4032), rng.uniform(0...3024))
            let d = p - t.center
            let r = d.norm
            // Independent interpolation.
            let pos = min(r / rmax * n, n)
            let i = min(Int(pos), Int(n) - 1)
            let f = pos - Double(i)
            let m = t.magnification[i] + f * (t.magnification[i + 1] - t.magnification[i])
            XCTAssertClose(t.distort(p), t.center + d * (1 + m), absolute: 1e-9)
        }
    }

    func testUndistortInvertsWithoutInverseTable() throws {
        try checkUndistort(try realistic(withInverse: false), seed: 62)
        try checkUndistort(try small(), seed: 63)
    }

    func testUndistortInvertsWithInverseTable() throws {
        let t = try realistic(withInverse: true)
        XCTAssertNotNil(t.inverseMagnification)
        try checkUndistort(t, seed: 64)
        // A poor inverse table only seeds the solver: the result is still exact.
        let crude = try RadialLookupTable(center: t.center, referenceSize: t.referenceSize,
                                          magnification: t.magnification, inverseMagnification: [0.2, -0.3, 0.5])
        try checkUndistort(crude, seed: 65)
    }

    func checkUndistort(_ t: RadialLookupTable, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        var rng = SeededGenerator(seed: seed)
        let w = Double(t.referenceSize.width), h = Double(t.referenceSize.height)
        var points = (0..<1000).map { _ in Vector2(rng.uniform(-0.05 * w...1.05 * w), rng.uniform(-0.05 * h...1.05 * h)) }
        points += [Vector2(0, 0), Vector2(w, h), Vector2(w, 0), Vector2(0, h), t.center, t.center + Vector2(1e-6, 0)]
        for p in points {
            let d = t.distort(p)
            let u = try t.undistort(d)
            XCTAssertClose(u, p, absolute: 1e-9, "p \(p)", file: file, line: line)
            XCTAssertClose(t.distort(u), d, absolute: 1e-9, "p \(p)", file: file, line: line)
        }
        // Distortion actually moves points (guards against a no-op table).
        if t.magnification.contains(where: { $0 != 0 }) {
            XCTAssertGreaterThan((t.distort(Vector2(0, 0)) - Vector2(0, 0)).norm, 0.1, file: file, line: line)
        }
    }

    func testNonMonotonicTableIsRejectedAtConstruction() throws {
        // m = [0, -0.6, 0.5] over rmax = 50: r (1 + m(r)) = r - 0.024 r^2 rises to r = 20.8, then
        // falls until r = 25: undistortion would have several answers, so the table is refused.
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: PixelSize(width: 80, height: 60),
                                                   magnification: [0, -0.6, 0.5])) { error in
            XCTAssertTrue("\(error)".contains("folds over"), "\(error)")
        }
    }

    func testScaledUseThroughLensDistortion() throws {
        var rng = SeededGenerator(seed: 66)
        let table = try realistic(withInverse: true)
        let full = try wideIntrinsics()
        let half = try full.scaled(to: PixelSize(width: 2016, height: 1512))
        let quarter = try full.scaled(to: PixelSize(width: 1008, height: 756))
        let lens = LensDistortion.radialLookupTable(table)
        for _ in 0..<200 {
            let u = Vector2(rng.uniform(0...4032), rng.uniform(0...3024))
            let fullResult = try lens.distortPixel(u, intrinsics: full)
            XCTAssertEqual(fullResult, table.distort(u))
            XCTAssertClose(try lens.distortPixel(u * 0.5, intrinsics: half), fullResult * 0.5, absolute: 1e-9)
            XCTAssertClose(try lens.distortPixel(u * 0.25, intrinsics: quarter), fullResult * 0.25, absolute: 1e-9)
            // And back.
            XCTAssertClose(try lens.undistortPixel(fullResult * 0.5, intrinsics: half), u * 0.5, absolute: 1e-9)
            XCTAssertClose(try lens.undistortPixel(fullResult, intrinsics: full), u, absolute: 1e-9)
        }
        // A table cannot be used on a buffer with a different aspect ratio.
        let wideFormat = try Intrinsics(fx: 1400, fy: 1400, cx: 960, cy: 540, referenceSize: PixelSize(width: 1920, height: 1080))
        let error = assertGeometryError(try lens.distortPixel(Vector2(100, 100), intrinsics: wideFormat))
        guard case .aspectRatioMismatch = error else { return XCTFail("wrong error \(String(describing: error))") }
        XCTAssertTrue(error!.description.contains("aspect ratio"), error!.description)
        XCTAssertThrowsError(try lens.undistortPixel(Vector2(100, 100), intrinsics: wideFormat))
    }

    func testValidation() {
        let size = PixelSize(width: 80, height: 60)
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: []))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, 0],
                                                   inverseMagnification: [0]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, -1]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, .nan]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, 0],
                                                   inverseMagnification: [0, -1.5]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(.nan, 30), referenceSize: size, magnification: [0, 0]))
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: PixelSize(width: 0, height: 60),
                                                   magnification: [0, 0]))
        XCTAssertNoThrow(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, -0.4]))
        // r (1 - 0.99 r / rmax) falls before rmax: folded.
        XCTAssertThrowsError(try RadialLookupTable(center: Vector2(40, 30), referenceSize: size, magnification: [0, -0.99]))
    }
}
