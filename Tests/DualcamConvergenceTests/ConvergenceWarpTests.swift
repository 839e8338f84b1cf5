import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import ImagingTestSupport
import XCTest

/// Acceptance: on `plane` scenes seen by the nominal rig (wide WITH lens
/// distortion), converging at the true distance registers the wide with the
/// tele within 0.1 px RMS; converging elsewhere leaves the parallax the
/// homographies predict.
final class ConvergenceWarpTests: XCTestCase {
    func testTrueDistanceRegistersAndOtherDistancesShowPredictedParallax() throws {
        let rig = try Fixtures.nominalRig()
        let warp = try ConvergenceWarp(rig: rig)
        // (true distance, a wrong convergence distance): nearer and farther.
        for (truth, chosen) in [(0.3, 0.6), (1.2, 0.6), (5.0, 1.2)] {
            let scene = try Fixtures.plane(truth)
            let pair = try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: try Distance(metres: truth))
            XCTAssertEqual(pair.canvasSize, Fixtures.size)
            XCTAssertTrue(pair.movingFullyValid, "the wide covers the tele view at \(truth) m")
            let result = try Registration.measure(pair.wide, pair.tele)
            XCTAssertGreaterThan(result.tiles.count, 12)
            XCTAssertLessThanOrEqual(result.rms, 0.1, "misregistration at \(truth) m")
            print(String(format: "converge at true %.1f m: RMS %.4f px over %d tiles", truth, result.rms, result.tiles.count))

            // At another distance the wide content moves by M_chosen(M_true^-1 p) - p.
            let wrong = try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: try Distance(metres: chosen))
            let hTrue = pair.canvasFromMoving, hChosen = wrong.canvasFromMoving
            func predicted(_ p: Vector2) -> Vector2 { hChosen.applyHomography(hTrue.inverse!.applyHomography(p)) - p }
            let measured = try Registration.measure(wrong.wide, wrong.tele)
            XCTAssertGreaterThan(measured.tiles.count, 12)
            var sum2 = 0.0, worst = 0.0
            for tile in measured.tiles {
                // The tele sits at minus the wide content's offset relative to the warped wide.
                let e = predicted(Vector2(tile.centre.x, tile.centre.y))
                let r = Vector2(tile.dx + e.x, tile.dy + e.y).norm
                sum2 += r * r
                worst = max(worst, r)
            }
            let residual = (sum2 / Double(measured.tiles.count)).squareRoot()
            XCTAssertLessThanOrEqual(residual, 0.1, "parallax residual converging at \(chosen) m on a plane at \(truth) m")

