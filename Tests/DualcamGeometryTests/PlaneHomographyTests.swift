import DualcamGeometry
import Foundation
import TestSupport
import XCTest

/// A random dual-camera configuration for the acceptance tests.
struct RandomRig {
    var source: Intrinsics
    var destination: Intrinsics
    /// dstFromSrc in millimetres.
    var transform: RigidTransform
    /// n^T X = d in source coordinates, in metres.
    var plane: Plane

    static let sizes = [PixelSize(width: 4032, height: 3024), PixelSize(width: 1920, height: 1440),
                        PixelSize(width: 1280, height: 720), PixelSize(width: 640, height: 480),
                        PixelSize(width: 1920, height: 1080), PixelSize(width: 3840, height: 2160),
                        PixelSize(width: 1440, height: 1080), PixelSize(width: 3264, height: 2448)]

    /// Intrinsics for `size` with horizontal half-angle tangent `tanHalf`: random principal
    /// point within 5% of the centre, fy within 0.5% of fx, skew up to 1 px.
    static func intrinsics(_ rng: inout SeededGenerator, size: PixelSize, tanHalf: Double) throws -> Intrinsics {
        let w = Double(size.width), h = Double(size.height)
        let fx = w / (2 * tanHalf)
        return try Intrinsics(fx: fx, fy: fx * rng.uniform(0.995...1.005), skew: rng.uniform(-1...1),
                              cx: w / 2 + rng.uniform(-0.05...0.05) * w, cy: h / 2 + rng.uniform(-0.05...0.05) * h,
                              referenceSize: size)
    }

    static func random(_ rng: inout SeededGenerator, from src: FrameName = .wide, to dst: FrameName = .tele) throws -> RandomRig {
        let srcSize = sizes.randomElement(using: &rng)!
        var dstSize = sizes.randomElement(using: &rng)!
        while dstSize == srcSize { dstSize = sizes.randomElement(using: &rng)! }
        // Source: 50-80 deg horizontal FOV; destination 1-3x the focal length (narrower FOV).
        let tanHalf = tan(Angle.radians(rng.uniform(50...80)) / 2)
        let ratio = rng.uniform(1...3)
        let source = try intrinsics(&rng, size: srcSize, tanHalf: tanHalf)
        let destination = try intrinsics(&rng, size: dstSize, tanHalf: tanHalf / ratio)
        let transform = try RigidTransform(rotation: rng.rotation(degrees: 0...5),
                                           translation: rng.unitVector() * rng.uniform(5...200),
                                           unit: .millimetre, from: src, to: dst)
        return RandomRig(source: source, destination: destination, transform: transform,
                         plane: try randomPlane(&rng, in: src))
    }

    /// Tilt up to 60 deg from fronto-parallel about a random in-plane axis, 0.2-20 m (log-uniform), in metres.
    static func randomPlane(_ rng: inout SeededGenerator, in frame: FrameName) throws -> Plane {
        let phi = rng.uniform(0...(2 * .pi))
        let tilt = Angle.radians(rng.uniform(0...60))
        let normal = Rotation(axis: Vector3(cos(phi), sin(phi), 0), angle: tilt) * Vector3(0, 0, 1)
        let distance = exp(rng.uniform(log(0.2)...log(20)))
        return try Plane(normal: normal, distance: distance, unit: .metre, in: frame)
    }
}

/// A random point on `plane` (metres, source frame) seen by the source camera, in millimetres:
/// the ray through a random source pixel, cut with the plane. nil when the ray misses the plane.
func randomPointOnPlane(_ rng: inout SeededGenerator, plane: Plane, source: Intrinsics) -> Vector3? {
    let u = Vector2(rng.uniform(0...Double(source.referenceSize.width)), rng.uniform(0...Double(source.referenceSize.height)))
    // Ray by hand: K^-1 [u v 1].
    let y = (u.y - source.cy) / source.fy
    let ray = Vector3((u.x - source.cx - source.skew * y) / source.fx, y, 1)
    let cosine = plane.normal.dot(ray)
    guard cosine > 1e-3 else { return nil }
    let point = ray * (plane.distance * 1000 / cosine)  // mm
    return point
}

final class PlaneHomographyTests: XCTestCase {
    // MARK: Acceptance: random rigs and planes

