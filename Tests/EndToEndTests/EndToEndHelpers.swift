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
        let foreign = try foreignFlags(in: stderr, arguments: arguments)
        XCTAssertEqual(foreign, [], "\(command): the error names options that \(commandPath(arguments).joined(separator: " ")) does not have: \(stderr)",
                       file: file, line: line)
        let after = try listing(directory.url)
        XCTAssertEqual(after, before, "\(command) changed the directory", file: file, line: line)
        for path in absent {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path(path).path),
                           "\(command) left \(path) behind", file: file, line: line)
        }
        return stderr
    }

    // MARK: Errors name only the command's own options

    /// The subcommands and their own subcommands.
    static let commandTree: [String: [String]] = [
        "bench": [], "calibrate": ["run", "verify", "test"], "calibration": ["show", "convert"], "capture": [],
        "converge": [], "depth": [], "devices": [], "eval": [], "fuse": [], "homography": [], "image": ["info", "convert"],
        "synth": [],
    ]

    /// The (sub)command an argument list runs, e.g. ["calibration", "show"].
    static func commandPath(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, let children = commandTree[first] else { return [] }
        if arguments.count > 1, children.contains(arguments[1]) { return [first, arguments[1]] }
        // `dualcam calibrate` without a subcommand runs `calibrate run`.
        if first == "calibrate", !(arguments.dropFirst().first.map { ["--help", "-h"].contains($0) } ?? false) { return [first, "run"] }
        return [first]
    }

    nonisolated(unsafe) private static var optionCache: [[String]: Set<String>] = [:]
    private static let optionLock = NSLock()

    /// The long options `dualcam COMMAND --help` lists (its option lines, not its prose).
    static func options(of command: [String]) throws -> Set<String> {
        if let hit = optionLock.withLock({ optionCache[command] }) { return hit }
        let help = try run(command + ["--help"]).stdout
        var found: Set<String> = ["--help", "--version"]
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.count < line.count else { continue }  // option lines are indented
            var rest = Substring(trimmed)
            if rest.hasPrefix("-"), !rest.hasPrefix("--"), let comma = rest.firstIndex(of: ",") {
                rest = rest[rest.index(after: comma)...].drop { $0 == " " }
            }
            guard rest.hasPrefix("--") else { continue }
            found.insert(String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }))
        }
        optionLock.withLock { optionCache[command] = found }
        return found
    }

    /// The `--flags` an error message names that the command run by
    /// `arguments` does not have. Not counted: ArgumentParser's "Unknown
    /// option '--x'" (the user's own typo), and flags in a clause that names
    /// another command ("dualcam calibration convert ... --image-size"),
    /// which are checked against that command instead.
    static func foreignFlags(in message: String, arguments: [String]) throws -> [String] {
        let own = commandPath(arguments)
        guard !own.isEmpty else { return [] }
        var foreign: [String] = []
        var text = message
        if let unknown = text.range(of: "Unknown option '") { text.removeSubrange(unknown.lowerBound...) }
        for clause in text.split(whereSeparator: { ";,()".contains($0) }) {
            var command = own
            var words = clause.split(separator: " ").map(String.init)
            if let at = words.firstIndex(of: "dualcam"), at + 1 < words.count, commandTree[words[at + 1]] != nil {
                command = commandPath(Array(words[(at + 1)...]))
                words = Array(words[(at + 1)...])
            }
            let options = try options(of: command)
            let named = words.joined(separator: " ")
            let pattern = try NSRegularExpression(pattern: "--[a-z][a-z0-9-]*")
            for match in pattern.matches(in: named, range: NSRange(named.startIndex..., in: named)) {
                guard let range = Range(match.range, in: named) else { continue }
                let flag = String(named[range])
                if !options.contains(flag) && !foreign.contains(flag) { foreign.append(flag) }
            }
        }
        return foreign
    }
}
