import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import TestSupport
import XCTest

/// The named scenes of `SceneLibrary`, rendered small through the nominal rig
/// (320x240, one sample per pixel: only ground truth and flat colours matter here).
final class ScenesTests: XCTestCase {
    static let fast = RenderOptions(samplesPerAxis: 1)

    static func rig() throws -> Rig { try RenderFixtures.nominalRig(width: 320) }

    static func options(_ configure: (inout SceneLibrary.Options) -> Void = { _ in }) -> SceneLibrary.Options {
        var options = SceneLibrary.Options()
        configure(&options)
        return options
    }

    // MARK: room

    /// The room is closed (every wide pixel hits something). Its geometry fixes
    /// the depth range: the nearest surface is the front of the near sphere,
    /// centre z 0.56 m, radius 0.15 m, so Z >= 0.41 m, reached at the pixel
    /// nearest the sphere's front point; the farthest is the back wall, the
    /// box face z = 2.75 + 3.25 = 6.0 m (depth is Z, not ray length, so the
    /// corners of the back wall are at 6 m too). Floor (y = 1.2 m) and ceiling
    /// (y = -1.5 m) are seen from Z = 1.2 / 0.51 = 2.4 m on, the side walls
    /// (x = +-2.5 m) from Z = 2.5 / 0.67 = 3.7 m on; nothing else is nearer than 0.41 m.
    func testRoomDepthSpansTheNearSphereToTheBackWall() throws {
        let rig = try Self.rig()
        let scene = SceneLibrary.room(Self.options())
        let wide = try Renderer.render(scene, camera: .wide, of: rig, options: Self.fast)
        let depth = wide.depthValues().map(Double.init)
        XCTAssertEqual(depth.count, 320 * 240)
        XCTAssertTrue(depth.allSatisfy(\.isFinite), "the room is closed: no NaN depth")
        XCTAssertFalse(wide.objectIDs.contains(-1))
        let lo = depth.min()!, hi = depth.max()!
        XCTAssertGreaterThanOrEqual(lo, 0.41 - 1e-6)
        XCTAssertLessThanOrEqual(lo, 0.42, "the near sphere's front (0.41 m) is seen at about one pixel")
        XCTAssertLessThanOrEqual(hi, 6.0 + 1e-5)
        XCTAssertGreaterThanOrEqual(hi, 6.0 - 1e-5, "the back wall is 6 m ahead")

        // Which object gives which extreme.
        let names = scene.objects.map(\.name)
        let nearest = depth.indices.min { depth[$0] < depth[$1] }!
        XCTAssertEqual(names[Int(wide.objectIDs[nearest])], "near sphere")
        let walls = depth.indices.filter { wide.objectIDs[$0] == 0 }.map { depth[$0] }
        XCTAssertGreaterThan(walls.min()!, 2.3, "floor and ceiling start at about 2.4 m")
        // Every object is in view.
        XCTAssertEqual(Set(wide.objectIDs), Set((0..<Int32(scene.objects.count)).map { $0 }))
        // Every pixel of the wall box with depth 6 m is on the back wall plane: depth never exceeds it.
        XCTAssertEqual(depth.filter { $0 > 6.0 + 1e-5 }.count, 0)
    }

    /// The two nearest objects (the near sphere and the near box) are seen by
    /// tele, the tap-to-converge targets: the tele pixel at the projection of
    /// the sphere's front point (on the ray to its centre) and of the box's
    /// front-face centre shows that object. They are not wholly inside the
    /// tele view: the sphere (0.56 m away, 0.15 m radius) spans about 0.55 in
    /// normalised x, more than tele's 0.34 half-width allows around its centre
    /// at x = -0.21, and the box's front face reaches x/z = 0.39 > 0.34.
    func testRoomNearObjectsAreSeenByTele() throws {
        let rig = try Self.rig()
        let scene = SceneLibrary.room(Self.options())
        let tele = try Renderer.render(scene, camera: .tele, of: rig, options: Self.fast)
        let model = try rig.camera(.tele).model
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let (w, h) = (tele.size.width, tele.size.height)
        let targets: [(name: String, point: Vector3)] = [
            ("near sphere", Vector3(-0.12, 0.08, 0.56) * (1 - 0.15 / Vector3(-0.12, 0.08, 0.56).norm)),
            ("near box", Vector3(0.30, 0.18, 1.2 - 0.12)),
        ]
        for (name, point) in targets {
            let id = Int32(scene.objects.firstIndex { $0.name == name }!)
            let q = try XCTUnwrap(try model.project(teleFromWide.apply(point)))
            let x = Int(q.x.rounded()), y = Int(q.y.rounded())
            XCTAssertTrue(x >= 0 && y >= 0 && x < w && y < h, "\(name) projects to \(q), outside tele")
            guard x >= 0, y >= 0, x < w, y < h else { continue }
            XCTAssertEqual(tele.objectIDs[y * w + x], id, "\(name) is seen by tele at \(q)")
            XCTAssertGreaterThan(tele.objectIDs.filter { $0 == id }.count, 2000, "\(name) is large in tele")
        }
        XCTAssertTrue(tele.depthValues().allSatisfy(\.isFinite))
    }