    func testHomographyMapsPlanePointsAcrossRandomRigs() throws {
        var rng = SeededGenerator(seed: 20_240_501)
        var worst = 0.0, checked = 0, combinations = 0
        for combination in 0..<250 {
            let rig = try RandomRig.random(&rng)
            let h = try PlaneHomography.homography(from: rig.source, to: rig.destination,
                                                   dstFromSrc: rig.transform, plane: rig.plane)
            XCTAssertEqual(h[2, 2], 1, "normalised")
            // The plane is n^T X = d; a plane point really lies on it (in mm).
            var points = 0, attempts = 0
            while points < 20, attempts < 2000 {
                attempts += 1
                guard let xSrc = randomPointOnPlane(&rng, plane: rig.plane, source: rig.source) else { continue }
                XCTAssertClose(rig.plane.normal.dot(xSrc), rig.plane.distance * 1000, relative: 1e-12)
                // Independent transform: R X + t with the raw matrix.
                let xDst = rig.transform.rotation.matrix * xSrc + rig.transform.translation
                guard xDst.z > 1 else { continue }  // in front of the destination camera
                let uSrc = pinholeProject(xSrc, rig.source)
                let uDst = pinholeProject(xDst, rig.destination)
                let mapped = h.applyHomography(uSrc)
                let error = (mapped - uDst).norm
                worst = max(worst, error)
                XCTAssertLessThanOrEqual(error, 1e-9,
                                         "combination \(combination): \(uSrc) -> \(mapped), expected \(uDst); plane \(rig.plane)")
                points += 1
                checked += 1
            }
            XCTAssertEqual(points, 20, "combination \(combination) found too few plane points")
            combinations += 1
        }
        XCTAssertGreaterThanOrEqual(combinations, 200)
        XCTAssertGreaterThanOrEqual(checked, 200 * 20)
        print("plane homography acceptance: \(checked) points over \(combinations) rig/plane combinations, worst \(worst) px")
    }

    func testHomographyIsKRtnK() throws {
        // The formula K_dst (R + t n^T / d) K_src^-1, assembled independently, up to scale.
        var rng = SeededGenerator(seed: 81)
        for _ in 0..<50 {
            let rig = try RandomRig.random(&rng)
            let t = rig.transform.translation / 1000  // metres, like the plane
            let core = rig.transform.rotation.matrix + Matrix3.outer(t, rig.plane.normal) * (1 / rig.plane.distance)
            let expected = rig.destination.matrix * core * rig.source.matrix.inverse!
            let h = try PlaneHomography.homography(from: rig.source, to: rig.destination,
                                                   dstFromSrc: rig.transform, plane: rig.plane)
            XCTAssertClose(h, expected * (1 / expected[2, 2]), absolute: 1e-12, relative: 1e-10)
        }
    }

    func testPlaneAndTransformUnitsAreReconciled() throws {
        var rng = SeededGenerator(seed: 82)
        for _ in 0..<50 {
            let rig = try RandomRig.random(&rng)
            let reference = try PlaneHomography.homography(from: rig.source, to: rig.destination,
                                                           dstFromSrc: rig.transform, plane: rig.plane)
            let planeMM = try Plane(normal: rig.plane.normal, distance: rig.plane.distance * 1000, unit: .millimetre, in: .wide)
            let planeIn = try Plane(normal: rig.plane.normal, distance: rig.plane.distance / 0.0254, unit: .inch, in: .wide)
            for (transform, plane) in [(rig.transform, planeMM), (rig.transform.converted(to: .metre), rig.plane),
                                       (rig.transform.converted(to: .metre), planeMM), (rig.transform.converted(to: .foot), planeIn)] {
                let h = try PlaneHomography.homography(from: rig.source, to: rig.destination, dstFromSrc: transform, plane: plane)
                XCTAssertClose(h, reference, absolute: 1e-12, relative: 1e-10, "\(transform.unit) / \(plane.unit)")
            }
            // Forgetting the conversion (mm treated as m) would give a very different homography.
            let wrong = try Plane(normal: rig.plane.normal, distance: rig.plane.distance, unit: .millimetre, in: .wide)
            let hWrong = try PlaneHomography.homography(from: rig.source, to: rig.destination, dstFromSrc: rig.transform, plane: wrong)
            XCTAssertGreaterThan(hWrong.maxAbsDifference(reference), 1e-6)
        }
    }

    // MARK: Through the rig

