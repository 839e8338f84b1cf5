import DualcamGeometry
import DualcamSynthetic
import TestSupport
import XCTest

final class SceneTracingTests: XCTestCase {
    private func caster(_ shapes: [Shape], _ appearance: Appearance = .flat(.white)) throws -> SceneRayCaster {
        try SceneRayCaster(Scene(name: "t", objects: shapes.enumerated().map {
            SceneObject(name: "o\($0.offset)", shape: $0.element, appearance: appearance)
        }))
    }

    func testRectangleIsSeenFromBothSidesWithinItsExtents() throws {
        let c = try caster([.rectangle(center: Vector3(0, 0, 2), normal: Vector3(0, 0, 1), uAxis: Vector3(1, 0, 0),
                                       halfWidth: 1, halfHeight: 0.5)])
        // A non-unit direction: the distance is the ray parameter t.
        XCTAssertEqual(c.cast(origin: .zero, direction: Vector3(0, 0, 2))?.distance, 1)
        XCTAssertEqual(c.cast(origin: Vector3(0, 0, 5), direction: Vector3(0, 0, -1))?.distance, 3)
        XCTAssertNotNil(c.cast(origin: .zero, direction: Vector3(0.49, 0.24, 1)))
        XCTAssertNil(c.cast(origin: .zero, direction: Vector3(0.51, 0, 1)), "outside halfWidth")
        XCTAssertNil(c.cast(origin: .zero, direction: Vector3(0, 0.26, 1)), "outside halfHeight")
        XCTAssertNil(c.cast(origin: .zero, direction: Vector3(0, 0, -1)), "behind the origin")
        XCTAssertNil(c.cast(origin: .zero, direction: Vector3(1, 0, 0)), "parallel")
        let plane = try caster([.rectangle(center: Vector3(0, 1, 0), normal: Vector3(0, -1, 0), uAxis: Vector3(1, 0, 0),
                                           halfWidth: .infinity, halfHeight: .infinity)])
        XCTAssertClose(try XCTUnwrap(plane.cast(origin: .zero, direction: Vector3(300, 1, 1000))).distance, 1, relative: 1e-15)
    }

    func testInteriorBoxHitsTheWallAheadAndNamesTheFace() throws {
        let c = try caster([.box(center: Vector3(0, 0, 1), halfSize: Vector3(2, 1, 3), interior: true)])
        let ahead = try XCTUnwrap(c.cast(origin: .zero, direction: Vector3(0, 0, 1)))
        XCTAssertEqual(ahead.distance, 4)
        XCTAssertEqual(ahead.face, 5)
        let left = try XCTUnwrap(c.cast(origin: .zero, direction: Vector3(-1, 0, 0.1)))
        XCTAssertEqual(left.distance, 2)
        XCTAssertEqual(left.face, 0)
        let up = try XCTUnwrap(c.cast(origin: .zero, direction: Vector3(0, -1, 1)))
        XCTAssertEqual(up.distance, 1)
        XCTAssertEqual(up.face, 2)
        // From outside, the near wall is invisible: the far wall's inside is seen.
        XCTAssertEqual(c.cast(origin: Vector3(0, 0, -5), direction: Vector3(0, 0, 1))?.distance, 9)
        XCTAssertNil(c.cast(origin: Vector3(0, 0, -5), direction: Vector3(0, 0, -1)))
    }

    func testExteriorBoxAndSphereAreSeenFromOutsideOnly() throws {
        let box = try caster([.box(center: Vector3(0, 0, 3), halfSize: Vector3(0.5, 0.5, 1), interior: false)])
        let front = try XCTUnwrap(box.cast(origin: .zero, direction: Vector3(0.1, 0, 1)))
        XCTAssertEqual(front.distance, 2)
        XCTAssertEqual(front.face, 4)
        let side = try XCTUnwrap(box.cast(origin: Vector3(3, 0, 3), direction: Vector3(-1, 0, 0)))
        XCTAssertEqual(side.distance, 2.5)
        XCTAssertEqual(side.face, 1)
        XCTAssertNil(box.cast(origin: Vector3(0, 0, 3), direction: Vector3(0, 0, 1)), "from inside")

        let sphere = try caster([.sphere(center: Vector3(0, 0, 4), radius: 1)])
        XCTAssertClose(try XCTUnwrap(sphere.cast(origin: .zero, direction: Vector3(0, 0, 1))).distance, 3, relative: 1e-15)
        XCTAssertClose(try XCTUnwrap(sphere.cast(origin: .zero, direction: Vector3(0, 0, 0.5))).distance, 6, relative: 1e-15)
        XCTAssertNil(sphere.cast(origin: .zero, direction: Vector3(0.3, 0, 1)), "misses: tan > 1/sqrt(15)")
        XCTAssertNil(sphere.cast(origin: Vector3(0, 0, 4), direction: Vector3(0, 0, 1)), "from inside")
        XCTAssertNil(sphere.cast(origin: Vector3(0, 0, 8), direction: Vector3(0, 0, 1)), "behind")
    }