            // The homography offset is the textbook f_tele * B * (1/d_true - 1/d_chosen) along the baseline.
            let centre = Vector2(319.5, 239.5)
            let tele = try rig.camera(.tele).model.intrinsics
            let baseline = try rig.transform(from: .wide, to: .tele, unit: .metre).baseline
            let textbook = tele.fx * baseline * abs(1 / truth - 1 / chosen)
            XCTAssertClose(predicted(centre).norm, textbook, relative: 0.02)
            print(String(format: "converge at %.1f m on a plane at %.1f m: predicted %.3f px (textbook %.3f), "
                    + "measured mean (%.3f, %.3f), residual RMS %.4f px, worst %.4f px",
                         chosen, truth, predicted(centre).norm, textbook, -measured.mean.dx, -measured.mean.dy, residual, worst))
        }
    }

    /// Canvas `.wide`: the tele warped into the (undistorted) wide view lands
    /// on the wide's own content over the overlap, and the overlap is where
    /// the tele's corners project.
    func testWideCanvasRegistersTeleOnTheOverlap() throws {
        let rig = try Fixtures.nominalRig()
        let warp = try ConvergenceWarp(rig: rig, canvas: .wide)
        let scene = try Fixtures.plane(1.2)
        let distance = try Distance(metres: 1.2)
        let pair = try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: distance)
        XCTAssertEqual(pair.canvas, .wide)
        XCTAssertEqual(pair.canvasSize, Fixtures.size)
        XCTAssertFalse(pair.movingFullyValid)

        // The mask's bounding box is the tele frame mapped by H_wide<-tele.
        let mask = pair.movingValid
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min, count = 0
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask[x: x, y: y, channel: 0] != 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); count += 1
            }
        }
        let corners = [Vector2(0, 0), Vector2(639, 0), Vector2(0, 479), Vector2(639, 479)].map {
            pair.canvasFromMoving.applyHomography($0)
        }
        XCTAssertClose(Double(minX), corners.map(\.x).min()!, absolute: 1.5)
        XCTAssertClose(Double(maxX), corners.map(\.x).max()!, absolute: 1.5)
        XCTAssertClose(Double(minY), corners.map(\.y).min()!, absolute: 1.5)
        XCTAssertClose(Double(maxY), corners.map(\.y).max()!, absolute: 1.5)
        XCTAssertClose(Double(count) / Double(640 * 480), 0.25, absolute: 0.02, "the tele sees a quarter of the wide view")

        let result = try Registration.measure(pair.wide, pair.tele, tile: 64, margin: 8)
        XCTAssertGreaterThanOrEqual(result.tiles.count, 6)
        XCTAssertLessThanOrEqual(result.rms, 0.1, "tele on the wide canvas")
        print(String(format: "wide canvas at 1.2 m: RMS %.4f px over %d tiles", result.rms, result.tiles.count))
        // Ignoring the wide's distortion (no undistortion of the canvas) visibly misregisters.
        let naive = try Registration.measure(scene.wide.image, pair.tele, tile: 64, margin: 8)
        XCTAssertGreaterThan(naive.rms, result.rms + 0.1)
    }

    /// Buffers of another size than the calibration use scaled intrinsics;
    /// another aspect ratio is an error naming the camera and the size.
    func testIntrinsicsAreScaledToTheBuffersAndAspectMismatchNamesTheCamera() throws {
        let rig = try NominalDevice.load().rig
        let warp = try ConvergenceWarp(rig: rig)
        let g = try warp.geometry(wideSize: PixelSize(width: 1008, height: 756), teleSize: PixelSize(width: 2016, height: 1512))
        XCTAssertEqual(g.canvasSize, PixelSize(width: 2016, height: 1512))
        let plane = Plane.frontoParallel(distance: try Distance(metres: 0.8), in: .wide)
        let expected = try rig.homography(from: .wide, to: .tele, plane: plane, sourceSize: g.wideSize, targetSize: g.teleSize)
        XCTAssertLessThan(try g.teleFromWide(at: try Distance(metres: 0.8)).maxAbsDifference(expected), 1e-9)
        XCTAssertLessThan(try g.teleFromWide(at: .infinity).maxAbsDifference(
            try rig.homography(from: .wide, to: .tele, plane: try Plane(normal: Vector3(0, 0, 1), distance: .infinity,
                                                                        unit: .metre, in: .wide),
                               sourceSize: g.wideSize, targetSize: g.teleSize)), 1e-9)

        for (wide, tele, camera, size) in [(PixelSize(width: 640, height: 360), PixelSize(width: 640, height: 480), "wide", "640x360"),
                                           (PixelSize(width: 640, height: 480), PixelSize(width: 1920, height: 1080), "tele", "1920x1080")] {
            XCTAssertThrowsError(try warp.geometry(wideSize: wide, teleSize: tele)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("\(camera) image \(size): "), text)
                XCTAssertTrue(text.contains("aspect ratio"), text)
                XCTAssertFalse(text.contains("\n"), text)
            }
        }
        // Per-frame intrinsics replace the calibration's.
        var k = try rig.camera(.tele).model.intrinsics
        k.fx *= 1.1; k.fy *= 1.1
        let perFrame = try warp.geometry(wideSize: rig.camera(.wide).size, teleSize: rig.camera(.tele).size, teleIntrinsics: k)
        XCTAssertEqual(perFrame.tele.intrinsics, k)
    }

    /// A rig without a tele camera, or images that do not match the tables,
    /// are one-line errors.
    func testBadRigsAndImagesAreOneLineErrors() throws {
        let full = try Fixtures.nominalRig()
        let wideOnly = try Rig(reference: .wide, cameras: [try full.camera(.wide)], extrinsics: [])
        XCTAssertThrowsError(try ConvergenceWarp(rig: wideOnly)) { error in
            XCTAssertEqual("\(error)", "the calibration has no 'tele' camera (it has wide)")
        }
        let warp = try ConvergenceWarp(rig: full)
        let g = try warp.geometry(wideSize: Fixtures.size, teleSize: Fixtures.size)
        let maps = try warp.maps(g, distance: try Distance(metres: 1))
        let small = try Image(width: 320, height: 240, channels: 3, element: .uint8)
        let image = try Image(width: 640, height: 480, channels: 3, element: .uint8)
        XCTAssertThrowsError(try warp.register(wide: image, tele: small, maps: maps)) { error in
            XCTAssertEqual("\(error)", "tele image is 320x240 but the convergence tables were built for 640x480")
        }
    }

    /// Tables are cached per distance and sizes; the tele canvas leaves the
    /// (distortion-free) tele untouched; the wide canvas undistorts the wide.
    func testTablesAreCachedAndTheFixedRemapIsSkippedWhenIdentity() throws {
        let rig = try Fixtures.nominalRig()
        let warp = try ConvergenceWarp(rig: rig, cacheCapacity: 2)
        let g = try warp.geometry(wideSize: Fixtures.size, teleSize: Fixtures.size)
        let a = try warp.maps(g, distance: try Distance(metres: 1))
        _ = try warp.maps(g, distance: try Distance(metres: 1))
        XCTAssertEqual(warp.cachedCount, 1)
        XCTAssertEqual(a.moving.mapX, try warp.maps(g, distance: try Distance(metres: 1)).moving.mapX)
        _ = try warp.maps(g, distance: try Distance(metres: 2))
        _ = try warp.maps(g, distance: .infinity)
        XCTAssertEqual(warp.cachedCount, 2, "capacity bounds the cache")
        XCTAssertNil(a.fixed, "the nominal tele has no distortion: no remap")

        let scene = try Fixtures.plane(1.2)
        let pair = try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: try Distance(metres: 1))
        XCTAssertEqual(pair.tele, scene.tele.image)

        let wideCanvas = try ConvergenceWarp(rig: rig, canvas: .wide)
        let w = try wideCanvas.maps(try wideCanvas.geometry(wideSize: Fixtures.size, teleSize: Fixtures.size),
                                    distance: try Distance(metres: 1))
        let fixed = try XCTUnwrap(w.fixed, "the nominal wide has distortion: it is undistorted")
        XCTAssertTrue(fixed.isFullyValid, "barrel distortion: the undistorted wide is covered")
        // The undistortion table maps canvas pixel p to distort(p).
        let model = try rig.camera(.wide).model
        for p in [Vector2(0, 0), Vector2(100, 400), Vector2(639, 479)] {
            let s = try model.distortion.distortPixel(p, intrinsics: model.intrinsics)
            XCTAssertClose(fixed.mapX[x: Int(p.x), y: Int(p.y), channel: 0], s.x, absolute: 1e-3)
            XCTAssertClose(fixed.mapY[x: Int(p.x), y: Int(p.y), channel: 0], s.y, absolute: 1e-3)
        }
    }
}