    func testRigHomographyWideToTeleAndTeleToWide() throws {
        var rng = SeededGenerator(seed: 83)
        var worst = 0.0
        for _ in 0..<60 {
            let random = try RandomRig.random(&rng)
            let wide = random.source, tele = random.destination
            let teleFromWide = random.transform
            let rig = try Rig(reference: .wide,
                              cameras: [RigCamera(name: .tele, model: CameraModel(intrinsics: tele)),
                                        RigCamera(name: .wide, model: CameraModel(intrinsics: wide))],
                              extrinsics: [teleFromWide])
            let r = teleFromWide.rotation.matrix, t = teleFromWide.translation
            // wide -> tele, plane in wide coordinates.
            let planeW = try RandomRig.randomPlane(&rng, in: .wide)
            let hWT = try rig.homography(from: .wide, to: .tele, plane: planeW)
            // tele -> wide, plane in tele coordinates.
            let planeT = try RandomRig.randomPlane(&rng, in: .tele)
            let hTW = try rig.homography(from: .tele, to: .wide, plane: planeT)
            var n1 = 0, n2 = 0, attempts = 0
            while n1 < 20 || n2 < 20, attempts < 4000 {
                attempts += 1
                if n1 < 20, let xW = randomPointOnPlane(&rng, plane: planeW, source: wide) {
                    let xT = r * xW + t
                    if xT.z > 1 {
                        let e = (hWT.applyHomography(pinholeProject(xW, wide)) - pinholeProject(xT, tele)).norm
                        worst = max(worst, e)
                        XCTAssertLessThanOrEqual(e, 1e-9, "wide->tele")
                        n1 += 1
                    }
                }
                if n2 < 20, let xT = randomPointOnPlane(&rng, plane: planeT, source: tele) {
                    let xW = r.transposed * (xT - t)  // wideFromTele by hand
                    if xW.z > 1 {
                        let e = (hTW.applyHomography(pinholeProject(xT, tele)) - pinholeProject(xW, wide)).norm
                        worst = max(worst, e)
                        XCTAssertLessThanOrEqual(e, 1e-9, "tele->wide")
                        n2 += 1
                    }
                }
            }
            XCTAssertEqual(n1, 20)
            XCTAssertEqual(n2, 20)
            // The two directions are not the same homography.
            XCTAssertGreaterThan(hWT.maxAbsDifference(hTW), 1e-3)
            // A plane in the wrong frame is refused.
            XCTAssertThrowsError(try rig.homography(from: .wide, to: .tele, plane: planeT)) { error in
                guard case GeometryError.frameMismatch = error else { return XCTFail("\(error)") }
            }
        }
        print("rig homography: worst \(worst) px")
    }

    func testRigHomographyAtOtherBufferSizes() throws {
        var rng = SeededGenerator(seed: 84)
        for _ in 0..<30 {
            let random = try RandomRig.random(&rng)
            let wide = random.source, tele = random.destination
            let rig = try Rig(reference: .wide,
                              cameras: [RigCamera(name: .wide, model: CameraModel(intrinsics: wide)),
                                        RigCamera(name: .tele, model: CameraModel(intrinsics: tele))],
                              extrinsics: [random.transform])
            let full = try rig.homography(from: .wide, to: .tele, plane: random.plane)
            let halfW = PixelSize(width: wide.referenceSize.width / 2, height: wide.referenceSize.height / 2)
            let halfT = PixelSize(width: tele.referenceSize.width / 2, height: tele.referenceSize.height / 2)
            let half = try rig.homography(from: .wide, to: .tele, plane: random.plane, sourceSize: halfW, targetSize: halfT)
            // Explicit sizes equal to the reference sizes change nothing.
            XCTAssertEqual(try rig.homography(from: .wide, to: .tele, plane: random.plane,
                                              sourceSize: wide.referenceSize, targetSize: tele.referenceSize), full)
            let sw = Double(halfW.width) / Double(wide.referenceSize.width), sh = Double(halfW.height) / Double(wide.referenceSize.height)
            let tw = Double(halfT.width) / Double(tele.referenceSize.width), th = Double(halfT.height) / Double(tele.referenceSize.height)
            for _ in 0..<20 {
                let u = Vector2(rng.uniform(0...Double(wide.referenceSize.width)), rng.uniform(0...Double(wide.referenceSize.height)))
                let v = full.applyHomography(u)
                XCTAssertClose(half.applyHomography(Vector2(u.x * sw, u.y * sh)), Vector2(v.x * tw, v.y * th), absolute: 1e-9)
            }
            // A buffer with another aspect ratio is refused.
            let other = wide.referenceSize.aspectRatio > 1.5 ? PixelSize(width: 640, height: 480) : PixelSize(width: 1280, height: 720)
            XCTAssertThrowsError(try rig.homography(from: .wide, to: .tele, plane: random.plane, sourceSize: other)) { error in
                XCTAssertTrue("\(error)".contains("aspect ratio"), "\(error)")
            }
        }
    }

