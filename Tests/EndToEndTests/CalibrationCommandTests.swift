import DualcamOpenCV
import Foundation
import TestSupport
import XCTest

final class CalibrationCommandTests: XCTestCase {
    // MARK: show

    func testShowWithoutAFileDescribesTheNominalRig() throws {
        let result = try E2E.succeed(["calibration", "show"])
        let text = result.stdout
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(text.hasPrefix("calibration: nominal phone wide/tele rig (built in"), text)
        XCTAssertTrue(text.contains("source: nominal"), text)
        XCTAssertTrue(text.contains("camera wide: 4032x3024"), text)
        XCTAssertTrue(text.contains("camera tele: 4032x3024"), text)
        XCTAssertTrue(text.contains("fx 3000.00 fy 3000.00 cx 2011.50 cy 1518.25 px"), text)
        XCTAssertTrue(text.contains("tele from wide: baseline 10.000 mm"), text)
        XCTAssertTrue(text.contains("rotation 0.200 deg, focal ratio 2.000"), text)
    }

    func testShowJSONOfTheNominalFileReportsBaselineAndFocalRatio() throws {
        for arguments in [["calibration", "show", "--json"], ["calibration", "show", E2E.nominalPath, "--json"]] {
            let result = try E2E.succeed(arguments)
            let json = try E2E.jsonObject(result.stdout)
            XCTAssertEqual(json["reference"] as? String, "wide")
            let cameras = try XCTUnwrap(json["cameras"] as? [[String: Any]])
            XCTAssertEqual(cameras.map { $0["name"] as? String }, ["wide", "tele"])
            XCTAssertEqual(E2E.double(cameras[0]["fx"]), 3000)
            XCTAssertEqual(E2E.double(cameras[1]["fx"]), 6000)
            XCTAssertEqual(cameras[0]["width"] as? Int, 4032)
            XCTAssertEqual(cameras[0]["height"] as? Int, 3024)
            let pairs = try XCTUnwrap(json["pairs"] as? [[String: Any]])
            XCTAssertEqual(pairs.count, 1)
            XCTAssertEqual(pairs[0]["camera"] as? String, "tele")
            XCTAssertClose(E2E.double(pairs[0]["baseline_millimetres"]), 10, absolute: 0.01)
            XCTAssertClose(E2E.double(pairs[0]["baseline_millimetres"]), (100.0 + 0.01).squareRoot(), relative: 1e-12)
            XCTAssertClose(E2E.double(pairs[0]["focal_ratio"]), 2, relative: 1e-12)
            XCTAssertClose(E2E.double(pairs[0]["rotation_degrees"]), 0.2, relative: 1e-9)
            XCTAssertClose(E2E.doubles(pairs[0]["translation_millimetres"]), [-10, 0.1, 0], absolute: 1e-12)
            let provenance = try XCTUnwrap(json["provenance"] as? [String: Any])
            XCTAssertEqual(provenance["source"] as? String, "nominal")
        }
        // The built-in profile and the file in the source tree are the same rig.
        XCTAssertEqual(try E2E.succeed(["calibration", "show", "--json"]).stdout,
                       try E2E.succeed(["calibration", "show", E2E.nominalPath, "--json"]).stdout)
    }

