import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class CameraModelTests: XCTestCase {
    func brownConradyModel() throws -> CameraModel {
        CameraModel(intrinsics: try wideIntrinsics(),
                    distortion: .brownConrady(try BrownConrady(k1: -0.28, k2: 0.07, p1: 1e-4, p2: -2e-4, k3: 0)))
    }

    func lookupTableModel() throws -> CameraModel {
        let k = try wideIntrinsics()
        let table = try RadialLookupTable(center: Vector2(2020, 1505), referenceSize: k.referenceSize,
                                          magnification: [0, -0.002, -0.008, -0.018, -0.03, -0.045, -0.06])
        return CameraModel(intrinsics: k, distortion: .radialLookupTable(table))
    }

    func testProjectBackProjectRoundTrip() throws {
        var rng = SeededGenerator(seed: 41)
        for model in [CameraModel(intrinsics: try teleIntrinsics()), try brownConradyModel(), try lookupTableModel()] {
            let size = model.size
            // Brown-Conrady undistortion converges to 1e-12 in normalised units (its documented
            // default), i.e. ~fx * 1e-12 px; the lookup table to 1e-9 px.
            let tolerance: Double
            if case .brownConrady = model.distortion { tolerance = 2e-12 * model.intrinsics.fx } else { tolerance = 1e-9 }
            for _ in 0..<200 {
                let p = Vector2(rng.uniform(0...Double(size.width)), rng.uniform(0...Double(size.height)))
                let z = rng.uniform(0.1...50)
                let x = try model.backProject(p, depth: z)
                XCTAssertEqual(x.z, z)
                let back = try XCTUnwrap(try model.project(x))
                XCTAssertClose(back, p, absolute: tolerance, "\(model.distortion)")
                // Every point of the ray projects to the same pixel.
                let far = try XCTUnwrap(try model.project(x * 7.5))
                XCTAssertClose(far, p, absolute: tolerance)
            }
        }
    }

    func testDistortionActuallyMovesPoints() throws {
        // Guard against a model that silently ignores its distortion.
        let x = Vector3(0.5, 0.35, 1)
        let ideal = try XCTUnwrap(try CameraModel(intrinsics: try wideIntrinsics()).project(x))
        XCTAssertClose(ideal, pinholeProject(x, try wideIntrinsics()), absolute: 1e-10)
        let bc = try XCTUnwrap(try brownConradyModel().project(x))
        let lut = try XCTUnwrap(try lookupTableModel().project(x))
        XCTAssertGreaterThan((bc - ideal).norm, 50)
        XCTAssertGreaterThan((lut - ideal).norm, 5)
        // Barrel distortion pulls points towards the centre.
        let c = Vector2(2016.5, 1511.25)
        XCTAssertLessThan((bc - c).norm, (ideal - c).norm)
    }

    func testPointsBehindTheCameraAreNotProjected() throws {
        for model in [CameraModel(intrinsics: try wideIntrinsics()), try brownConradyModel(), try lookupTableModel()] {
            XCTAssertNil(try model.project(Vector3(0.1, 0.2, -1)))
            XCTAssertNil(try model.project(Vector3(0, 0, 0)))
            XCTAssertNil(try model.project(Vector3(1, 1, 0)))
            XCTAssertNil(try model.project(Vector3(0, 0, -1e-12)))
            XCTAssertNotNil(try model.project(Vector3(0, 0, 1e-6)))
        }
    }

    func testScaledModelProjectsToScaledPixels() throws {
        var rng = SeededGenerator(seed: 42)
        let half = PixelSize(width: 2016, height: 1512)
        for model in [try brownConradyModel(), try lookupTableModel()] {
            let small = try model.scaled(to: half)
            XCTAssertEqual(small.size, half)
            for _ in 0..<50 {
                let x = Vector3(rng.uniform(-0.6...0.6), rng.uniform(-0.45...0.45), 1) * rng.uniform(0.5...5)
                let full = try XCTUnwrap(try model.project(x))
                let scaled = try XCTUnwrap(try small.project(x))
                XCTAssertClose(scaled, full * 0.5, absolute: 1e-9)
                XCTAssertClose(try small.backProject(scaled, depth: x.z), x, absolute: 1e-11 * x.z)
            }
        }
        XCTAssertThrowsError(try brownConradyModel().scaled(to: PixelSize(width: 1920, height: 1080)))
    }

    func testLensDistortionIsNone() throws {
        XCTAssertTrue(LensDistortion.none.isNone)
        XCTAssertTrue(LensDistortion.brownConrady(try BrownConrady()).isNone)
        XCTAssertFalse(LensDistortion.brownConrady(try BrownConrady(k1: 0.01)).isNone)
        XCTAssertFalse(LensDistortion.radialLookupTable(try lookupTableModel().distortion.table!).isNone)
        let u = Vector2(123.5, 456.25)
        XCTAssertEqual(try LensDistortion.none.distortPixel(u, intrinsics: try wideIntrinsics()), u)
        XCTAssertEqual(try LensDistortion.none.undistortPixel(u, intrinsics: try wideIntrinsics()), u)
    }
}

private extension LensDistortion {
    var table: RadialLookupTable? {
        if case let .radialLookupTable(t) = self { return t }
        return nil
    }
}