    // MARK: steps

    /// Pixels of step i have depth exactly d_i (fronto-parallel planes, Z
    /// along the wide axis); the back wall is at 6 m and shows through the gaps.
    func testStepsDepthsAreTheStepDistances() throws {
        let rig = try Self.rig()
        let scene = SceneLibrary.steps(Self.options())
        let wide = try Renderer.render(scene, camera: .wide, of: rig, options: Self.fast)
        let depth = wide.depthValues().map(Double.init)
        let expected: [(name: String, depth: Double)] = [
            ("step 0.5 m", 0.5), ("step 1.0 m", 1), ("step 2.0 m", 2), ("step 4.0 m", 4), ("back wall", 6),
        ]
        XCTAssertEqual(scene.objects.map(\.name), expected.map(\.name))
        var counts: [Int] = []
        for (index, object) in expected.enumerated() {
            let values = depth.indices.filter { wide.objectIDs[$0] == Int32(index) }.map { depth[$0] }
            counts.append(values.count)
            XCTAssertGreaterThan(values.count, 1000, "\(object.name) covers a band of the image")
            let worst = values.map { abs($0 - object.depth) / object.depth }.max() ?? .infinity
            XCTAssertLessThanOrEqual(worst, 1e-6, "\(object.name): depth differs from \(object.depth) m by \(worst) relative")
        }
        // The histogram has exactly these five peaks: every pixel is at one of the depths.
        XCTAssertEqual(counts.reduce(0, +), depth.count)
        XCTAssertTrue(depth.allSatisfy { z in expected.contains { abs(z - $0.depth) <= 1e-6 * $0.depth } })
        // Nearest on the left: along the middle row the depth never decreases
        // from one step to the next (the wall gaps in between are at 6 m).
        let row = 120 * 320
        let stepsAlongRow = (0..<320).map { Int(wide.objectIDs[row + $0]) }.filter { $0 < 4 }
        XCTAssertEqual(stepsAlongRow, stepsAlongRow.sorted(), "steps run from near (left) to far (right)")
        XCTAssertEqual(Set(stepsAlongRow), [0, 1, 2, 3])
        // The back wall shows between the steps, not just around them.
        let middleRow = (0..<320).map { Int(wide.objectIDs[row + $0]) }
        let firstStep = middleRow.firstIndex { $0 < 4 }!, lastStep = middleRow.lastIndex { $0 < 4 }!
        XCTAssertTrue(middleRow[firstStep...lastStep].contains(4), "gaps between the steps show the wall")
    }

    // MARK: plane

    /// Fronto-parallel: the wide depth is the distance at every pixel
    /// (distortion only changes which ray a pixel sees, not its Z).
    func testPlaneDepthIsTheDistanceEverywhere() throws {
        let rig = try Self.rig()
        for distance in [0.3, 1.2, 4.5] {
            let scene = SceneLibrary.plane(Self.options { $0.planeDistance = distance })
            let wide = try Renderer.render(scene, camera: .wide, of: rig, options: Self.fast)
            let depth = wide.depthValues()
            XCTAssertEqual(depth.count, 320 * 240)
            let worst = depth.map { abs(Double($0) - distance) / distance }.max()!
            XCTAssertLessThanOrEqual(worst, 1e-6, "plane at \(distance) m: worst relative depth error \(worst)")
            XCTAssertEqual(Set(wide.objectIDs), [0], "the plane fills the view")
        }
    }

