import DualcamConvergence
import DualcamGeometry
import DualcamSynthetic
import XCTest

/// A tap on a window that singles out no distance: refused with a message
/// naming the window and what was measured, or (policy `.wholeOverlap`)
/// scored over the whole overlap instead, saying so.
final class LowTextureTests: XCTestCase {
    /// A painted wall at 1 m (flat colour, 2 % shading over 1.5 m) filling the view.
    static func paintedWall() throws -> PatternFixtures.Rendered {
        let wall = SceneObject(name: "painted wall",
                               shape: .rectangle(center: Vector3(0, 0, 1), normal: Vector3(0, 0, -1), uAxis: Vector3(1, 0, 0),
                                                 halfWidth: 3, halfHeight: 3),
                               appearance: .painted(PaintedSurface(base: RGB(0.78, 0.74, 0.66))))
        return try PatternFixtures.render(Scene(name: "painted wall", objects: [wall]), key: "painted wall",
                                          centre: Vector3(0, 0, 1), truthMetres: 1)
    }

    func testPaintedWallIsRefused() throws {
        let r = try Self.paintedWall()
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let tap = TapPoint(.tele, Vector2(r.tap.x.rounded(), r.tap.y.rounded()))
        XCTAssertThrowsError(try warp.autoDistance(wide: r.pair.wide.image, tele: r.pair.tele.image,
                                                   options: AutoConvergenceOptions(tap: tap))) { error in
            let text = "\(error)"
            print(text)
            XCTAssertEqual(error as? ConvergenceError, .lowTexture(text))
            XCTAssertTrue(text.hasPrefix("auto distance: the 96x96 window around \(tap.text) (tele view) has no texture along the baseline"), text)
            XCTAssertTrue(text.contains("above its median, needs 0.100"), text)
            XCTAssertFalse(text.contains("\n"))
        }
        // With `.accept` the result comes back flagged, confidence low.
        let accepted = try warp.autoDistance(wide: r.pair.wide.image, tele: r.pair.tele.image,
                                             options: AutoConvergenceOptions(tap: tap, lowTexture: .accept))
        XCTAssertTrue(accepted.lowTexture)
        XCTAssertEqual(accepted.confidence, .low)
        XCTAssertLessThan(accepted.curveContrast, 0.1)
        print(String(format: "painted wall: curve contrast %.3f, NCC %.3f", accepted.curveContrast, accepted.score))
    }

    /// Horizontal bars (the pattern turned 90 degrees): plenty of contrast,
    /// none along the baseline, so every distance registers equally.
    func testHorizontalBarsHaveNoTextureAlongTheBaseline() throws {
        let c = PatternFixtures.Case(name: "horizontal bars",
                                     subject: PatternFixtures.subject(.plane, .stripesAlongU(dutyCycle: 0.5), pixels: 16, distance: 1,
                                                                      orientation: 90),
                                     periodPixels: 16)
        let r = try PatternFixtures.render(c)
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let result = try warp.autoDistance(wide: r.pair.wide.image, tele: r.pair.tele.image,
                                           options: AutoConvergenceOptions(tap: TapPoint(.tele, r.tap), lowTexture: .accept))
        print(String(format: "horizontal bars: curve contrast %.3f, best NCC %.3f", result.curveContrast, result.score))
        XCTAssertTrue(result.lowTexture)
        XCTAssertGreaterThan(result.score, 0.5, "the bars register at every distance")
    }

    /// A painted box before a textured wall at 2 m: the tap on the box falls
    /// back to the whole overlap (the wall), and says so.
    func testFallsBackToTheWholeOverlap() throws {
        let box = SceneObject(name: "painted box",
                              shape: .box(center: Vector3(0, 0, 0.9), halfSize: Vector3(0.1, 0.1, 0.1), interior: false),
                              appearance: .painted(PaintedSurface(base: RGB(0.8, 0.8, 0.78))))
        let wall = SceneObject(name: "wall", shape: .rectangle(center: Vector3(0, 0, 2), normal: Vector3(0, 0, -1),
                                                               uAxis: Vector3(1, 0, 0), halfWidth: 6, halfHeight: 6),
                               appearance: .textured(ProceduralTexture(seed: 5, baseColor: RGB(0.5, 0.55, 0.6), featureSize: 0.006)))
        let r = try PatternFixtures.render(Scene(name: "painted box", objects: [box, wall]), key: "painted box",
                                           centre: Vector3(0, 0, 0.8), truthMetres: 0.8, whole: true)
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let result = try warp.autoDistance(wide: r.pair.wide.image, tele: r.pair.tele.image,
                                           options: AutoConvergenceOptions(tap: TapPoint(.tele, r.tap), lowTexture: .wholeOverlap))
        XCTAssertTrue(result.fellBackToWholeOverlap)
        XCTAssertFalse(result.lowTexture)
        XCTAssertEqual(result.window, CanvasWindow(x: 0, y: 0, width: 640, height: 480))
        XCTAssertEqual(result.distance.metres, 2, accuracy: 0.04, "the wall, which fills most of the overlap")
        XCTAssertEqual(result.tap?.camera, .tele, "the tap is still reported")
        print(String(format: "painted box, fallback to the whole overlap: %.4f m", result.distance.metres))
    }
}
