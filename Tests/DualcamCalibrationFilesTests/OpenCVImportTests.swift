import DualcamCalibrationFiles
import DualcamOpenCV
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

/// Files as OpenCV's calibration samples write them, produced here with
/// cv::FileStorage itself (through CVFileStorage) using the samples' keys.
final class OpenCVImportTests: XCTestCase {
    static let examples = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")

    let m1 = [534.80326845051309, 0, 335.68643204394891, 0, 534.80326845051309, 240.66183054066337, 0, 0, 1]
    let d1 = [0.29589439552724328, -1.0354662043042675, 0, 0, 0]
    let m2 = [1069.6065369010262, 0.25, 334.55744527912015, 0, 1069.1, 242.05324573376600, 0, 0, 1]
    let d2 = [-0.16916358306948096, -0.11214173641213163, 0.001, -0.002, 0.01, 0.5, -0.25, 0.125]
    let r = Rotation(axis: Vector3(0.1, 1, 0.05), angle: 0.01).matrix.rowMajor
    let t = [-3.3305553045941124, 0.048037387461719836, -0.0113]

    /// intrinsics.yml / extrinsics.yml exactly as stereo_calib.cpp writes them
    /// (fs << "M1" << M1 << "D1" << D1 << ...; then R T R1 R2 P1 P2 Q).
    func writeStereoCalib(in dir: TemporaryDirectory, ext: String = "yml") throws -> (URL, URL) {
        let intrinsics = dir.path("intrinsics.\(ext)"), extrinsics = dir.path("extrinsics.\(ext)")
        let fs = try CVFileStorage(path: intrinsics.path, mode: .write)
        try fs.write("M1", rows: 3, cols: 3, values: m1)
        try fs.write("D1", rows: 1, cols: 5, values: d1)
        try fs.write("M2", rows: 3, cols: 3, values: m2)
        try fs.write("D2", rows: 1, cols: 8, values: d2)
        try fs.release()
        let ex = try CVFileStorage(path: extrinsics.path, mode: .write)
        try ex.write("R", rows: 3, cols: 3, values: r)
        try ex.write("T", rows: 3, cols: 1, values: t)
        for key in ["R1", "R2"] { try ex.write(key, rows: 3, cols: 3, values: Matrix3.identity.rowMajor) }
        for key in ["P1", "P2"] { try ex.write(key, rows: 3, cols: 4, values: [Double](repeating: 0.5, count: 12)) }
        try ex.write("Q", rows: 4, cols: 4, values: [Double](repeating: 0.25, count: 16))
        try ex.release()
        return (intrinsics, extrinsics)
    }

    func testStereoCalibImport() throws {
        let dir = try TemporaryDirectory()
        let (intrinsics, extrinsics) = try writeStereoCalib(in: dir)
        XCTAssertTrue(try String(contentsOf: intrinsics, encoding: .utf8).hasPrefix("%YAML:1.0"))
        XCTAssertEqual(try CalibrationImport.detect(intrinsics), .openCVStereo)
        let options = CalibrationImport.Options(imageSize: PixelSize(width: 640, height: 480))
        for entry in [intrinsics, extrinsics] {
            let file = try CalibrationImport.read(entry, options: options)
            let rig = file.rig
            XCTAssertEqual(rig.reference, .wide)
            XCTAssertEqual(try rig.camera(.wide).model.intrinsics.matrix.rowMajor, m1)
            XCTAssertEqual(try rig.camera(.tele).model.intrinsics.matrix.rowMajor, m2)
            XCTAssertEqual(try rig.camera(.tele).size, PixelSize(width: 640, height: 480))
            XCTAssertEqual(try rig.camera(.wide).model.distortion, .brownConrady(try BrownConrady(coefficients: d1)))
            XCTAssertEqual(try rig.camera(.tele).model.distortion, .brownConrady(try BrownConrady(coefficients: d2)))
            let teleFromWide = try rig.transform(from: .wide, to: .tele)
            XCTAssertEqual(teleFromWide.rotation.matrix.rowMajor, r)
            XCTAssertEqual([teleFromWide.translation.x, teleFromWide.translation.y, teleFromWide.translation.z], t)
            XCTAssertEqual(teleFromWide.unit, .millimetre)
            XCTAssertEqual(file.provenance.source, .imported)
            XCTAssertEqual(file.provenance.originalFile, intrinsics.path)
            XCTAssertClose(RigSummary(file).pairs[0].focalRatio, 2, relative: 1e-12)
        }
    }

    func testStereoCalibOptionsAndXML() throws {
        let dir = try TemporaryDirectory()
        let (intrinsics, _) = try writeStereoCalib(in: dir, ext: "xml")
        let options = CalibrationImport.Options(imageSize: PixelSize(width: 640, height: 480), patternUnit: .centimetre,
                                                firstCamera: "left", secondCamera: "right")
        let rig = try CalibrationImport.read(intrinsics, options: options).rig
        XCTAssertEqual(rig.cameraNames, ["left", "right"])
        XCTAssertEqual(try rig.transform(from: "left", to: "right", unit: .centimetre).translation.x, t[0])
        XCTAssertClose(try rig.transform(from: "left", to: "right", unit: .millimetre).translation.x, t[0] * 10, relative: 1e-15)
    }

