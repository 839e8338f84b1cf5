import Foundation
import TestSupport
import XCTest

final class HelpAndVersionTests: XCTestCase {
    static let subcommands = ["batch", "bench", "calibrate", "calibration", "capture", "converge", "depth", "devices", "eval", "fuse", "homography", "image", "synth"]

    func testHelpListsEverySubcommandWithAPurposeAndAnExample() throws {
        let result = try E2E.succeed(["--help"])
        let help = result.stdout
        XCTAssertEqual(result.stderr, "")

        // The SUBCOMMANDS section: each name followed, on its own line, by its purpose.
        guard let section = help.range(of: "SUBCOMMANDS:") else {
            return XCTFail("no SUBCOMMANDS section in:\n\(help)")
        }
        let lines = help[section.upperBound...].split(separator: "\n").map(String.init)
        for name in Self.subcommands {
            guard let entry = lines.first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }) else {
                XCTFail("\(name) is not listed under SUBCOMMANDS:\n\(help)")
                continue
            }
            let purpose = entry.trimmingCharacters(in: .whitespaces).dropFirst(name.count)
                .trimmingCharacters(in: .whitespaces)
            XCTAssertGreaterThan(purpose.count, 10, "\(name) has no purpose: '\(entry)'")
        }
        let listed = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { !$0.hasPrefix("-") && $0 != "See" }
        XCTAssertEqual(Set(listed), Set(Self.subcommands), "exactly these subcommands are listed")

        // The discussion (before USAGE) shows an example for each subcommand.
        guard let usage = help.range(of: "USAGE:") else { return XCTFail("no USAGE in:\n\(help)") }
        let discussion = help[..<usage.lowerBound]
        for name in Self.subcommands {
            XCTAssertTrue(discussion.contains("dualcam \(name) "), "no example of \(name) in:\n\(discussion)")
        }
        XCTAssertTrue(discussion.contains("1.2m"), "the discussion explains distance units")
    }

    func testEachSubcommandHelpHasAPurposeAndAnExample() throws {
        let commands: [[String]] = [
            ["calibration"], ["calibration", "show"], ["calibration", "convert"],
            ["calibrate"], ["calibrate", "run"], ["calibrate", "verify"], ["calibrate", "test"],
            ["homography"], ["image"], ["image", "info"], ["image", "convert"], ["synth"], ["bench"], ["converge"], ["depth"], ["eval"], ["fuse"],
            ["batch"], ["batch", "plan"], ["batch", "run"], ["batch", "status"], ["batch", "collect"],
        ]
        for command in commands {
            let result = try E2E.succeed(command + ["--help"])
            let help = result.stdout
            XCTAssertTrue(help.hasPrefix("OVERVIEW: "), "\(command): \(help)")
            let overview = help.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertGreaterThan(overview.count, "OVERVIEW: ".count + 10, "\(command) has no purpose")
            XCTAssertTrue(help.contains("Example: dualcam \(command[0]) "), "\(command) help has no example:\n\(help)")
        }
        // Groups list their own subcommands.
        XCTAssertTrue(try E2E.succeed(["calibration", "--help"]).stdout.contains("show"))
        XCTAssertTrue(try E2E.succeed(["calibration", "--help"]).stdout.contains("convert"))
        XCTAssertTrue(try E2E.succeed(["image", "--help"]).stdout.contains("info"))
    }

    func testVersionPrintsTheVersionAndOpenCV46() throws {
        let result = try E2E.succeed(["--version"])
        let line = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertFalse(line.contains("\n"), "one line: \(result.stdout)")
        let pattern = #"^dualcam [0-9]+\.[0-9]+\.[0-9]+ \(OpenCV 4\.6\.[0-9]+\)$"#
        XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), "unexpected version line '\(line)'")
    }

    /// Errors raised deep in the libraries (calibration import, stereo depth
    /// range, sample loading, live capture options) name only options the
    /// command that hit them has; `E2E.assertFailsCleanly` checks every
    /// failure of every end-to-end test against the command's --help, and
    /// these reach the shared library paths from each command.
    func testErrorsNameOnlyTheCommandsOwnOptions() throws {
        let dir = try TemporaryDirectory()
        // OpenCV stereo_calib files without an image size: only `calibration` takes --image-size.
        try CalibrationCommandTests.writeStereoCalibFiles(in: dir)
        try E2E.succeed(["synth", "--scene", "room", "--size", "160x120", "--spp", "1", "--out", "pair"], in: dir)
        let calibrated: [[String]] = [
            ["depth", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "-o", "d.pfm"],
            ["converge", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--distance", "1m", "-o", "c.png"],
            ["homography", "--distance", "1m"],
            ["fuse", "--wide", "pair/wide.png", "--samples", "pair/lidar.csv", "-o", "f.pfm"],
            ["eval", "pair/wide.depth.pfm", "--map-type", "depth", "--gt", "pair/wide.depth.pfm", "--gt-format", "depth",
             "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--baseline", "sgbm"],
        ]
        for command in calibrated {
            try E2E.assertFailsCleanly(command + ["--calibration", "intrinsics.yml"], in: dir, mentions: ["intrinsics.yml", "image size"])
        }
        try E2E.assertFailsCleanly(["synth", "--rig", "intrinsics.yml", "--out", "s"], in: dir, mentions: ["image size"])
        try E2E.assertFailsCleanly(["calibrate", "verify", "--pairs", "pair", "--pattern", "chessboard:9x6:25mm", "--calibration",
                                    "intrinsics.yml"], in: dir, mentions: ["intrinsics.yml"])
        let stderr = try E2E.assertFailsCleanly(["calibration", "show", "intrinsics.yml"], in: dir, mentions: ["image size"])
        XCTAssertTrue(stderr.contains("--image-size"), "the command that takes the size names its flag: \(stderr)")
        // The --tele stereo's depth range: fuse has --min-depth and --size now.
        let fuse = ["fuse", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--samples", "pair/lidar.csv",
                    "--calibration", "pair/calibration.yaml", "-o", "f.pfm"]
        try E2E.assertFailsCleanly(fuse + ["--min-depth", "1mm", "--size", "native"], in: dir,
                                   mentions: ["--min-depth", "disparity search", "--size"])
        try E2E.assertFailsCleanly(fuse + ["--max-depth", "0.5m", "--min-depth", "1m"], in: dir, mentions: ["--max-depth"])
        try E2E.assertFailsCleanly(["fuse", "--wide", "pair/wide.png", "--samples", "pair/lidar.csv", "--calibration",
                                    "pair/calibration.yaml", "--min-depth", "1m", "-o", "f.pfm"], in: dir, mentions: ["--min-depth", "--tele"])
        try E2E.assertFailsCleanly(["depth", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--calibration", "pair/calibration.yaml",
                                    "--min-depth", "1mm", "--size", "native", "-o", "d.pfm"], in: dir, mentions: ["--min-depth"])
        // The commands without a calibration.
        try E2E.assertFailsCleanly(["capture", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--count", "1", "--out", "cap"],
                                   in: dir, mentions: ["pair/wide.png"])
        try E2E.assertFailsCleanly(["devices", "--wide", "pair/wide.png", "--tele", "pair/tele.png"], in: dir, mentions: ["pair/wide.png"])
        try E2E.assertFailsCleanly(["bench", "nosuch"], in: dir, mentions: ["nosuch"])
        try E2E.assertFailsCleanly(["image", "info", "intrinsics.yml"], in: dir, mentions: ["intrinsics.yml"])
        try E2E.assertFailsCleanly(["image", "convert", "pair/wide.png", "pair/wide.png"], in: dir, mentions: ["pair/wide.png"])
        try E2E.assertFailsCleanly(["calibrate", "run", "--pairs", "nowhere", "--pattern", "chessboard:9x6:25mm", "-o", "r.yaml"],
                                   in: dir, mentions: ["nowhere"])
        try E2E.assertFailsCleanly(["calibrate", "test", "intrinsics.yml"], in: dir, mentions: ["intrinsics.yml"])
        // The checker itself: a foreign flag is caught, the user's unknown option is not.
        XCTAssertEqual(try E2E.foreignFlags(in: "dualcam: x: give --image-size", arguments: ["depth"]), ["--image-size"])
        XCTAssertEqual(try E2E.foreignFlags(in: "dualcam: Unknown option '--bogus'", arguments: ["depth"]), [])
        XCTAssertEqual(try E2E.foreignFlags(in: "dualcam: x: use dualcam calibration convert FILE --image-size WxH", arguments: ["depth"]), [])
        XCTAssertEqual(try E2E.foreignFlags(in: "dualcam: x: give a larger --min-depth", arguments: ["fuse"]), [])
    }
}
