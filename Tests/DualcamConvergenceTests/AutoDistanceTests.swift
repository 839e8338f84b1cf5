import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import XCTest

/// Acceptance: the plane sweep recovers a plane's distance within 1 % and,
/// with `at` on an object of the `room`, that object's distance within 3 %.
final class AutoDistanceTests: XCTestCase {
    func testRecoversPlaneDistance() throws {
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        for truth in [0.5, 1.2, 3.0] {
            let scene = try Fixtures.plane(truth)
            let result = try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image)
            let error = (result.distance.metres - truth) / truth
            XCTAssertLessThanOrEqual(abs(error), 0.01, "plane at \(truth) m: chose \(result.distance)")
            XCTAssertGreaterThan(result.score, 0.9)
            XCTAssertGreaterThanOrEqual(result.curve.count, 64)
            XCTAssertFalse(result.refinement.isEmpty)
            XCTAssertEqual(result.window, CanvasWindow(x: 0, y: 0, width: 640, height: 480))
            // The curve runs from near to far, uniform in inverse distance, and peaks near the truth.
            XCTAssertEqual(result.curve.first!.distance, try Distance(metres: 0.2))
            XCTAssertEqual(result.curve.last!.distance, .infinity)
            XCTAssertTrue(zip(result.curve, result.curve.dropFirst()).allSatisfy { $0.inverseDistance > $1.inverseDistance })
            let peak = result.curve.max { $0.score < $1.score }!
            XCTAssertClose(peak.inverseDistance, 1 / truth, absolute: 2 * (5.0 / Double(result.curve.count - 1)))
            print(String(format: "auto distance on a plane at %.1f m: %.4f m (error %+.3f %%), score %.4f, %d + %d samples",
                         truth, result.distance.metres, 100 * error, result.score, result.curve.count, result.refinement.count))
        }
    }

    func testPicksTheObjectAtThePoint() throws {
        let rig = try Fixtures.nominalRig()
        let warp = try ConvergenceWarp(rig: rig)
        let scene = try Fixtures.room()
        let objects = SceneLibrary.room(SceneLibrary.Options()).objects
        let tele = try rig.camera(.tele).model
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        for name in ["near sphere", "near box"] {
            let index = try XCTUnwrap(objects.firstIndex { $0.name == name })
            let centre: Vector3
            switch objects[index].shape {
            case let .sphere(c, _), let .box(c, _, _): centre = c
            case let .rectangle(c, _, _, _, _): centre = c
            }
            // The object's centre projected into the tele canvas (ideal tele pixels; the tele has no distortion).
            let p = try XCTUnwrap(try tele.project(teleFromWide.apply(centre)))
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            XCTAssertEqual(Int(scene.tele.objectIDs[y * 640 + x]), index, "\(name) is seen at (\(x), \(y))")
            // Its true convergence distance: the surface point there, as a wide-frame Z.
            let z = scene.tele.depth[x: x, y: y, channel: 0]
            let point = teleFromWide.inverse.apply(try tele.backProject(Vector2(Double(x), Double(y)), depth: z))
            let truth = point.z

            let result = try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image,
                                               options: AutoConvergenceOptions(at: Vector2(Double(x), Double(y))))
            let error = (result.distance.metres - truth) / truth
            XCTAssertLessThanOrEqual(abs(error), 0.03, "\(name) at \(truth) m: chose \(result.distance)")
            XCTAssertEqual(result.window.width, 96)
            print(String(format: "auto distance at the %@ (%d, %d), true %.4f m: %.4f m (error %+.3f %%), score %.4f",
                         name, x, y, truth, result.distance.metres, 100 * error, result.score))
        }
        // The whole overlap of the room is not the near objects' distance.
        let whole = try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image)
        print("auto distance over the whole room: \(whole.distance), score \(whole.score)")
    }

    /// Tap-to-converge anywhere on a plane finds the plane: no bias towards
    /// the image edges, where the wide's lens distortion is largest.
    func testWindowsAcrossThePlaneAgree() throws {
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let scene = try Fixtures.plane(1.2)
        var worst = 0.0
        for at in [Vector2(70, 60), Vector2(570, 60), Vector2(320, 240), Vector2(70, 420), Vector2(570, 420)] {
            let result = try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image,
                                               options: AutoConvergenceOptions(at: at, window: 96))
            let error = (result.distance.metres - 1.2) / 1.2
            worst = max(worst, abs(error))
            XCTAssertLessThanOrEqual(abs(error), 0.005, "window at (\(at.x), \(at.y)): chose \(result.distance)")
        }
        print(String(format: "auto distance in 96-px windows across a plane at 1.2 m: worst error %.3f %%", 100 * worst))
    }

    func testBadOptionsAreOneLineErrors() throws {
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let image = try Image(width: 640, height: 480, channels: 3, element: .uint8)
        XCTAssertThrowsError(try warp.autoDistance(wide: image, tele: image, options: AutoConvergenceOptions(
            near: try Distance(metres: 2), far: try Distance(metres: 1)))) { error in
            XCTAssertEqual("\(error)", "auto distance: near (2.0 m) must be closer than far (1.0 m)")
        }
        XCTAssertThrowsError(try warp.autoDistance(wide: image, tele: image, options: AutoConvergenceOptions(at: Vector2(700, 10)))) {
            XCTAssertEqual("\($0)", "auto distance: point (700.0, 10.0) is outside the 640x480 canvas")
        }
    }
}

/// The auto distance on the `.wide` canvas (the tele covers a quarter of it)
/// and the sweep distances.
final class WideCanvasAutoDistanceAndSweepTests: XCTestCase {
    func testAutoDistanceOnTheWideCanvas() throws {
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig(), canvas: .wide)
        let scene = try Fixtures.plane(1.2)
        let result = try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image)
        let error = (result.distance.metres - 1.2) / 1.2
        XCTAssertLessThanOrEqual(abs(error), 0.01, "chose \(result.distance)")
        print(String(format: "auto distance on the wide canvas, plane at 1.2 m: %.4f m (error %+.3f %%), score %.4f",
                     result.distance.metres, 100 * error, result.score))
        // A point outside the tele's view has nothing to score.
        XCTAssertThrowsError(try warp.autoDistance(wide: scene.wide.image, tele: scene.tele.image,
                                                   options: AutoConvergenceOptions(at: Vector2(30, 30), window: 48))) {
            XCTAssertTrue("\($0)".hasPrefix("auto distance: the wide and tele views do not overlap in the scored region"), "\($0)")
        }
    }

    func testSweepDistancesAreUniformInInverseDistance() throws {
        let d = try ConvergenceSweep.distances(near: try Distance(metres: 0.25), far: .infinity, steps: 5)
        XCTAssertEqual(d.map(\.metres), [0.25, 1 / 3.0, 0.5, 1, .infinity])
        let finite = try ConvergenceSweep.distances(near: try Distance(metres: 0.5), far: try Distance(metres: 2), steps: 4)
        XCTAssertClose(finite.map { 1 / $0.metres }, [2, 1.5, 1, 0.5], absolute: 1e-12)
        XCTAssertThrowsError(try ConvergenceSweep.distances(near: try Distance(metres: 2), far: try Distance(metres: 1), steps: 4)) {
            XCTAssertEqual("\($0)", "sweep: near (2.0 m) must be closer than far (1.0 m)")
        }
        XCTAssertThrowsError(try ConvergenceSweep.distances(near: try Distance(metres: 1), far: .infinity, steps: 1))
    }
}
