import DualcamGeometry
import DualcamSynthetic
import TestSupport
import XCTest

final class UndistortionGridTests: XCTestCase {
    /// Bilinear interpolation of the undistortion grid (step 4 px) against
    /// exact Newton undistortion for the nominal wide camera at 1920x1440,
    /// at cell centres (the worst place for bilinear interpolation) across the
    /// image including its border. Measured: max error 2.9e-4 px
    /// (bound 1e-3 px); one refinement step brings it to 1.5e-8 px.
    func testInterpolatedUndistortionErrorBelowOneThousandthPixel() throws {
        let rig = try RenderFixtures.nominalRig(width: 1920)
        let model = try rig.camera(.wide).model
        XCTAssertFalse(model.distortion.isNone)
        let grid = try UndistortionGrid(camera: model)
        let rays = try CameraRays(rig: rig, camera: .wide)
        XCTAssertEqual(grid.step, 4)
        var worst = 0.0, worstRefined = 0.0, worstAt = Vector2.zero
        // Cell centres of every third cell, plus the image corners and border.
        var points: [Vector2] = [Vector2(-0.5, -0.5), Vector2(1919.5, 1439.5), Vector2(-0.5, 1439.5), Vector2(1919.5, -0.5)]
        for j in stride(from: 0, to: 362, by: 3) {
            for i in stride(from: 0, to: 482, by: 3) {
                let p = grid.origin + grid.step * Vector2(Double(i) + 0.5, Double(j) + 0.5)
                if p.x >= -0.5, p.y >= -0.5, p.x <= 1919.5, p.y <= 1439.5 { points.append(p) }
            }
        }
        let k = model.intrinsics
        for p in points {
            let exact = try grid.exactIdealPixel(p)
            let error = (grid.idealPixel(p) - exact).norm
            if error > worst { worst = error; worstAt = p }
            let d = rays.refinedDirection(sensorX: p.x, sensorY: p.y)
            worstRefined = max(worstRefined, (k.pixel(fromNormalized: Vector2(d.x / d.z, d.y / d.z)) - exact).norm)
        }
        print("undistortion grid: \(points.count) points, max bilinear error \(worst) px at \(worstAt), "
              + "refined \(worstRefined) px")
        XCTAssertLessThan(worst, 1e-3)
        XCTAssertGreaterThan(worst, 1e-6, "the check must see the interpolation error at all")
        XCTAssertLessThan(worstRefined, 1e-6)
    }

    func testWithoutDistortionTheRayIsKInverse() throws {
        let rig = try RenderFixtures.pinholeRig(width: 64, height: 48, f: 50)
        let rays = try CameraRays(rig: rig, camera: .tele)
        let k = try rig.camera(.tele).model.intrinsics
        for p in [Vector2(0, 0), Vector2(31.5, 23.5), Vector2(63, 47), Vector2(10.25, 40.75)] {
            let d = rays.direction(sensorX: p.x, sensorY: p.y)
            // Tele has identity rotation here: d = (xn, yn, 1).
            XCTAssertEqual(d.z, 1)
            let n = k.normalized(fromPixel: p)
            XCTAssertClose(d.x, n.x, absolute: 1e-15)
            XCTAssertClose(d.y, n.y, absolute: 1e-15)
        }
        // The tele centre is 10 mm to the right of wide in world: C = -R^T t.
        XCTAssertClose(rays.center.x, 0.01, absolute: 1e-15)
    }
}
