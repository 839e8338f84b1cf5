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
}
