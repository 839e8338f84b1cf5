import DualcamCalibrationFiles
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class CalibrationYAMLTests: XCTestCase {
    func testRandomFilesRoundTripExactly() throws {
        for seed in UInt64(1)...300 {
            var g = SeededGenerator(seed: seed)
            let file = try Fixtures.randomFile(&g)
            let text = try file.yamlString()
            let back = try CalibrationFile(yaml: text, path: "seed-\(seed).yaml")
            XCTAssertEqual(back, file, "seed \(seed)")
            XCTAssertEqual(back.rig, file.rig, "seed \(seed)")
            XCTAssertEqual(try back.yamlString(), text, "seed \(seed)")
        }
    }

    func testRoundTripThroughFileIsExactAndAtomic() throws {
        let dir = try TemporaryDirectory()
        var g = SeededGenerator(seed: 42)
        let file = try Fixtures.randomFile(&g, cameraCount: 3)
        let url = dir.path("rig.yaml")
        try file.write(to: url, comment: "written by a test\nsecond line")
        XCTAssertEqual(try dir.fileNames(), ["rig.yaml"])
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# written by a test\n# second line\ndualcam_calibration: 1\n"))
        XCTAssertEqual(try CalibrationFile.read(url), file)
    }

    func testNumbersAreWrittenAsYAMLFloats() throws {
        var rig = try NominalDevice.load().rig
        let k = try Intrinsics(fx: 1e-05 + 1, fy: 1e+16, skew: Double.leastNonzeroMagnitude, cx: -0.0, cy: 1e-05, referenceSize: PixelSize(width: 4, height: 3))
        try rig.setCamera(RigCamera(name: "wide", model: CameraModel(intrinsics: k)))
        let file = CalibrationFile(rig: rig, provenance: Provenance(source: .nominal))
        let text = try file.yamlString()
        XCTAssertTrue(text.contains("fy: 1.0e+16"), text)
        XCTAssertTrue(text.contains("skew: 5.0e-324"), text)
        XCTAssertTrue(text.contains("cy: 1.0e-05"), text)
        XCTAssertEqual(try CalibrationFile(yaml: text, path: "x").rig, rig)
    }

    func testStringsThatLookLikeOtherTypesAreQuoted() throws {
        let rig = try NominalDevice.load().rig
        let extra = [FreeFormEntry("count", .scalar("12")), FreeFormEntry("version", .string("12")),
                     FreeFormEntry("flag", .string("true")), FreeFormEntry("nested", .mapping([
                         FreeFormEntry("list", .list([.number(0.1), .string("null"), .string("a: b # c")])),
                     ]))]
        let file = CalibrationFile(rig: rig, provenance: Provenance(source: .calibrated, tool: "1.5", date: "2024-05-01",
                                                                    notes: "yes", originalFile: "~"),
                                   extra: extra)
        let text = try file.yamlString()
        XCTAssertTrue(text.contains("tool: \"1.5\""), text)
        XCTAssertTrue(text.contains("count: 12\n"), text)
        XCTAssertTrue(text.contains("version: \"12\""), text)
        XCTAssertEqual(try CalibrationFile(yaml: text, path: "x"), file)
    }

    func testKindsDefaultToCamera() throws {
        let rig = try NominalDevice.load().rig
        let file = CalibrationFile(rig: rig, provenance: Provenance(source: .nominal))
        XCTAssertEqual(file.kind(of: "tele"), .camera)
        let explicit = CalibrationFile(rig: rig, provenance: Provenance(source: .nominal), kinds: ["tele": .camera])
        XCTAssertEqual(file, explicit)
        XCTAssertEqual(try CalibrationFile(yaml: try file.yamlString(), path: "x"), file)
    }

    func testCameraNamesWithUnderscoresAndOtherUnits() throws {
        let yaml = """
        dualcam_calibration: 1
        reference: main_wide
        cameras:
        - {name: main_wide, image_size: {width: 640, height: 480}, intrinsics: {fx: 500, fy: 500, cx: 320, cy: 240}}
        - name: from_x
          kind: lidar
          image_size: {width: 320, height: 240}
          intrinsics: {fx: 250, fy: 250, cx: 160, cy: 120}
          distortion: {model: brown_conrady, k1: 0.1, k2: 0, p1: 0, p2: 0}
        extrinsics:
          from_x_from_main_wide: {rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0.5, 0, 0], unit: in}
        provenance: {source: calibrated, rms: {cameras: {main_wide: 0.25}, stereo: 0.5}}
        """
        let file = try CalibrationFile(yaml: yaml, path: "u.yaml")
        XCTAssertEqual(file.rig.reference, "main_wide")
        XCTAssertEqual(file.kind(of: "from_x"), .lidar)
        let t = try file.rig.transform(from: "main_wide", to: "from_x")
        XCTAssertClose(t.translation.x, 12.7, relative: 1e-12)
        XCTAssertEqual(file.rig.extrinsics["from_x"]?.unit, .inch)
        XCTAssertEqual(file.provenance.rms?.cameras["main_wide"], 0.25)
        let named = try CalibrationFile(yaml: yaml.replacingOccurrences(of: "unit: in", with: "unit: inches"), path: "n.yaml")
        XCTAssertEqual(named.rig, file.rig, "unit names are accepted as well as symbols")
        XCTAssertEqual(try CalibrationFile(yaml: try file.yamlString(), path: "x"), file)
    }
}