    // MARK: Fronto-parallel and infinity

    func testFrontoParallelConvenienceAgreesWithExplicitPlane() throws {
        var rng = SeededGenerator(seed: 85)
        for _ in 0..<50 {
            let rig = try RandomRig.random(&rng)
            let metres = exp(rng.uniform(log(0.2)...log(20)))
            let distance = try Distance(metres: metres)
            let convenience = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                                 dstFromSrc: rig.transform, distance: distance)
            let explicitM = try PlaneHomography.homography(
                from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                plane: try Plane(normal: Vector3(0, 0, 1), distance: metres, unit: .metre, in: .wide))
            let explicitMM = try PlaneHomography.homography(
                from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                plane: try Plane(normal: Vector3(0, 0, 5), distance: metres * 1000, unit: .millimetre, in: .wide))
            XCTAssertClose(convenience, explicitM, absolute: 1e-12, relative: 1e-12)
            XCTAssertClose(convenience, explicitMM, absolute: 1e-12, relative: 1e-10)
            // The convenience plane is Z = d in the source frame.
            let plane = Plane.frontoParallel(distance: distance, in: .wide)
            XCTAssertEqual(plane.normal, Vector3(0, 0, 1))
            XCTAssertEqual(plane.frame, .wide)
            XCTAssertEqual(plane.tiltDegrees, 0)
            XCTAssertClose(plane.distance, metres, relative: 1e-15)
            // And it differs from a tilted plane at the same distance.
            let tilted = try PlaneHomography.homography(
                from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                plane: try Plane(normal: Vector3(0, 0.5, 1), distance: metres, unit: .metre, in: .wide))
            XCTAssertGreaterThan(tilted.maxAbsDifference(convenience), 1e-9)
        }
        // From a parsed distance.
        let rig = try RandomRig.random(&rng)
        XCTAssertClose(try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                                                          distance: try Distance(parsing: "120cm")),
                       try PlaneHomography.homography(from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                                                      plane: try Plane(normal: Vector3(0, 0, 1), distance: 1200, unit: .millimetre, in: .wide)),
                       absolute: 1e-12, relative: 1e-10)
    }

    func testInfiniteDistanceIsTheInfiniteHomography() throws {
        var rng = SeededGenerator(seed: 86)
        for _ in 0..<50 {
            let rig = try RandomRig.random(&rng)
            let kr = rig.destination.matrix * rig.transform.rotation.matrix * rig.source.matrix.inverse!
            let expected = kr * (1 / kr[2, 2])
            let viaDistance = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                                 dstFromSrc: rig.transform, distance: .infinity)
            let viaPlane = try PlaneHomography.homography(
                from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                plane: try Plane(normal: rig.plane.normal, distance: .infinity, unit: .metre, in: .wide))
            let viaParsed = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                               dstFromSrc: rig.transform, distance: try Distance(parsing: "inf"))
            XCTAssertClose(viaDistance, expected, absolute: 1e-12, relative: 1e-12)
            XCTAssertClose(viaPlane, expected, absolute: 1e-12, relative: 1e-12)
            XCTAssertEqual(viaParsed, viaDistance)
            // Far planes approach it; near ones do not.
            let far = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                         dstFromSrc: rig.transform, distance: try Distance(metres: 1e7))
            let near = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                          dstFromSrc: rig.transform, distance: try Distance(metres: 0.3))
            let u = Vector2(Double(rig.source.referenceSize.width) * 0.3, Double(rig.source.referenceSize.height) * 0.7)
            XCTAssertLessThan((far.applyHomography(u) - expected.applyHomography(u)).norm, 1e-3)
            XCTAssertGreaterThan((near.applyHomography(u) - expected.applyHomography(u)).norm, 1)
            // Pure rotation: points at infinity map by K_dst R K_src^-1 (check with a direction vector).
            let dir = Vector3(rng.uniform(-0.3...0.3), rng.uniform(-0.3...0.3), 1)
            let uSrc = pinholeProject(dir, rig.source)
            let uDst = pinholeProject(rig.transform.rotation.matrix * dir, rig.destination)
            XCTAssertClose(viaDistance.applyHomography(uSrc), uDst, absolute: 1e-9)
        }
    }

    // MARK: Parallax

    func testParallaxIsFocalTimesBaselineOverDistance() throws {
        // Identical K, no rotation, pure-x baseline: every pixel shifts by f B / d along x.
        let k = try Intrinsics(fx: 1500, fy: 1500, cx: 960, cy: 720, referenceSize: PixelSize(width: 1920, height: 1440))
        var rng = SeededGenerator(seed: 87)
        for baseline in [5.0, 12.0, 50.0, 200.0] {  // mm: X_dst = X_src + (B, 0, 0)
            let transform = try RigidTransform(rotation: .identity, translation: Vector3(baseline, 0, 0),
                                               unit: .millimetre, from: .wide, to: .tele)
            var previous: (d: Double, shift: Double)?
            for d in [0.2, 0.5, 1.0, 2.0, 4.0, 20.0] {
                let h = try PlaneHomography.frontoParallel(from: k, to: k, dstFromSrc: transform, distance: try Distance(metres: d))
                let expected = 1500 * (baseline / 1000) / d  // px
                for _ in 0..<10 {
                    let u = Vector2(rng.uniform(0...1920), rng.uniform(0...1440))
                    let shift = h.applyHomography(u) - u
                    XCTAssertClose(shift.x, expected, absolute: 1e-9, "B \(baseline) d \(d)")
                    XCTAssertClose(shift.y, 0, absolute: 1e-9)
                }
                // Halving the distance doubles the shift: proportional to 1/d.
                let shift = h.applyHomography(Vector2(100, 100)).x - 100
                if let p = previous { XCTAssertClose(shift * d, p.shift * p.d, relative: 1e-12) }
                previous = (d, shift)
            }
        }
        // The sign follows the baseline: the opposite baseline shifts the other way.
        let left = try RigidTransform(rotation: .identity, translation: Vector3(-60, 0, 0), unit: .millimetre, from: .wide, to: .tele)
        let h = try PlaneHomography.frontoParallel(from: k, to: k, dstFromSrc: left, distance: try Distance(metres: 1))
        XCTAssertClose(h.applyHomography(Vector2(500, 500)), Vector2(500 - 90, 500), absolute: 1e-9)
    }

    func testParallaxSlidesAlongTheBaselineDirectionAsOneOverD() throws {
        // General K and rotation, baseline in the x-y plane (t_z = 0): the registration of a
        // pixel moves, relative to infinity, along (K_dst t)_xy by an amount proportional to 1/d.
        var rng = SeededGenerator(seed: 88)
        for _ in 0..<30 {
            var rig = try RandomRig.random(&rng)
            let phi = rng.uniform(0...(2 * .pi))
            let t = Vector3(cos(phi), sin(phi), 0) * rng.uniform(5...200)
            rig.transform = try RigidTransform(rotation: rig.transform.rotation, translation: t, unit: .millimetre, from: .wide, to: .tele)
            let kt = rig.destination.matrix * t
            let direction = Vector2(kt.x, kt.y) / Vector2(kt.x, kt.y).norm
            let hInf = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination, dstFromSrc: rig.transform, distance: .infinity)
            for _ in 0..<5 {
                let u = Vector2(rng.uniform(0...Double(rig.source.referenceSize.width)),
                                rng.uniform(0...Double(rig.source.referenceSize.height)))
                let atInfinity = hInf.applyHomography(u)
                var scaled = [Double]()
                for d in [0.25, 0.5, 1.0, 3.0, 10.0] {
                    let h = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination,
                                                               dstFromSrc: rig.transform, distance: try Distance(metres: d))
                    let disp = h.applyHomography(u) - atInfinity
                    // Along the baseline direction: no component across it.
                    XCTAssertClose(disp.x * direction.y - disp.y * direction.x, 0, absolute: 1e-9, "d \(d)")
                    XCTAssertGreaterThan(disp.norm, 1e-3)
                    scaled.append((disp.x * direction.x + disp.y * direction.y) * d)
                }
                // disp * d is the same for every d.
                for s in scaled { XCTAssertClose(s, scaled[0], absolute: 1e-8, relative: 1e-10) }
            }
        }
    }

    func testRegistrationsOfAPixelAreCollinearWithTheEpipole() throws {
        // For any baseline, H(d) u for all d lies on the epipolar line through e = K_dst t and H_inf u.
        var rng = SeededGenerator(seed: 89)
        for _ in 0..<30 {
            let rig = try RandomRig.random(&rng)
            let e = rig.destination.matrix * rig.transform.translation
            let hInf = try PlaneHomography.frontoParallel(from: rig.source, to: rig.destination, dstFromSrc: rig.transform, distance: .infinity)
            let u = Vector2(Double(rig.source.referenceSize.width) * 0.4, Double(rig.source.referenceSize.height) * 0.6)
            let a = hInf * u.homogeneous
            for d in [0.3, 1.0, 5.0] {
                let h = try PlaneHomography.homography(
                    from: rig.source, to: rig.destination, dstFromSrc: rig.transform,
                    plane: try Plane(normal: rig.plane.normal, distance: d, unit: .metre, in: .wide))
                let b = h * u.homogeneous
                let det = Matrix3(rows: e / e.norm, a / a.norm, b / b.norm).determinant
                XCTAssertClose(det, 0, absolute: 1e-12, "d \(d)")
            }
        }
    }

    // MARK: Errors and planes

    func testFrameMismatchAndSingularHomography() throws {
        let k = try wideIntrinsics()
        let t = try RigidTransform(rotation: .identity, translation: Vector3(0, 0, -100), unit: .millimetre, from: .wide, to: .tele)
        let planeInTele = try Plane(normal: Vector3(0, 0, 1), distance: 1, unit: .metre, in: .tele)
        let mismatch = assertGeometryError(try PlaneHomography.homography(from: k, to: k, dstFromSrc: t, plane: planeInTele))
        guard case .frameMismatch = mismatch else { return XCTFail("wrong error \(String(describing: mismatch))") }
        // The destination centre is at Z = 100 mm in the source frame; a plane through it is degenerate.
        let throughCentre = try Plane(normal: Vector3(0, 0, 1), distance: 100, unit: .millimetre, in: .wide)
        let singular = assertGeometryError(try PlaneHomography.homography(from: k, to: k, dstFromSrc: t, plane: throughCentre))
        guard case .singular = singular else { return XCTFail("wrong error \(String(describing: singular))") }
        // Slightly off it is fine.
        XCTAssertNoThrow(try PlaneHomography.homography(
            from: k, to: k, dstFromSrc: t, plane: try Plane(normal: Vector3(0, 0, 1), distance: 101, unit: .millimetre, in: .wide)))
    }

    func testPlaneValidation() throws {
        for normal in [Vector3.zero, Vector3(.nan, 0, 1), Vector3(0, .infinity, 1)] {
            XCTAssertThrowsError(try Plane(normal: normal, distance: 1, unit: .metre, in: .wide), "\(normal)") { error in
                guard case GeometryError.invalidPlane = error else { return XCTFail("\(error)") }
            }
        }
        for distance in [0.0, -1, .nan, -.infinity] {
            XCTAssertThrowsError(try Plane(normal: Vector3(0, 0, 1), distance: distance, unit: .metre, in: .wide), "\(distance)")
        }
        let p = try Plane(normal: Vector3(0, 3, 3 * 3.0.squareRoot()), distance: 2, unit: .metre, in: .wide)
        XCTAssertClose(p.normal.norm, 1, absolute: 1e-15)
        XCTAssertClose(p.normal, Vector3(0, 0.5, 3.0.squareRoot() / 2), absolute: 1e-15)
        XCTAssertClose(p.tiltDegrees, 30, absolute: 1e-12)
        XCTAssertNoThrow(try Plane(normal: Vector3(1, 0, 0), distance: .infinity, unit: .metre, in: .wide))
        XCTAssertClose(try Plane(normal: Vector3(1, 0, 1), distance: 1, unit: .metre, in: .wide).tiltDegrees, 45, absolute: 1e-12)
    }
}
