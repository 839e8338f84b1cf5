import Foundation
import TestSupport
import XCTest

/// Shared helpers for the end-to-end tests, which run the built `dualcam`
/// binary as a user would and check its exit status, stdout, stderr and the
/// files it leaves behind.
enum E2E {
    static let nominalPath = DualcamBinary.packageRoot
        .appendingPathComponent("Calibration/devices/nominal-phone-wide-tele.yaml").path

    /// The text of the nominal device profile in the source tree.
    static func nominalYAML() throws -> String { try String(contentsOfFile: nominalPath, encoding: .utf8) }

    static let adirondackCalib = PublicFixtures.middleburyAdirondackCalib

    /// Runs `dualcam` in `directory` (relative paths resolve there).
    @discardableResult
    static func run(_ arguments: [String], in directory: TemporaryDirectory? = nil) throws -> DualcamBinary.Result {
        try DualcamBinary.run(arguments, currentDirectory: directory?.url)
    }

    /// Runs `dualcam` and fails unless it exits 0; returns the result.
    @discardableResult
    static func succeed(_ arguments: [String], in directory: TemporaryDirectory? = nil,
                        file: StaticString = #filePath, line: UInt = #line) throws -> DualcamBinary.Result {
        let result = try run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, "dualcam \(arguments.joined(separator: " ")) failed: \(result.stderr)",
                       file: file, line: line)
        return result
    }

    /// Parses stdout as a JSON object with JSONSerialization.
    static func jsonObject(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let object = value as? [String: Any] else {
            XCTFail("stdout is not a JSON object: \(text)", file: file, line: line)
            return [:]
        }
        return object
    }

    /// A JSON array of numbers as [Double].
    static func doubles(_ value: Any?, file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        guard let array = value as? [Any] else {
            XCTFail("\(String(describing: value)) is not a JSON array", file: file, line: line)
            return []
        }
        return array.map { element in
            guard let number = element as? NSNumber else {
                XCTFail("\(element) is not a number", file: file, line: line)
                return .nan
            }
            return number.doubleValue
        }
    }

    /// A JSON number as Double (NaN, and a test failure, when absent).
    static func double(_ value: Any?, file: StaticString = #filePath, line: UInt = #line) -> Double {
        guard let number = value as? NSNumber else {
            XCTFail("\(String(describing: value)) is not a number", file: file, line: line)
            return .nan
        }
        return number.doubleValue
    }

    /// Every entry of a directory, hidden ones included, recursively, sorted.
    static func listing(_ directory: URL) throws -> [String] {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(at: directory, includingPropertiesForKeys: nil, options: []) else {
            return []
        }
        let base = directory.resolvingSymlinksInPath().path
        return enumerator.compactMap { item -> String? in
            guard let url = item as? URL else { return nil }
            let path = url.resolvingSymlinksInPath().path
            return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
        }.sorted()
    }

    /// Runs `dualcam` and checks that it fails the way every dualcam error
    /// must: non-zero status, nothing on stdout, stderr exactly one line that
    /// contains each of `mentions` (the file or flag, and what was expected),
    /// and the directory unchanged (no output, no temporary file left behind).
    /// `absent` lists paths (relative to the directory) that must not exist.
    @discardableResult
    static func assertFailsCleanly(
        _ arguments: [String], in directory: TemporaryDirectory, mentions: [String], absent: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let before = try listing(directory.url)
        let result = try run(arguments, in: directory)
        let command = "dualcam " + arguments.joined(separator: " ")
        XCTAssertNotEqual(result.status, 0, "\(command) should fail", file: file, line: line)
        XCTAssertEqual(result.stdout, "", "\(command) printed on stdout", file: file, line: line)
        let stderr = result.stderr
        XCTAssertTrue(stderr.hasSuffix("\n") && !stderr.dropLast().contains("\n") && stderr.count > 1,
                      "\(command): stderr is not exactly one line: \(stderr.debugDescription)", file: file, line: line)
        for fragment in mentions {
            XCTAssertTrue(stderr.contains(fragment), "\(command): stderr '\(stderr)' does not mention '\(fragment)'",
                          file: file, line: line)
        }
        let after = try listing(directory.url)
        XCTAssertEqual(after, before, "\(command) changed the directory", file: file, line: line)
        for path in absent {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path(path).path),
                           "\(command) left \(path) behind", file: file, line: line)
        }
        return stderr
    }
}
