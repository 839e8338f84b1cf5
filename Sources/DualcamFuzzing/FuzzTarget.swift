import DualcamGeometry
import DualcamSupport
import Foundation

/// One parser under fuzzing: `run` feeds it arbitrary bytes. A parser may
/// accept the bytes or refuse them with an error; it must never crash, hang
/// or exhaust memory (libFuzzer's -timeout and -rss_limit_mb catch those),
/// and a refusal must be what users see: a `DualcamError` whose description
/// is one line. Anything else stops the run (`FuzzTarget.check`), which
/// libFuzzer reports as a crash with the input that caused it.
///
/// `FuzzTargets.all` lists every target; `scripts/fuzz.sh` runs them under
/// libFuzzer (the `dualcam-fuzz` product built with -sanitize=fuzzer), and
/// `DualcamFuzzingTests` replays the seed corpus and every past crash
/// (`Fuzz/corpus/<name>`, `Fuzz/regressions/<name>`) in the normal tests.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What the target parses, for `dualcam-fuzz --list`.
    public let summary: String
    let body: @Sendable (Data) throws -> Void

    init(_ name: String, _ summary: String, _ body: @escaping @Sendable (Data) throws -> Void) {
        self.name = name
        self.summary = summary
        self.body = body
    }

    /// Runs the parser on `data`; stops the process if it failed in a way a
    /// user must never see (an error that is not one dualcam line).
    public func run(_ data: Data) {
        do {
            try body(data)
        } catch {
            Self.check(error, target: name)
        }
    }

    /// Whether the parser accepts `data` (no error); stops the process as
    /// `run` does on an error that is not one dualcam line.
    public func accepts(_ data: Data) -> Bool {
        do {
            try body(data)
            return true
        } catch {
            Self.check(error, target: name)
            return false
        }
    }

    /// Stops the process unless `error` is a `DualcamError` (or the geometry
    /// core's `GeometryError`, which the commands wrap with the flag's name)
    /// whose description is a single line.
    static func check(_ error: Error, target: String) {
        let text: String
        if let error = error as? DualcamError {
            text = error.description
        } else if let error = error as? GeometryError {
            text = DualcamError.invalidValue(name: "flag", reason: error.description).description  // as the commands show it
        } else {
            fatalError("\(target): the parser threw \(type(of: error)), not a DualcamError: \(error)")
        }
        guard !text.isEmpty, !text.contains(where: \.isNewline) else {
            fatalError("\(target): the error is not one line: \(text.debugDescription)")
        }
    }
}

/// A private directory for parsers that read files (their real entry point:
/// the extension picks the format), one per process.
enum FuzzFiles {
    static let directory: URL = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("dualcam-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }()

    /// Writes `data` to `name` in the directory and returns its URL.
    static func write(_ data: Data, as name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: data) else {
            fatalError("dualcam-fuzz: cannot write \(url.path)")
        }
        return url
    }

    /// The bytes as text: invalid UTF-8 is repaired, as `String(decoding:)` does.
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