    func testStereoCalibErrors() throws {
        let dir = try TemporaryDirectory()
        let (intrinsics, extrinsics) = try writeStereoCalib(in: dir)
        assertOneLineError(intrinsics.path, ["image size"]) { _ = try CalibrationImport.read(intrinsics) }
        try FileManager.default.removeItem(at: extrinsics)
        assertOneLineError(intrinsics.path, ["extrinsics"]) {
            _ = try CalibrationImport.read(intrinsics, options: .init(imageSize: PixelSize(width: 640, height: 480)))
        }
        // A non-orthonormal R names the extrinsics file and the key.
        let ex = try CVFileStorage(path: extrinsics.path, mode: .write)
        try ex.write("R", rows: 3, cols: 3, values: [1, 0.1, 0, 0, 1, 0, 0, 0, 1])
        try ex.write("T", rows: 3, cols: 1, values: t)
        try ex.release()
        assertOneLineError(extrinsics.path, ["R:", "not orthonormal"]) {
            _ = try CalibrationImport.read(intrinsics, options: .init(imageSize: PixelSize(width: 640, height: 480)))
        }
        let nan = try CVFileStorage(path: intrinsics.path, mode: .write)
        try nan.write("M1", rows: 3, cols: 3, values: [Double.nan, 0, 1, 0, 1, 1, 0, 0, 1])
        try nan.release()
        assertOneLineError(intrinsics.path, ["M1", "non-finite"]) {
            _ = try CalibrationImport.read(intrinsics, options: .init(imageSize: PixelSize(width: 640, height: 480)))
        }
    }

    func testSingleCameraCalibrationSample() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("out_camera_data.yml")
        let fs = try CVFileStorage(path: url.path, mode: .write)
        try fs.write("calibration_time", string: "Thu 01 Jan 2024 10:00:00 UTC")
        try fs.write("nframes", int: 13)
        try fs.write("image_width", int: 640)
        try fs.write("image_height", int: 480)
        try fs.write("square_size", real: 0.025)
        try fs.write("camera_matrix", rows: 3, cols: 3, values: m1)
        try fs.write("distortion_coefficients", rows: 5, cols: 1, values: d1)
        try fs.write("avg_reprojection_error", real: 0.39259098975581364)
        try fs.release()
        XCTAssertEqual(try CalibrationImport.detect(url), .openCVCamera)
        let file = try CalibrationImport.read(url)
        XCTAssertEqual(file.rig.cameraNames, [.wide])
        XCTAssertEqual(try file.rig.camera(.wide).size, PixelSize(width: 640, height: 480))
        XCTAssertEqual(try file.rig.camera(.wide).model.intrinsics.matrix.rowMajor, m1)
        XCTAssertEqual(file.provenance.rms?.cameras["wide"], 0.39259098975581364)
    }

    func testRealOpenCVSampleFiles() throws {
        let stereo = Self.examples.appendingPathComponent("intrinsics.yml")
        let single = Self.examples.appendingPathComponent("left_intrinsics.yml")
        guard FileManager.default.fileExists(atPath: stereo.path) else {
            throw XCTSkip("opencv-doc examples are not installed at \(Self.examples.path)")
        }
        // The shipped intrinsics.yml (M1 D1 M2 D2) has no extrinsics.yml next to it.
        XCTAssertEqual(try CalibrationImport.detect(stereo), .openCVStereo)
        assertOneLineError(stereo.path, ["extrinsics"]) {
            _ = try CalibrationImport.read(stereo, options: .init(imageSize: PixelSize(width: 640, height: 480)))
        }
        let dir = try TemporaryDirectory()
        let (_, extrinsics) = try writeStereoCalib(in: dir)
        let file = try CalibrationImport.read(stereo, options: .init(imageSize: PixelSize(width: 640, height: 480),
                                                                     companionFile: extrinsics))
        let wide = try file.rig.camera(.wide).model.intrinsics
        XCTAssertEqual(wide.fx, 5.3480326845051309e+02)
        XCTAssertEqual(wide.cx, 3.3568643204394891e+02)
        XCTAssertEqual(try file.rig.camera(.tele).model.intrinsics.cy, 2.4205324573376600e+02)
        XCTAssertEqual(try file.rig.camera(.wide).model.distortion,
                       .brownConrady(try BrownConrady(k1: 2.9589439552724328e-01, k2: -1.0354662043042675e+00)))

        if FileManager.default.fileExists(atPath: single.path) {
            XCTAssertEqual(try CalibrationImport.detect(single), .openCVCamera)
            let one = try CalibrationImport.read(single)
            XCTAssertEqual(try one.rig.camera(.wide).size, PixelSize(width: 640, height: 480))
            XCTAssertEqual(try one.rig.camera(.wide).model.intrinsics.fx, 5.3591573396163199e+02)
            XCTAssertEqual(one.provenance.rms?.cameras["wide"], 3.9259098975581364e-01)
        }
        let imageList = Self.examples.appendingPathComponent("stereo_calib.xml")
        if FileManager.default.fileExists(atPath: imageList.path) {
            assertOneLineError(imageList.path, ["none of the known keys"]) { _ = try CalibrationImport.read(imageList) }
        }
    }

    func testUnknownFormats() throws {
        let dir = try TemporaryDirectory()
        let text = dir.path("notes.txt"), yaml = dir.path("other.yaml"), opencv = dir.path("list.yml")
        try "hello world\n".write(to: text, atomically: true, encoding: .utf8)
        try "a: 1\nb: [2, 3]\n".write(to: yaml, atomically: true, encoding: .utf8)
        try "%YAML:1.0\n---\nimages:\n  - a.jpg\n".write(to: opencv, atomically: true, encoding: .utf8)
        assertOneLineError(text.path, ["unknown calibration format", "Middlebury"]) { _ = try CalibrationImport.read(text) }
        assertOneLineError(yaml.path, ["unknown calibration format"]) { _ = try CalibrationImport.read(yaml) }
        assertOneLineError(opencv.path, ["none of the known keys"]) { _ = try CalibrationImport.read(opencv) }
    }
}
