import DualcamGeometry
import DualcamSynthetic
import TestSupport
import XCTest

final class GroundTruthTests: XCTestCase {
    /// Acceptance: wide GT depth back-projected through the exact wide model,
    /// moved into tele and projected with the exact tele model must meet the
    /// tele ground truth. A tele ray re-cast through the exact projected
    /// sub-pixel position hits either the same point (co-visible) or a nearer
    /// one (occluded), never a farther one; where the tele GT depth map is
    /// locally planar its bilinear inverse-depth interpolation agrees within 0.1 %.
    func testWideDepthReprojectsOntoTeleGroundTruth() throws {
        let rig = try RenderFixtures.nominalRig(width: 640)
        let scene = RenderFixtures.room()
        let options = RenderOptions(samplesPerAxis: 1)
        let wide = try Renderer.render(scene, camera: .wide, of: rig, options: options)
        let tele = try Renderer.render(scene, camera: .tele, of: rig, options: options)
        let wideModel = try rig.camera(.wide).model, teleModel = try rig.camera(.tele).model
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let teleRays = try CameraRays(rig: rig, camera: .tele)
        let caster = try SceneRayCaster(scene)
        let wideDepth = wide.depthValues(), teleDepth = tele.depthValues()
        let (w, h) = (wide.size.width, wide.size.height)
        let mask = try GroundTruth.covisibility(from: wide, to: tele, rig: rig)

        var sampled = 0, covisible = 0, occluded = 0, overshoot = 0, smooth = 0, maskAgrees = 0
        var worstSmooth = 0.0
        for y in stride(from: 0, to: h, by: 2) {
            for x in stride(from: 0, to: w, by: 2) {
                sampled += 1
                let z = Double(wideDepth[y * w + x])
                XCTAssertTrue(z.isFinite, "the room encloses the camera: every wide pixel hits something")
                let p = teleFromWide.apply(try wideModel.backProject(Vector2(Double(x), Double(y)), depth: z))
                guard let q = try teleModel.project(p), q.x >= -0.5, q.y >= -0.5,
                      q.x < Double(w) - 0.5, q.y < Double(h) - 0.5
                else {
                    if !mask[y * w + x] { maskAgrees += 1 }
                    continue
                }
                let hit = try XCTUnwrap(caster.cast(origin: teleRays.center, direction: try teleRays.exactDirection(q)))
                let relative = (hit.distance - p.z) / p.z
                var isCovisible = false
                if abs(relative) <= 1e-3 {
                    covisible += 1
                    isCovisible = true
                    if let interpolated = Self.planarInverseDepth(teleDepth, ids: tele.objectIDs, width: w, height: h, at: q) {
                        smooth += 1
                        worstSmooth = max(worstSmooth, abs(interpolated - p.z) / p.z)
                    }
                } else if relative < 0 {
                    occluded += 1
                } else {
                    overshoot += 1
                }
                if mask[y * w + x] == isCovisible { maskAgrees += 1 }
            }
        }
        let fraction = Double(covisible) / Double(sampled)
        print("GT consistency: \(covisible) of \(sampled) sampled wide pixels co-visible in tele (\(fraction * 100) %), "
              + "\(occluded) occluded, \(overshoot) overshoots; \(smooth) planar, worst relative error \(worstSmooth); "
              + "covisibility mask agrees on \(maskAgrees)")
        XCTAssertGreaterThan(fraction, 0.2)
        XCTAssertGreaterThan(occluded, 0, "the crate and the ball occlude some of the background")
        XCTAssertLessThanOrEqual(overshoot, sampled / 10_000, "tele rays must never pass a point the wide camera sees")
        XCTAssertGreaterThan(smooth, covisible / 2)
        XCTAssertLessThanOrEqual(worstSmooth, 1e-3)
        XCTAssertGreaterThan(Double(maskAgrees), 0.99 * Double(sampled))
    }

    /// 1 / (bilinear interpolation of 1/Z) at q when the 4 x 4 block of tele
    /// pixels around q is one object and 1/Z is affine over it (second
    /// differences below 1e-5 relative: a plane seen by the undistorted tele).
    static func planarInverseDepth(_ depth: [Float], ids: [Int32], width w: Int, height h: Int, at q: Vector2) -> Double? {
        let x0 = Int(q.x.rounded(.down)), y0 = Int(q.y.rounded(.down))
        guard x0 >= 1, y0 >= 1, x0 + 2 < w, y0 + 2 < h else { return nil }
        func inv(_ x: Int, _ y: Int) -> Double { 1 / Double(depth[y * w + x]) }
        let id = ids[y0 * w + x0]
        for y in (y0 - 1)...(y0 + 2) {
            for x in (x0 - 1)...(x0 + 2) where ids[y * w + x] != id || !inv(x, y).isFinite { return nil }
        }
        func curved(_ a: Double, _ b: Double, _ c: Double) -> Bool { abs(a - 2 * b + c) > 1e-5 * b }
        for i in -1...2 {
            for j in 0...1 {
                if curved(inv(x0 + j - 1, y0 + i), inv(x0 + j, y0 + i), inv(x0 + j + 1, y0 + i)) { return nil }
                if curved(inv(x0 + i, y0 + j - 1), inv(x0 + i, y0 + j), inv(x0 + i, y0 + j + 1)) { return nil }
            }
        }
        let fx = q.x - Double(x0), fy = q.y - Double(y0)
        let top = inv(x0, y0) * (1 - fx) + inv(x0 + 1, y0) * fx
        let bottom = inv(x0, y0 + 1) * (1 - fx) + inv(x0 + 1, y0 + 1) * fx
        return 1 / (top * (1 - fy) + bottom * fy)
    }

