import DualcamCalibrationFiles
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class MiddleburyAndROSTests: XCTestCase {
    static let adirondack = PublicFixtures.middleburyAdirondackCalib

    func write(_ text: String, _ name: String, in dir: TemporaryDirectory) throws -> URL {
        let url = dir.path(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testAdirondack() throws {
        let dir = try TemporaryDirectory()
        let url = try write(Self.adirondack, "calib.txt", in: dir)
        XCTAssertEqual(try CalibrationImport.detect(url), .middlebury)
        let file = try CalibrationImport.read(url)
        let rig = file.rig
        let k0 = try rig.camera(.wide).model.intrinsics, k1 = try rig.camera(.tele).model.intrinsics
        XCTAssertEqual(k0.fx, 4161.221)
        XCTAssertEqual(k0.cx, 1445.577)
        XCTAssertEqual(k1.cx, 1654.636)
        XCTAssertEqual(k0.referenceSize, PixelSize(width: 2880, height: 1988))
        let teleFromWide = try rig.transform(from: .wide, to: .tele)
        XCTAssertEqual(teleFromWide.unit, .millimetre)
        XCTAssertEqual(teleFromWide.translation, Vector3(-176.252, 0, 0))
        XCTAssertEqual(teleFromWide.rotation, .identity)
        let summary = RigSummary(file)
        XCTAssertEqual(summary.pairs[0].baselineMillimetres, 176.252)
        XCTAssertEqual(summary.pairs[0].focalRatio, 1)
        // doffs is the principal-point difference cx1 - cx0, and is kept.
        let doffs = try XCTUnwrap(file.extra["doffs"]?.number)
        XCTAssertClose(k1.cx - k0.cx, doffs, absolute: 1e-9)
        XCTAssertEqual(file.extra["ndisp"], .scalar("280"))
        XCTAssertEqual(file.provenance.source, .imported)
        // A point at depth Z in cam0 lands in cam1 with disparity f B / Z - ... consistent with doffs:
        let z = 2000.0, x0 = Vector3(100, 50, z)
        let u0 = k0.pixel(fromNormalized: Vector2(x0.x / z, x0.y / z)).x
        let x1 = teleFromWide.apply(x0)
        let u1 = k1.pixel(fromNormalized: Vector2(x1.x / z, x1.y / z)).x
        XCTAssertClose(u0 - u1, 4161.221 * 176.252 / z - doffs, relative: 1e-12)
        // And it survives dualcam YAML exactly, Middlebury extras included.
        XCTAssertEqual(try CalibrationFile(yaml: try file.yamlString(), path: "x"), file)
    }

    func testMiddleburyNamesAndErrors() throws {
        let dir = try TemporaryDirectory()
        let url = try write(Self.adirondack, "calib.txt", in: dir)
        let crlf = try write(Self.adirondack.replacingOccurrences(of: "\n", with: "\r\n"), "crlf.txt", in: dir)
        XCTAssertEqual(try CalibrationImport.read(crlf).rig, try CalibrationImport.read(url).rig)
        let named = try CalibrationImport.read(url, options: .init(firstCamera: "left", secondCamera: "right"))
        XCTAssertEqual(named.rig.cameraNames, ["left", "right"])

        let badDoffs = try write(Self.adirondack.replacingOccurrences(of: "doffs=209.059", with: "doffs=200"), "a.txt", in: dir)
        assertOneLineError(badDoffs.path, ["line 3", "doffs", "cx1 - cx0"]) { _ = try CalibrationImport.read(badDoffs) }
        let noBaseline = try write(Self.adirondack.replacingOccurrences(of: "baseline=176.252\n", with: ""), "b.txt", in: dir)
        assertOneLineError(noBaseline.path, ["missing 'baseline='"]) { _ = try CalibrationImport.read(noBaseline) }
        let badMatrix = try write(Self.adirondack.replacingOccurrences(of: "0 4161.221 984.686; 0 0 1]\ncam1", with: "0 4161.221 984.686]\ncam1"), "c.txt", in: dir)
        assertOneLineError(badMatrix.path, ["line 1", "cam0", "3x3"]) { _ = try CalibrationImport.read(badMatrix) }
        let nan = try write(Self.adirondack.replacingOccurrences(of: "baseline=176.252", with: "baseline=nan"), "d.txt", in: dir)
        assertOneLineError(nan.path, ["baseline", "finite"]) { _ = try CalibrationImport.read(nan) }
        let noSize = try write(Self.adirondack.replacingOccurrences(of: "width=2880\nheight=1988\n", with: ""), "e.txt", in: dir)
        assertOneLineError(noSize.path, ["width"]) { _ = try CalibrationImport.read(noSize) }
        XCTAssertEqual(try CalibrationImport.read(noSize, options: .init(imageSize: PixelSize(width: 720, height: 497)))
            .rig.camera(.wide).size, PixelSize(width: 720, height: 497))
    }

    static let cameraInfo = """
    image_width: 640
    image_height: 480
    camera_name: narrow_stereo
    camera_matrix:
      rows: 3
      cols: 3
      data: [430.15433, 0., 306.29967, 0., 430.3389, 227.05273, 0., 0., 1.]
    distortion_model: plumb_bob
    distortion_coefficients:
      rows: 1
      cols: 5
      data: [-0.337867, 0.096319, 0.000601, 0.000545, 0.000000]
    rectification_matrix:
      rows: 3
      cols: 3
      data: [1., 0., 0., 0., 1., 0., 0., 0., 1.]
    projection_matrix:
      rows: 3
      cols: 4
      data: [338.19, 0., 306.5, 0., 0., 388.1, 226.8, 0., 0., 0., 1., 0.]

    """

    func testROSCameraInfo() throws {
        let dir = try TemporaryDirectory()
        let url = try write(Self.cameraInfo, "narrow_stereo.yaml", in: dir)
        XCTAssertEqual(try CalibrationImport.detect(url), .rosCameraInfo)
        let file = try CalibrationImport.read(url)
        let camera = try file.rig.camera(.wide)
        XCTAssertEqual(camera.size, PixelSize(width: 640, height: 480))
        XCTAssertEqual(camera.model.intrinsics.matrix.rowMajor, [430.15433, 0, 306.29967, 0, 430.3389, 227.05273, 0, 0, 1])
        XCTAssertEqual(camera.model.distortion,
                       .brownConrady(try BrownConrady(k1: -0.337867, k2: 0.096319, p1: 0.000601, p2: 0.000545, k3: 0)))
        XCTAssertTrue(file.provenance.notes?.contains("narrow_stereo") ?? false)

        let rational = try write(Self.cameraInfo.replacingOccurrences(of: "plumb_bob", with: "rational_polynomial")
            .replacingOccurrences(of: "cols: 5\n  data: [-0.337867, 0.096319, 0.000601, 0.000545, 0.000000]",
                                  with: "cols: 8\n  data: [-0.3, 0.09, 0.0006, 0.0005, 0.01, 0.1, 0.2, 0.3]"), "r.yaml", in: dir)
        XCTAssertEqual(try CalibrationImport.read(rational).rig.camera(.wide).model.distortion,
                       .brownConrady(try BrownConrady(coefficients: [-0.3, 0.09, 0.0006, 0.0005, 0.01, 0.1, 0.2, 0.3])))

        let fisheye = try write(Self.cameraInfo.replacingOccurrences(of: "plumb_bob", with: "equidistant"), "f.yaml", in: dir)
        assertOneLineError(fisheye.path, ["distortion_model", "equidistant"]) { _ = try CalibrationImport.read(fisheye) }
        let short = try write(Self.cameraInfo.replacingOccurrences(of: "0.000545, 0.000000]", with: "]"), "s.yaml", in: dir)
        assertOneLineError(short.path, ["distortion_coefficients"]) { _ = try CalibrationImport.read(short) }
        let badK = try write(Self.cameraInfo.replacingOccurrences(of: "227.05273, 0., 0., 1.]", with: "227.05273, 0., 0.]"), "k.yaml", in: dir)
        assertOneLineError(badK.path, ["camera_matrix"]) { _ = try CalibrationImport.read(badK) }
        let nan = try write(Self.cameraInfo.replacingOccurrences(of: "430.3389", with: ".nan"), "n.yaml", in: dir)
        assertOneLineError(nan.path, ["camera_matrix.data[4]", "finite"]) { _ = try CalibrationImport.read(nan) }
    }
}
