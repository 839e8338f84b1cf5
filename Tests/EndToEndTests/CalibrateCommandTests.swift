import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam calibrate`, `calibrate verify` and `calibrate test`, run as a user
/// would, on OpenCV's sample stereo set (Debian's opencv-doc) and on bad input.
final class CalibrateCommandTests: XCTestCase {
    static let data = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")
    static let list = data.appendingPathComponent("stereo_calib.xml").path

    func testOpenCVSampleListAcceptance() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["calibrate", "--pattern", "chessboard:9x6:1mm", "--list", Self.list,
                                      "-o", "rig.yaml", "--json"], in: dir)
        let report = try E2E.jsonObject(result.stdout)
        XCTAssertEqual(report["pairs_used"] as? Int, 13)
        XCTAssertEqual(report["pairs_given"] as? Int, 13)
        XCTAssertLessThanOrEqual(E2E.double(report["stereo_rms"]), 0.45)
        XCTAssertEqual(E2E.double(report["baseline_mm"]), 3.34, accuracy: 0.03)
        XCTAssertEqual(E2E.doubles(report["rotation_std_degrees"]).count, 3)
        let file = try CalibrationFile.read(dir.path("rig.yaml"))
        XCTAssertEqual(file.provenance.source, .calibrated)
        XCTAssertEqual(try XCTUnwrap(file.provenance.rms?.stereo), E2E.double(report["stereo_rms"]), accuracy: 1e-12)
        let t = try file.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertEqual(t.baseline, 3.34, accuracy: 0.03)
        XCTAssertEqual(try file.rig.camera(.wide).size, PixelSize(width: 640, height: 480))

        // verify on the same kind of views passes; a 0.5 deg rotation error fails.
        let verify = try E2E.succeed(["calibrate", "verify", "--calibration", "rig.yaml", "--pairs", Self.data.path,
                                      "--max-epipolar", "0.5", "--json"], in: dir)
        XCTAssertEqual(try E2E.jsonObject(verify.stdout)["passed"] as? Bool, true)
        var bad = file
        bad.rig = try Rig(reference: .wide, cameras: file.rig.cameras, extrinsics: [
            try RigidTransform(rotation: Rotation(axis: Vector3(1, 0, 0), angle: Angle.radians(0.5)) * t.rotation,
                               translation: t.translation, unit: .millimetre, from: .wide, to: .tele),
        ])
        try bad.write(to: dir.path("bad.yaml"))
        let failed = try E2E.run(["calibrate", "verify", "--calibration", "bad.yaml", "--pairs", Self.data.path], in: dir)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("FAIL"), failed.stdout)
    }

    func testPairDirectoryWithLeftRightNames() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["calibrate", "--pattern", "chessboard:9x6:1mm", "--pairs", Self.data.path, "-o", "rig.yaml"], in: dir)
        XCTAssertTrue(result.stdout.contains("13 of 13 pairs used"), result.stdout)
        XCTAssertTrue(result.stdout.contains("baseline"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("rig.yaml").path))
    }

    func testSuites() throws {
        let root = DualcamBinary.packageRoot.appendingPathComponent("Calibration/suites")
        let result = try E2E.succeed(["calibrate", "test", root.appendingPathComponent("opencv-sample.yaml").path,
                                      root.appendingPathComponent("synthetic-nominal.yaml").path])
        XCTAssertTrue(result.stdout.contains("suite opencv-sample"), result.stdout)
        XCTAssertTrue(result.stdout.contains("suite synthetic-nominal"), result.stdout)
        XCTAssertFalse(result.stdout.contains("FAIL"), result.stdout)

        // A suite whose expectation cannot hold fails with exit status 1 and a FAIL row.
        let dir = try TemporaryDirectory()
        let strict = try String(contentsOf: root.appendingPathComponent("opencv-sample.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "{quantity: stereo_rms_px, max: 0.45}", with: "{quantity: stereo_rms_px, max: 0.01}")
        try strict.write(to: dir.path("strict.yaml"), atomically: true, encoding: .utf8)
        let failed = try E2E.run(["calibrate", "test", "strict.yaml"], in: dir)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("FAIL"), failed.stdout)
    }

    /// Copies sample pairs into `dir` under new names.
    func copySample(_ indices: [Int], to dir: TemporaryDirectory) throws {
        for i in indices {
            for side in ["left", "right"] {
                try FileManager.default.copyItem(at: Self.data.appendingPathComponent(String(format: "%@%02d.jpg", side, i)),
                                                 to: dir.path(String(format: "%@%02d.jpg", side, i)))
            }
        }
    }

    func testBadInputFailsCleanly() throws {
        let dir = try TemporaryDirectory()
        let run = ["calibrate", "--pattern", "chessboard:9x6:1mm", "-o", "out.yaml", "--pairs"]

        let blank = try TemporaryDirectory()
        let grey = try Image(width: 320, height: 240, channels: 1, pixels: [UInt8](repeating: 128, count: 320 * 240))
        for i in 0..<3 {
            try ImageIO.write(grey, to: blank.path(String(format: "wide_%02d.png", i)))
            try ImageIO.write(grey, to: blank.path(String(format: "tele_%02d.png", i)))
        }
        try E2E.assertFailsCleanly(run + [blank.url.path], in: dir, mentions: ["no pattern found in any of the 3 views"],
                                   absent: ["out.yaml"])

        let two = try TemporaryDirectory()
        try copySample([1, 2], to: two)
        try E2E.assertFailsCleanly(run + [two.url.path], in: dir, mentions: ["only 2 usable pair", "at least 3"], absent: ["out.yaml"])

        let mixed = try TemporaryDirectory()
        try copySample([1, 2, 3], to: mixed)
        try FileManager.default.removeItem(at: mixed.path("left03.jpg"))
        try ImageIO.write(grey, to: mixed.path("left03.png"))
        try E2E.assertFailsCleanly(run + [mixed.url.path], in: dir, mentions: ["left03.png", "mixed sizes", "320x240", "640x480"],
                                   absent: ["out.yaml"])

        try E2E.assertFailsCleanly(["calibrate", "--pattern", "chessboard:9x", "--list", Self.list, "-o", "out.yaml"], in: dir,
                                   mentions: ["pattern 'chessboard:9x'"], absent: ["out.yaml"])
        try E2E.assertFailsCleanly(["calibrate", "--pattern", "charuco:8x6:30mm:22mm:UNKNOWN_DICT", "--list", Self.list,
                                    "-o", "out.yaml"], in: dir, mentions: ["UNKNOWN_DICT", "DICT_4X4_50"], absent: ["out.yaml"])
        try E2E.assertFailsCleanly(["calibrate", "--pattern", "chessboard:9x6:1mm", "--list", "missing.xml", "-o", "out.yaml"],
                                   in: dir, mentions: ["missing.xml"], absent: ["out.yaml"])
        try E2E.assertFailsCleanly(["calibrate", "--pattern", "chessboard:9x6:1mm", "--list", Self.list, "-o", "nodir/out.yaml"],
                                   in: dir, mentions: ["nodir"])
        try E2E.assertFailsCleanly(["calibrate", "test", "nosuite.yaml"], in: dir, mentions: ["nosuite.yaml"])
    }
}