    /// A fronto-parallel plane Z = D: wide GT depth is exactly D; tele GT depth
    /// is the plane's depth along each tele ray, (D + n_t.t) / (n_t . K^-1 (x, y, 1))
    /// with n_t = R (0, 0, 1) the plane normal in tele coordinates.
    func testFrontoParallelPlaneDepth() throws {
        let rig = try RenderFixtures.nominalRig(width: 320)
        let d = 2.75
        let scene = Scene(name: "plane", objects: [
            SceneObject(name: "plane", shape: .rectangle(center: Vector3(0.3, -0.2, d), normal: Vector3(0, 0, 1), uAxis: Vector3(1, 0, 0),
                                                         halfWidth: .infinity, halfHeight: .infinity),
                        appearance: .flat(.grey(0.5))),
        ])
        let options = RenderOptions(samplesPerAxis: 1)
        let wide = try Renderer.render(scene, camera: .wide, of: rig, options: options)
        XCTAssertTrue(wide.depthValues().allSatisfy { $0 == Float(d) }, "wide depth must be exactly D")
        XCTAssertTrue(wide.objectIDs.allSatisfy { $0 == 0 })

        let tele = try Renderer.render(scene, camera: .tele, of: rig, options: options)
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let n = teleFromWide.rotation * Vector3(0, 0, 1)
        let distance = d + n.dot(teleFromWide.translation)
        let k = try rig.camera(.tele).model.intrinsics
        let depth = tele.depthValues()
        var worst = 0.0
        for y in 0..<tele.size.height {
            for x in 0..<tele.size.width {
                let expected = distance / n.dot(k.normalized(fromPixel: Vector2(Double(x), Double(y))).homogeneous)
                worst = max(worst, abs(Double(depth[y * tele.size.width + x]) - expected) / expected)
            }
        }
        XCTAssertLessThan(worst, 1e-7, "float32 rounding only")
        XCTAssertNotEqual(distance, d, "the tele plane distance differs from D (baseline and rotation)")
    }

    /// Tele sees a sub-field of the wide view, so nearly every tele pixel is
    /// co-visible in wide (except thin strips occluded by the near crate);
    /// only the central quarter or so of the wide image is co-visible in tele.
    func testCovisibilityMask() throws {
        let rig = try RenderFixtures.nominalRig(width: 160)
        let scene = RenderFixtures.room()
        let views = try Renderer.render(scene, of: rig, options: RenderOptions(samplesPerAxis: 1))
        let wide = try XCTUnwrap(views[.wide]), tele = try XCTUnwrap(views[.tele])
        func fraction(_ m: [Bool]) -> Double { Double(m.filter { $0 }.count) / Double(m.count) }
        let exact = try GroundTruth.covisibility(from: tele, to: wide, rig: rig, scene: scene)
        let fromMaps = try GroundTruth.covisibility(from: tele, to: wide, rig: rig)
        XCTAssertGreaterThan(fraction(exact), 0.99)
        XCTAssertLessThan(fraction(exact), 1, "the crate occludes a little of the background")
        XCTAssertGreaterThan(fraction(fromMaps), 0.97)
        XCTAssertGreaterThan(Double(zip(exact, fromMaps).filter { $0 == $1 }.count), 0.97 * Double(exact.count))
        let wideInTele = try GroundTruth.covisibility(from: wide, to: tele, rig: rig)
        XCTAssertGreaterThan(fraction(wideInTele), 0.2)
        XCTAssertLessThan(fraction(wideInTele), 0.35)
        // Corners of the wide image lie outside the tele view.
        XCTAssertFalse(wideInTele[0])
        XCTAssertFalse(wideInTele[wideInTele.count - 1])
        // A view of the wrong size is refused.
        XCTAssertThrowsError(try GroundTruth.covisibility(from: tele, to: wide, rig: try RenderFixtures.nominalRig(width: 320)))
    }
}