    func testNearestObjectWins() throws {
        let shapes: [Shape] = [.box(center: .zero, halfSize: Vector3(10, 10, 10), interior: true),
                               .sphere(center: Vector3(0, 0, 5), radius: 1),
                               .rectangle(center: Vector3(0, 0, 3), normal: Vector3(0, 0, 1), uAxis: Vector3(0, 1, 0),
                                          halfWidth: 0.1, halfHeight: 0.1)]
        let c = try caster(shapes)
        XCTAssertEqual(c.cast(origin: .zero, direction: Vector3(0, 0, 1))?.objectIndex, 2)
        XCTAssertEqual(c.cast(origin: .zero, direction: Vector3(0.05, 0, 1))?.objectIndex, 1)
        XCTAssertEqual(c.cast(origin: .zero, direction: Vector3(0.5, 0, 1))?.objectIndex, 0)
        let reversed = try caster(shapes.reversed())
        XCTAssertEqual(reversed.cast(origin: .zero, direction: Vector3(0.05, 0, 1))?.objectIndex, 1)
        XCTAssertEqual(reversed.cast(origin: .zero, direction: Vector3(0.05, 0, 1))?.distance,
                       c.cast(origin: .zero, direction: Vector3(0.05, 0, 1))?.distance)
    }

    /// The procedural texture is deterministic, differs between seeds, has
    /// contrast at the feature scale and hard-edged patches (big jumps between
    /// neighbouring samples), and averages near its base colour.
    func testProceduralTexture() {
        let t = ProceduralTexture(seed: 5, baseColor: RGB(0.5, 0.4, 0.3), featureSize: 0.01)
        var other = t
        other.seed = 6
        let step = 0.002
        var values: [Double] = [], differs = 0, jumps = 0
        for i in 0..<4000 {
            let u = Double(i % 200) * step, v = Double(i / 200) * 0.013
            let c = t.color(u: u, v: v)
            XCTAssertEqual(c, t.color(u: u, v: v))
            if c.r < 1 { XCTAssertEqual(c.r / 0.5, c.b / 0.3, accuracy: 1e-12, "luminance modulation keeps the hue") }
            if c != other.color(u: u, v: v) { differs += 1 }
            if let last = values.last, i % 200 != 0, abs(c.r - last) > 0.15 { jumps += 1 }
            values.append(c.r)
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        XCTAssertEqual(differs, values.count)
        XCTAssertEqual(mean, 0.5, accuracy: 0.1)
        XCTAssertGreaterThan(sd, 0.08)
        XCTAssertGreaterThan(jumps, 20, "patch edges")
        XCTAssertTrue(values.allSatisfy { (0...1).contains($0) })
    }

    func testFlatAndBitmapAppearances() throws {
        let bitmap = Bitmap(width: 2, height: 2, pixels: [0, 85, 170, 255])
        // normal z, u = x, so v = n x u = +y (down): bitmap rows go down the image.
        let c = try SceneRayCaster(Scene(name: "b", objects: [
            SceneObject(name: "board", shape: .rectangle(center: Vector3(0, 0, 1), normal: Vector3(0, 0, 1), uAxis: Vector3(1, 0, 0),
                                                         halfWidth: 1, halfHeight: 1), appearance: .bitmap(bitmap)),
            SceneObject(name: "wall", shape: .rectangle(center: Vector3(0, 0, 3), normal: Vector3(0, 0, 1), uAxis: Vector3(1, 0, 0),
                                                        halfWidth: .infinity, halfHeight: .infinity), appearance: .flat(RGB(0.1, 0.2, 0.3))),
        ], background: .grey(0.5)))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(-0.5, -0.5, 1)), .grey(0))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(0.5, -0.5, 1)), .grey(85 / 255))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(-0.5, 0.5, 1)), .grey(170 / 255))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(0.5, 0.5, 1)), .grey(1))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(2, 0, 1)), RGB(0.1, 0.2, 0.3))
        XCTAssertEqual(c.color(origin: .zero, direction: Vector3(0, 0, -1)), .grey(0.5))
    }
}
