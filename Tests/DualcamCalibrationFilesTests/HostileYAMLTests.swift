@testable import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Calibration files that grew without bound or reached OpenCV's internals (issue 20).
final class HostileYAMLTests: XCTestCase {
    /// Nine levels of nine aliases: 1.5 kB that expands to 9^9 scalars. The
    /// budget stops the walk after InputLimits.maxYAMLNodes nodes.
    static func aliasBomb(levels: Int = 9) -> String {
        var text = "  a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for i in 1...levels {
            text += "  a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ",") + "]\n"
        }
        return text
    }

    func testAliasBombUnderExtraIsRefused() throws {
        let yaml = NominalDevice.yaml + "extra:\n" + Self.aliasBomb()
        XCTAssertThrowsError(try CalibrationFile(yaml: yaml, path: "lol.yaml")) { error in
            XCTAssertEqual("\(error)", "lol.yaml: YAML expands to more than 100000 nodes, aliases counted in full (InputLimits.maxYAMLNodes)")
        }
        let dir = try TemporaryDirectory()
        try Data(yaml.utf8).write(to: dir.path("lol.yaml"))
        XCTAssertThrowsError(try CalibrationImport.read(dir.path("lol.yaml"))) { XCTAssertTrue("\($0)".contains("InputLimits.maxYAMLNodes"), "\($0)") }
    }

    /// Aliases inside a mapping key: Yams hashes keys to find duplicates,
    /// expansion included, while composing; the budget is checked on the
    /// parser's events before that (found by fuzzing: over 2 s per input).
    func testAliasBombInAKeyIsRefusedBeforeComposing() throws {
        let yaml = "dualcam_calibration: 1\nextra:\n" + Self.aliasBomb() + "  ? [*a9, *a9]\n  : x\n"
        XCTAssertThrowsError(try CalibrationFile(yaml: yaml, path: "key.yaml")) { error in
            XCTAssertTrue("\(error)".contains("InputLimits.maxYAMLNodes"), "\(error)")
        }
        // The format detection of `calibration show` / `--calibration` composes YAML too.
        let dir = try TemporaryDirectory()
        try Data(yaml.utf8).write(to: dir.path("key.yaml"))
        XCTAssertThrowsError(try CalibrationImport.read(dir.path("key.yaml"))) { XCTAssertTrue("\($0)".contains("InputLimits.maxYAMLNodes"), "\($0)") }
    }

    /// Yams traps on a base-60 integer beyond Int64 (`8888880088884408085:0`,
    /// found by fuzzing the batch manifest); such numbers are refused on the
    /// parser's events, ordinary ones and times in quotes are untouched.
    func testBase60IntegersBeyondInt64AreRefused() throws {
        for text in ["8888880088884408085:0", "1:0:0:0:0:0:0:0:0:0:0", "-99999999999999999999:1"] {
            XCTAssertThrowsError(try YAMLBudget.load("a: \(text)\n", file: "n.yaml"), text) { error in
                XCTAssertTrue("\(error)".hasPrefix("n.yaml: line 1: the base-60 number"), "\(error)")
            }
            XCTAssertTrue(YAMLBudget.sexagesimalOutOfRange(text), text)
        }
        let plain = try XCTUnwrap(YAMLBudget.load("a: 190:20:30\nb: '12:30'\nc: 1:2:x\n", file: "n.yaml") as? [String: Any])
        XCTAssertEqual(plain["a"] as? Int, 685_230)
        XCTAssertEqual(plain["b"] as? String, "12:30")
        XCTAssertEqual(plain["c"] as? String, "1:2:x")
        XCTAssertFalse(YAMLBudget.sexagesimalOutOfRange("10:0:0:0:0:0:0:0:0:0"))
    }

    func testFewAliasesAreFine() throws {
        let yaml = NominalDevice.yaml + "extra:\n" + Self.aliasBomb(levels: 2)
        XCTAssertNoThrow(try CalibrationFile(yaml: yaml, path: "few.yaml"))
    }

    func testDeepNestingIsRefused() throws {
        let yaml = NominalDevice.yaml + "extra:\n  deep: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n"
        XCTAssertThrowsError(try CalibrationFile(yaml: yaml, path: "deep.yaml")) { error in
            XCTAssertEqual("\(error)", "deep.yaml: YAML nests deeper than 64 levels (InputLimits.maxYAMLDepth)")
        }
    }

    func testSpecialFilesAreRefused() throws {
        XCTAssertThrowsError(try CalibrationImport.read(URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertEqual("\(error)", "/dev/null: is not a regular file (a device or a pipe), expected a file")
        }
    }

    /// An OpenCV matrix whose data does not fill rows x cols reached the user
    /// as OpenCV's "nelems == m.total()*m.channels()"; a huge one allocated.
    func testOpenCVMatrixNodesAreCheckedFirst() throws {
        let dir = try TemporaryDirectory()
        var options = CalibrationImport.Options()
        options.imageSize = PixelSize(width: 640, height: 480)
        for (rows, cols, data, expected) in [
            (3, 3, "[1, 2]", "key 'camera_matrix' declares a 3x3 matrix but its data has 2 values (expected 9)"),
            (100000, 100000, "[1]", "key 'camera_matrix' declares a 100000x100000 matrix; expected 1 to 16384 rows and columns"),
        ] {
            let text = "%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: \(rows)\n   cols: \(cols)\n   dt: d\n   data: \(data)\n"
            try Data(text.utf8).write(to: dir.path("cam.yml"))
            XCTAssertThrowsError(try CalibrationImport.read(dir.path("cam.yml"), options: options)) { error in
                XCTAssertEqual("\(error)", "\(dir.path("cam.yml").path): \(expected)")
            }
        }
    }

    func testBoardSidesAreLimited() {
        XCTAssertNoThrow(try BoardTarget(parsing: "chessboard:100x100:1mm"))
        XCTAssertThrowsError(try BoardTarget(parsing: "chessboard:10000x10000:1mm")) { error in
            XCTAssertTrue("\(error)".contains("'10000x10000' exceeds the limit of 100 per side (InputLimits.maxBoardSide)"), "\(error)")
        }
    }
}
