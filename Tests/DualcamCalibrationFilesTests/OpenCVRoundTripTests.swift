import DualcamCalibrationFiles
import DualcamOpenCV
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

/// dualcam YAML <-> memory <-> OpenCV FileStorage, exact in both directions.
final class OpenCVRoundTripTests: XCTestCase {
    func testDualcamToOpenCVToDualcamIsExact() throws {
        let dir = try TemporaryDirectory()
        for seed in UInt64(1)...60 {
            var g = SeededGenerator(seed: seed)
            let original = try Fixtures.randomFile(&g, allowLUT: false)
            let yamlURL = dir.path("rig-\(seed).yaml"), cvURL = dir.path("rig-\(seed).yml")
            try original.write(to: yamlURL)
            let loaded = try CalibrationImport.read(yamlURL)
            try OpenCVCalibrationExport.write(loaded, to: cvURL)
            XCTAssertEqual(try CalibrationImport.detect(cvURL), .dualcamOpenCV)
            let back = try CalibrationImport.read(cvURL)
            XCTAssertEqual(back.rig, original.rig, "seed \(seed)")
            XCTAssertEqual(back, original, "seed \(seed)")
            XCTAssertEqual(try back.yamlString(), try String(contentsOf: yamlURL, encoding: .utf8), "seed \(seed)")
        }
    }

    func testOpenCVToDualcamToOpenCVIsExact() throws {
        let dir = try TemporaryDirectory()
        for seed in UInt64(100)...140 {
            var g = SeededGenerator(seed: seed)
            let file = try Fixtures.randomFile(&g, allowLUT: false)
            let first = dir.path("first-\(seed).yml"), yaml = dir.path("mid-\(seed).yaml"), second = dir.path("second-\(seed).yml")
            try OpenCVCalibrationExport.write(file, to: first)
            let fromCV = try CalibrationImport.read(first)
            try fromCV.write(to: yaml)
            try OpenCVCalibrationExport.write(try CalibrationImport.read(yaml), to: second)
            XCTAssertEqual(try String(contentsOf: second, encoding: .utf8), try String(contentsOf: first, encoding: .utf8), "seed \(seed)")
            XCTAssertEqual(try CalibrationImport.read(second), fromCV, "seed \(seed)")
        }
    }

    func testExtremeValuesSurviveOpenCV() throws {
        let size = PixelSize(width: 7, height: 5)
        let k = try Intrinsics(fx: 1.7976931348623157e308, fy: Double.leastNonzeroMagnitude, skew: -2.2250738585072014e-308,
                               cx: 2147483648.0, cy: -2147483649.0, referenceSize: size)
        let b = try BrownConrady(k1: 4294967296.0, k2: 0.1, p1: 1e-300, p2: -1e300, k3: 123456789012345680000.0)
        let t = try RigidTransform(rotation: Rotation(axis: Vector3(1, 2, 3), angle: 1e-9),
                                   translation: Vector3(3e9, 0.30000000000000004, -Double.leastNonzeroMagnitude * 2024), unit: .foot, from: "a", to: "b")
        let rig = try Rig(reference: "a", cameras: [RigCamera(name: "a", model: CameraModel(intrinsics: k, distortion: .brownConrady(b))),
                                                    RigCamera(name: "b", model: CameraModel(intrinsics: k))], extrinsics: [t])
        let file = CalibrationFile(rig: rig, provenance: Provenance(source: .calibrated))
        let dir = try TemporaryDirectory()
        for name in ["x.yml", "x.xml"] {
            try OpenCVCalibrationExport.write(file, to: dir.path(name))
            XCTAssertEqual(try CalibrationImport.read(dir.path(name)), file, name)
        }
        XCTAssertEqual(try CalibrationFile(yaml: try file.yamlString(), path: "x"), file)
    }

    func testXMLExportRoundTrips() throws {
        let dir = try TemporaryDirectory()
        var g = SeededGenerator(seed: 7)
        let file = try Fixtures.randomFile(&g, allowLUT: false, cameraCount: 3)
        let url = dir.path("rig.xml")
        try OpenCVCalibrationExport.write(file, to: url)
        XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).contains("<opencv_storage>"))
        XCTAssertEqual(try CalibrationImport.read(url), file)
    }

    func testExportIsReadableAsStereoCalibOutput() throws {
        let nominal = try NominalDevice.load()
        let text = try OpenCVCalibrationExport.yamlString(nominal)
        let fs = try CVFileStorage(text: text)
        let m1 = try fs.readMatrix("M1"), t = try fs.readMatrix("T"), r = try fs.readMatrix("R")
        XCTAssertEqual(m1.values, try nominal.rig.camera("wide").model.intrinsics.matrix.rowMajor)
        let teleFromWide = try nominal.rig.transform(from: .wide, to: .tele)
        XCTAssertEqual(r.values, teleFromWide.rotation.matrix.rowMajor)
        XCTAssertEqual(t.values, [teleFromWide.translation.x, teleFromWide.translation.y, teleFromWide.translation.z])
        XCTAssertEqual(try fs.readString("T_unit"), "mm")
        XCTAssertEqual(try fs.readString("name2"), "tele")
        XCTAssertFalse(try fs.hasKey("D2"), "no distortion model means no D2")
        XCTAssertEqual(try fs.readInt("width1"), 4032)
    }

    func testLookupTableDistortionIsRefused() throws {
        var rig = try NominalDevice.load().rig
        var wide = try rig.camera(.wide)
        wide.model.distortion = .radialLookupTable(try RadialLookupTable(center: Vector2(2016, 1512), referenceSize: wide.size,
                                                                        magnification: [0, 0.01, 0.02]))
        try rig.setCamera(wide)
        let dir = try TemporaryDirectory()
        let url = dir.path("lut.yml")
        assertOneLineError(url.path, ["wide", "lookup-table"]) {
            try OpenCVCalibrationExport.write(CalibrationFile(rig: rig, provenance: Provenance(source: .nominal)), to: url)
        }
        XCTAssertEqual(try dir.fileNames(), [], "a refused export leaves no file behind")
    }
}
