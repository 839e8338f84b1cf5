import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import ImagingTestSupport
import XCTest

/// Acceptance: a rendered textured plane at distance D, warped with the plane
/// homography for D, registers with the other view within 0.05 px RMS
/// (OpenCV phase correlation in tiles). This same check later guards `converge`.
final class PlaneRegistrationTests: XCTestCase {
    static let size = PixelSize(width: 640, height: 480)

    static func render(distance: Double, rig: Rig) throws -> (wide: RenderedView, tele: RenderedView) {
        var options = SceneLibrary.Options()
        options.planeDistance = distance
        let scene = SceneLibrary.plane(options)
        return (try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions()),
                try Renderer.render(scene, camera: .tele, of: rig, options: RenderOptions()))
    }

    /// The nominal rig at 640x480 without lens distortion.
    static func pinholeNominalRig() throws -> Rig {
        var rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: Self.size)
        for camera in rig.cameras {
            try rig.setCamera(RigCamera(name: camera.name, model: CameraModel(intrinsics: camera.model.intrinsics)))
        }
        return rig
    }

    func testWideWarpedByPlaneHomographyRegistersWithTele() throws {
        let rig = try Self.pinholeNominalRig()
        for distance in [0.3, 1.2, 5.0] {
            let (wide, tele) = try Self.render(distance: distance, rig: rig)
            let plane = Plane.frontoParallel(distance: try Distance(metres: distance), in: .wide)
            let h = try rig.homography(from: .wide, to: .tele, plane: plane)
            let warped = try ImageOps.warpPerspective(wide.image, homography: h.rowMajor, width: Self.size.width,
                                                      height: Self.size.height)
            let result = try Registration.measure(warped, tele.image)
            XCTAssertGreaterThan(result.tiles.count, 12, "tiles measured at \(distance) m")
            XCTAssertLessThanOrEqual(result.rms, 0.05, "misregistration RMS at \(distance) m: \(result.rms) px")
            print("plane registration at \(distance) m: RMS \(String(format: "%.4f", result.rms)) px over \(result.tiles.count) tiles")

            // Converging at the wrong distance leaves the parallax the geometry predicts:
            // the tele-pixel offset between the homographies for D and 2D at the image centre.
            let wrong = try rig.homography(from: .wide, to: .tele,
                                           plane: .frontoParallel(distance: try Distance(metres: 2 * distance), in: .wide))
            let misWarped = try ImageOps.warpPerspective(wide.image, homography: wrong.rowMajor,
                                                         width: Self.size.width, height: Self.size.height)
            let centre = Vector2(Double(Self.size.width - 1) / 2, Double(Self.size.height - 1) / 2)
            let expected = wrong.applyHomography(h.inverse!.applyHomography(centre)) - centre
            let measured = try Registration.measure(misWarped, tele.image).mean
            // Phase correlation reports how far `tele` sits from the mis-warped view: minus the offset.
            XCTAssertClose(measured.dx, -expected.x, absolute: 0.1, "parallax x at \(distance) m")
            XCTAssertClose(measured.dy, -expected.y, absolute: 0.1, "parallax y at \(distance) m")
        }
    }

    /// With the nominal wide's lens distortion, one remap that undistorts and
    /// warps (sample the wide sensor at distort(H^-1 p) for each tele pixel p)
    /// registers just as well.
    func testDistortedWideRegistersThroughOneRemap() throws {
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: Self.size)
        let (wide, tele) = try Self.render(distance: 1.2, rig: rig)
        let h = try rig.homography(from: .wide, to: .tele, plane: .frontoParallel(distance: try Distance(metres: 1.2), in: .wide))
        let inverse = h.inverse!
        let wideModel = try rig.camera(.wide).model
        var mapX = [Float](), mapY = [Float]()
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let ideal = inverse.applyHomography(Vector2(Double(x), Double(y)))
                let sensor = try wideModel.distortion.distortPixel(ideal, intrinsics: wideModel.intrinsics)
                mapX.append(Float(sensor.x))
                mapY.append(Float(sensor.y))
            }
        }
        let w = Self.size.width, hgt = Self.size.height
        let warped = try ImageOps.remap(wide.image, mapX: try Image(width: w, height: hgt, channels: 1, pixels: mapX),
                                        mapY: try Image(width: w, height: hgt, channels: 1, pixels: mapY))
        let result = try Registration.measure(warped, tele.image)
        XCTAssertLessThanOrEqual(result.rms, 0.05, "misregistration RMS with distortion: \(result.rms) px")
        print("plane registration through one undistort+warp remap at 1.2 m: RMS \(String(format: "%.4f", result.rms)) px")
        // Ignoring the distortion visibly misregisters (guards the test itself).
        let naive = try ImageOps.warpPerspective(wide.image, homography: h.rowMajor, width: w, height: hgt)
        XCTAssertGreaterThan(try Registration.measure(naive, tele.image).rms, 0.2)
    }
}