    /// A plane tilted about y: every pixel's depth is the analytic ray-plane
    /// intersection. For a camera with centre C and ray direction
    /// d = R^T (xn, yn, 1) (xn, yn from the exact undistortion), the plane
    /// n . (X - P) = 0 through P = (0, 0, D) with n = (sin t, 0, -cos t) is hit at
    /// X = C + Z d with Z = n . (P - C) / n . d, Z being the depth in that camera.
    func testTiltedPlaneDepthMatchesRayPlaneIntersection() throws {
        let rig = try Self.rig()
        for (distance, tilt) in [(1.2, 30.0), (2.5, -45.0)] {
            let scene = SceneLibrary.plane(Self.options { $0.planeDistance = distance; $0.planeTiltDegrees = tilt })
            let t = tilt * .pi / 180
            let normal = Vector3(sin(t), 0, -cos(t)), point = Vector3(0, 0, distance)
            for camera in [FrameName.wide, .tele] {
                let view = try Renderer.render(scene, camera: camera, of: rig, options: Self.fast)
                let model = try rig.camera(camera).model
                let cameraFromWorld = try rig.transform(from: .wide, to: camera, unit: .metre)
                let r = cameraFromWorld.rotation.matrix.transposed
                let centre = -(r * cameraFromWorld.translation)
                let depth = view.depthValues()
                var worst = 0.0, spread = (lo: Double.infinity, hi: -Double.infinity)
                for y in stride(from: 0, to: 240, by: 3) {
                    for x in stride(from: 0, to: 320, by: 3) {
                        let ray = try model.backProject(Vector2(Double(x), Double(y)), depth: 1)
                        let d = r * ray
                        let z = normal.dot(point - centre) / normal.dot(d)
                        let rendered = Double(depth[y * 320 + x])
                        worst = max(worst, abs(rendered - z) / z)
                        spread = (min(spread.lo, z), max(spread.hi, z))
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1e-6, "\(camera) at \(distance) m, tilt \(tilt) deg: worst relative error \(worst)")
                XCTAssertGreaterThan(spread.hi / spread.lo, camera == .wide ? 1.3 : 1.1, "the plane is tilted in view")
            }
        }
    }

    // MARK: untextured regions

    /// `untextured` adds a flat patch: its inner pixels (all 4 neighbours on
    /// the patch too) have one colour. Without the option the same pixels are
    /// textured (many colours), in every scene.
    func testUntexturedOptionAddsAFlatRegion() throws {
        let rig = try Self.rig()
        let builders: [(String, (SceneLibrary.Options) -> Scene)] = [
            ("plane", SceneLibrary.plane), ("steps", SceneLibrary.steps), ("room", SceneLibrary.room),
        ]
        for (name, build) in builders {
            let plain = build(Self.options())
            let holes = build(Self.options { $0.untextured = true })
            XCTAssertEqual(holes.objects.count, plain.objects.count + 1, name)
            let patch = Int32(holes.objects.firstIndex { $0.name.contains("untextured") }!)
            let view = try Renderer.render(holes, camera: .wide, of: rig, options: Self.fast)
            let ids = view.objectIDs
            let inner = (0..<ids.count).filter { i in
                let x = i % 320, y = i / 320
                guard x > 0, y > 0, x < 319, y < 239 else { return false }
                return [i, i - 1, i + 1, i - 320, i + 320].allSatisfy { ids[$0] == patch }
            }
            XCTAssertGreaterThan(inner.count, 100, "\(name): the flat patch is visible")
            let rgb = try view.image.pixels(as: UInt8.self)
            let colours = Set(inner.map { [rgb[3 * $0], rgb[3 * $0 + 1], rgb[3 * $0 + 2]] })
            XCTAssertEqual(colours.count, 1, "\(name): the patch is flat")

            let textured = try Renderer.render(plain, camera: .wide, of: rig, options: Self.fast)
            let plainRGB = try textured.image.pixels(as: UInt8.self)
            let plainColours = Set(inner.map { [plainRGB[3 * $0], plainRGB[3 * $0 + 1], plainRGB[3 * $0 + 2]] })
            XCTAssertGreaterThan(plainColours.count, 20, "\(name): without the option the region is textured")
        }
    }

    // MARK: determinism and names

    func testScenesAreDeterministicForASeed() throws {
        let rig = try RenderFixtures.nominalRig(width: 160)
        for name in ["plane", "steps", "room"] {
            let a = try SceneLibrary.scene(named: name, options: Self.options { $0.seed = 42 })
            let b = try SceneLibrary.scene(named: name, options: Self.options { $0.seed = 42 })
            let c = try SceneLibrary.scene(named: name, options: Self.options { $0.seed = 43 })
            XCTAssertEqual(a, b, name)
            XCTAssertNotEqual(a, c, "\(name): the seed changes the textures")
            XCTAssertEqual(a.name, name)
            let ra = try Renderer.render(a, camera: .wide, of: rig, options: Self.fast)
            let rb = try Renderer.render(b, camera: .wide, of: rig, options: Self.fast)
            let rc = try Renderer.render(c, camera: .wide, of: rig, options: Self.fast)
            XCTAssertEqual(ra.image, rb.image, name)
            XCTAssertEqual(ra.depth, rb.depth, name)
            XCTAssertNotEqual(ra.image, rc.image, "\(name): another seed renders other textures")
            XCTAssertEqual(ra.depth, rc.depth, "\(name): the geometry does not depend on the seed")
        }
    }

    func testUnknownSceneNameListsTheNames() throws {
        XCTAssertEqual(SceneLibrary.names, ["plane", "steps", "room", "board", "office"])
        XCTAssertThrowsError(try SceneLibrary.scene(named: "moon", options: Self.options())) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("moon"), text)
            for name in ["plane", "steps", "room", "board"] { XCTAssertTrue(text.contains(name), text) }
            XCTAssertFalse(text.contains("\n"), text)
        }
        // Synthesizer rejects it before any work, with the same list.
        let spec = SynthSpec(sceneName: "Room", calibration: try NominalDevice.load(),
                             size: PixelSize(width: 320, height: 240))
        XCTAssertThrowsError(try Synthesizer.make(spec)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'Room'") && text.contains("plane, steps, room, board"), text)
        }
    }
}