    func testShowWithAFileNamesIt() throws {
        let result = try E2E.succeed(["calibration", "show", E2E.nominalPath])
        XCTAssertTrue(result.stdout.hasPrefix("calibration: \(E2E.nominalPath)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("baseline 10.000 mm"), result.stdout)
    }

    func testShowMiddleburyCalibTxt() throws {
        let dir = try TemporaryDirectory()
        try E2E.adirondackCalib.write(to: dir.path("calib.txt"), atomically: true, encoding: .utf8)
        let text = try E2E.succeed(["calibration", "show", "calib.txt"], in: dir).stdout
        XCTAssertTrue(text.contains("baseline 176.252 mm"), text)
        XCTAssertTrue(text.contains("camera wide: 2880x1988"), text)

        let json = try E2E.jsonObject(try E2E.succeed(["calibration", "show", "calib.txt", "--json"], in: dir).stdout)
        let pairs = try XCTUnwrap(json["pairs"] as? [[String: Any]])
        XCTAssertEqual(E2E.double(pairs.first?["baseline_millimetres"]), 176.252)
        XCTAssertEqual(E2E.doubles(pairs.first?["translation_millimetres"]), [-176.252, 0, 0])
        XCTAssertEqual(E2E.double(pairs.first?["focal_ratio"]), 1)
        XCTAssertEqual(E2E.double(pairs.first?["rotation_degrees"]), 0)
        let cameras = try XCTUnwrap(json["cameras"] as? [[String: Any]])
        XCTAssertEqual(cameras.count, 2)
        XCTAssertEqual(E2E.double(cameras[0]["fx"]), 4161.221)
        XCTAssertEqual(E2E.double(cameras[0]["cx"]), 1445.577)
        XCTAssertEqual(E2E.double(cameras[1]["cx"]), 1654.636)
        XCTAssertEqual(E2E.double(cameras[1]["cy"]), 984.686)
        XCTAssertEqual(cameras[1]["width"] as? Int, 2880)
        XCTAssertEqual(cameras[1]["height"] as? Int, 1988)
        let provenance = try XCTUnwrap(json["provenance"] as? [String: Any])
        XCTAssertEqual(provenance["source"] as? String, "imported")
    }

    /// The two files OpenCV's stereo_calib sample writes.
    static func writeStereoCalibFiles(in dir: TemporaryDirectory, ext: String = "yml") throws {
        let m1: [Double] = [530.5, 0, 320.25, 0, 531.0, 240.75, 0, 0, 1]
        let m2: [Double] = [1061.0, 0, 322.0, 0, 1062.5, 241.0, 0, 0, 1]
        try CVFileStorage.write(to: dir.path("intrinsics.\(ext)")) { fs in
            try fs.write("M1", rows: 3, cols: 3, values: m1)
            try fs.write("D1", rows: 1, cols: 5, values: [-0.28, 0.07, 0.001, -0.0002, 0.0])
            try fs.write("M2", rows: 3, cols: 3, values: m2)
            try fs.write("D2", rows: 1, cols: 5, values: [-0.05, 0.01, 0, 0, 0])
        }
        try CVFileStorage.write(to: dir.path("extrinsics.\(ext)")) { fs in
            try fs.write("R", rows: 3, cols: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1])
            try fs.write("T", rows: 3, cols: 1, values: [-3.0, 0.0, 4.0])
            try fs.write("R1", rows: 3, cols: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1])
            try fs.write("R2", rows: 3, cols: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1])
            try fs.write("P1", rows: 3, cols: 4, values: [530, 0, 320, 0, 0, 530, 240, 0, 0, 0, 1, 0])
            try fs.write("P2", rows: 3, cols: 4, values: [530, 0, 320, -2650, 0, 530, 240, 0, 0, 0, 1, 0])
            try fs.write("Q", rows: 4, cols: 4, values: [1, 0, 0, -320, 0, 1, 0, -240, 0, 0, 0, 530, 0, 0, 0.2, 0])
        }
    }

    func testShowOpenCVStereoCalibFilesNeedsAndUsesTheImageSize() throws {
        let dir = try TemporaryDirectory()
        try Self.writeStereoCalibFiles(in: dir)
        let header = try String(contentsOf: dir.path("intrinsics.yml"), encoding: .utf8)
        XCTAssertTrue(header.hasPrefix("%YAML:1.0"), "fixture is an OpenCV FileStorage file")

        // Either file can be given; the other is found next to it.
        for file in ["intrinsics.yml", "extrinsics.yml"] {
            let result = try E2E.succeed(["calibration", "show", file, "--image-size", "640x480", "--json"], in: dir)
            let json = try E2E.jsonObject(result.stdout)
            let cameras = try XCTUnwrap(json["cameras"] as? [[String: Any]])
            XCTAssertEqual(cameras.map { $0["name"] as? String }, ["wide", "tele"])
            XCTAssertEqual(cameras.map { $0["width"] as? Int }, [640, 640])
            XCTAssertEqual(cameras.map { $0["height"] as? Int }, [480, 480])
            XCTAssertEqual(E2E.double(cameras[0]["fx"]), 530.5)
            XCTAssertEqual(E2E.double(cameras[0]["cy"]), 240.75)
            XCTAssertEqual(E2E.double(cameras[1]["fy"]), 1062.5)
            XCTAssertEqual(E2E.doubles(cameras[0]["distortion_coefficients"]), [-0.28, 0.07, 0.001, -0.0002, 0.0])
            let pair = try XCTUnwrap((json["pairs"] as? [[String: Any]])?.first)
            XCTAssertEqual(E2E.double(pair["baseline_millimetres"]), 5, "T = (-3, 0, 4) in the default unit mm")
            XCTAssertEqual(E2E.double(pair["focal_ratio"]), 2)
        }
        // T is in the pattern's unit.
        let inCM = try E2E.jsonObject(try E2E.succeed(
            ["calibration", "show", "intrinsics.yml", "--image-size", "640x480", "--pattern-unit", "cm", "--json"],
            in: dir).stdout)
        let pair = try XCTUnwrap((inCM["pairs"] as? [[String: Any]])?.first)
        XCTAssertClose(E2E.double(pair["baseline_millimetres"]), 50, relative: 1e-12)
        XCTAssertClose(E2E.doubles(pair["translation_millimetres"]), [-30, 0, 40], relative: 1e-12)

        // Without --image-size: one line naming the file and what is missing.
        try E2E.assertFailsCleanly(["calibration", "show", "intrinsics.yml"], in: dir,
                                   mentions: ["intrinsics.yml", "image size"])
        try E2E.assertFailsCleanly(["calibration", "show", "intrinsics.yml", "--image-size", "640by480"], in: dir,
                                   mentions: ["--image-size", "640by480", "WIDTHxHEIGHT"])
        try E2E.assertFailsCleanly(["calibration", "show", "intrinsics.yml", "--image-size", "640x480",
                                    "--pattern-unit", "furlong"], in: dir,
                                   mentions: ["--pattern-unit", "furlong", "m, cm, mm, ft, in"])
    }

    // MARK: convert

    /// Comment lines (the header dualcam writes) removed.
    static func withoutComments(_ yaml: String) -> String {
        yaml.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
            .joined(separator: "\n")
    }

    func testConvertNominalThroughOpenCVYAMLAndBackIsExact() throws {
        let dir = try TemporaryDirectory()
        let original = try E2E.succeed(["calibration", "show", E2E.nominalPath, "--json"]).stdout

        let toOpenCV = try E2E.succeed(["calibration", "convert", E2E.nominalPath, "rig-opencv.yml"], in: dir)
        XCTAssertEqual(toOpenCV.stdout, "")
        XCTAssertEqual(toOpenCV.stderr, "wrote rig-opencv.yml (opencv)\n")
        let opencv = try String(contentsOf: dir.path("rig-opencv.yml"), encoding: .utf8)
        XCTAssertTrue(opencv.hasPrefix("%YAML:1.0"), opencv)
        for key in ["M1:", "D1:", "M2:", "R:", "T:", "T_unit: mm"] {
            XCTAssertTrue(opencv.contains("\n" + key), "no \(key) in:\n\(opencv)")
        }
        XCTAssertFalse(opencv.contains("\nD2:"), "the tele has no distortion model, so no D2")

        try E2E.succeed(["calibration", "convert", "rig-opencv.yml", "rig.yaml"], in: dir)
        let final = try E2E.succeed(["calibration", "show", "rig.yaml", "--json"], in: dir).stdout
        XCTAssertEqual(final, original, "show --json after nominal -> .yml -> .yaml")

        // The dualcam YAML itself matches the hand-written profile, numbers and all.
        let written = try String(contentsOf: dir.path("rig.yaml"), encoding: .utf8)
        XCTAssertEqual(Self.withoutComments(written), Self.withoutComments(try E2E.nominalYAML()))
        XCTAssertEqual(try E2E.listing(dir.url), ["/rig-opencv.yml", "/rig.yaml"], "no temporary files left")
    }

    func testConvertNominalThroughOpenCVXMLAndBackIsExact() throws {
        let dir = try TemporaryDirectory()
        let original = try E2E.succeed(["calibration", "show", "--json"]).stdout
        try E2E.succeed(["calibration", "convert", E2E.nominalPath, "rig.xml"], in: dir)
        let xml = try String(contentsOf: dir.path("rig.xml"), encoding: .utf8)
        XCTAssertTrue(xml.hasPrefix("<?xml"), xml)
        XCTAssertTrue(xml.contains("<M1 type_id=\"opencv-matrix\">"), xml)
        try E2E.succeed(["calibration", "convert", "rig.xml", "back.yaml"], in: dir)
        XCTAssertEqual(try E2E.succeed(["calibration", "show", "back.yaml", "--json"], in: dir).stdout, original)
    }

    /// JSON from `calibration show` without the import date (which is "now").
    static func summaryIgnoringDate(_ stdout: String) throws -> NSDictionary {
        var json = try E2E.jsonObject(stdout)
        var provenance = json["provenance"] as? [String: Any] ?? [:]
        XCTAssertNotNil(provenance["date"], "an import records its date")
        provenance["date"] = nil
        json["provenance"] = provenance
        return json as NSDictionary
    }

    func testConvertMiddleburyToDualcamYAMLAndOpenCVXML() throws {
        let dir = try TemporaryDirectory()
        try E2E.adirondackCalib.write(to: dir.path("calib.txt"), atomically: true, encoding: .utf8)
        let direct = try Self.summaryIgnoringDate(
            try E2E.succeed(["calibration", "show", "calib.txt", "--json"], in: dir).stdout)

        let result = try E2E.succeed(["calibration", "convert", "calib.txt", "adirondack.yaml"], in: dir)
        XCTAssertEqual(result.stderr, "wrote adirondack.yaml (dualcam)\n")
        let yaml = try String(contentsOf: dir.path("adirondack.yaml"), encoding: .utf8)
        XCTAssertTrue(yaml.contains("dualcam_calibration: 1\n"), yaml)
        XCTAssertTrue(yaml.contains("translation: [-176.252, 0.0, 0.0]\n    unit: mm"), yaml)
        XCTAssertTrue(yaml.contains("doffs: 209.059"), "Middlebury extras are kept:\n\(yaml)")
        let viaYAML = try Self.summaryIgnoringDate(
            try E2E.succeed(["calibration", "show", "adirondack.yaml", "--json"], in: dir).stdout)
        XCTAssertEqual(viaYAML, direct)

        try E2E.succeed(["calibration", "convert", "calib.txt", "adirondack.xml"], in: dir)
        let xml = try String(contentsOf: dir.path("adirondack.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains("<opencv_storage>"), xml)
        let viaXML = try Self.summaryIgnoringDate(
            try E2E.succeed(["calibration", "show", "adirondack.xml", "--json"], in: dir).stdout)
        XCTAssertEqual(viaXML, direct)
        let pair = try XCTUnwrap((viaXML["pairs"] as? [[String: Any]])?.first)
        XCTAssertEqual(E2E.double(pair["baseline_millimetres"]), 176.252)
    }

    func testConvertOpenCVStereoCalibToDualcamYAML() throws {
        let dir = try TemporaryDirectory()
        try Self.writeStereoCalibFiles(in: dir)
        try E2E.succeed(["calibration", "convert", "intrinsics.yml", "stereo.yaml", "--image-size", "640x480"], in: dir)
        let json = try E2E.jsonObject(try E2E.succeed(["calibration", "show", "stereo.yaml", "--json"], in: dir).stdout)
        let cameras = try XCTUnwrap(json["cameras"] as? [[String: Any]])
        XCTAssertEqual(E2E.double(cameras[1]["fx"]), 1061.0)
        XCTAssertEqual(cameras[1]["width"] as? Int, 640)
        XCTAssertEqual(E2E.double((json["pairs"] as? [[String: Any]])?.first?["baseline_millimetres"]), 5)
    }

    func testConvertFormatFlagOverridesTheExtension() throws {
        let dir = try TemporaryDirectory()
        try E2E.succeed(["calibration", "convert", E2E.nominalPath, "rig.txt", "--format", "dualcam"], in: dir)
        let text = try String(contentsOf: dir.path("rig.txt"), encoding: .utf8)
        XCTAssertTrue(text.contains("dualcam_calibration: 1"), text)
        try E2E.succeed(["calibration", "convert", E2E.nominalPath, "rig.yaml", "--format", "opencv"], in: dir)
        let opencv = try String(contentsOf: dir.path("rig.yaml"), encoding: .utf8)
        XCTAssertTrue(opencv.hasPrefix("%YAML:1.0"), opencv)
        XCTAssertEqual(try E2E.succeed(["calibration", "show", "rig.yaml", "--json"], in: dir).stdout,
                       try E2E.succeed(["calibration", "show", "--json"]).stdout)
    }
}
