import DualcamCalibrationFiles
import DualcamSupport
import Foundation

/// The work of a batch run (`dualcam batch`), read from YAML or JSON (JSON
/// is read as YAML). Paths are relative to the manifest's directory.
///
/// ```yaml
/// version: 1
/// output: out                 # output root: each recording writes OUTPUT/<name>/
/// chunk_pairs: 50             # pairs per unit of work (default 100)
/// job: depth                  # default job: depth | fuse | converge
/// calibration: rig.yaml       # default calibration
/// options:                    # default options of the default job: the command's
///   size: streaming           #   flags without "--" (true = a bare flag)
/// recordings:
///   - name: drive1            # letters, digits, '.', '_', '-'
///     wide: drive1/wide       # image directories or videos (as --wide/--tele)
///     tele: drive1/tele
///   - name: day2
///     capture: day2           # a `dualcam capture` directory: wide/, tele/, pairs.csv
///     job: converge
///     options: {distance: 1.2m}
///     output: converged/day2  # instead of OUTPUT/day2 (inside the output root)
///   - name: lidar
///     job: fuse
///     wide: lidar/wide
///     tele: lidar/tele
///     samples: lidar/samples  # fuse: one samples file per pair, named after the wide frame
/// ```
///
/// A recording's `options` are added to the top-level ones when it runs the
/// top-level job (its own value wins), and stand alone otherwise. Unknown
/// keys are errors (a misspelt key is never ignored). Which option names a
/// job accepts is checked by the command, not here.
public struct BatchManifest: Sendable {
    public enum Job: String, Sendable, CaseIterable, Codable {
        case depth, fuse, converge
    }

    /// A recording's frames: two sequences, or a capture directory.
    public enum Source: Sendable, Equatable {
        case pair(wide: URL, tele: URL)
        /// `DIR` holding `wide/`, `tele/` and `pairs.csv` (`dualcam capture`).
        case capture(URL)

        public var wide: URL {
            switch self {
            case let .pair(wide, _): return wide
            case let .capture(dir): return dir.appendingPathComponent("wide")
            }
        }

        public var tele: URL {
            switch self {
            case let .pair(_, tele): return tele
            case let .capture(dir): return dir.appendingPathComponent("tele")
            }
        }
    }

    /// One job option: `--name value`, or `--name` alone when `value` is nil.
    public struct Option: Sendable, Equatable, Codable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public struct Recording: Sendable {
        public var name: String
        public var source: Source
        public var calibration: URL
        public var job: Job
        /// Sorted by name (so the same options give the same flags).
        public var options: [Option]
        /// fuse: the directory of per-pair samples files.
        public var samples: URL?
        /// Where its outputs go (a directory inside the output root).
        public var output: URL

        /// The options as command-line flags, in name order.
        public var flags: [String] { options.flatMap { ["--\($0.name)"] + ($0.value.map { [$0] } ?? []) } }
    }

    /// The manifest file.
    public let url: URL
    public let outputRoot: URL
    /// Pairs per unit of work.
    public let chunkPairs: Int
    public let recordings: [Recording]

    public static let defaultChunkPairs = 100

    /// Reads and checks `url` (syntax, keys, names, duplicate outputs); the
    /// files it names are checked by `checkInputs()`.
    public static func read(_ url: URL) throws -> BatchManifest {
        try parse(YAMLBudget.readText(url), file: url.path, base: url.deletingLastPathComponent())
    }

    /// Parses manifest text (`file` names it in errors; relative paths resolve against `base`).
    public static func parse(_ text: String, file: String, base: URL) throws -> BatchManifest {
        guard let root = try YAMLBudget.load(text, file: file) else {
            throw DualcamError.format(path: file, reason: "empty manifest; expected a mapping with version, output and recordings")
        }
        let reader = FieldReader(file: file, base: base)
        let map = try reader.mapping(root, "the manifest")
        try reader.onlyKeys(map, ["version", "output", "chunk_pairs", "job", "calibration", "options", "recordings"], in: "the manifest")
        let version = try reader.integer(map["version"], "version", in: 1...1_000_000)
        guard version == 1 else { throw reader.fail("version", "\(version) is not supported; expected 1") }
        guard let outputText = try reader.string(map["output"], "output") else {
            throw reader.fail("output", "missing; expected the output root directory")
        }
        let outputRoot = reader.path(outputText)
        let chunkPairs = try map["chunk_pairs"].map { try reader.integer($0, "chunk_pairs", in: 1...1_000_000) } ?? defaultChunkPairs
        let defaultJob = try map["job"].map { try reader.job($0, "job") }
        let defaultCalibration = try reader.string(map["calibration"], "calibration").map(reader.path)
        let defaultOptions = try reader.options(map["options"], "options")
        guard let list = map["recordings"] else { throw reader.fail("recordings", "missing; expected a list of recordings") }
        guard let items = list as? [Any], !items.isEmpty else { throw reader.fail("recordings", "expected a non-empty list") }
        try InputLimits.checkCount(items.count, limit: InputLimits.maxBatchRecordings, limitName: "maxBatchRecordings",
                                   what: "recordings", name: "\(file): recordings")
        var recordings: [Recording] = []
        for (i, item) in items.enumerated() {
            let at = "recordings[\(i)]"
            let r = try reader.mapping(item, at)
            try reader.onlyKeys(r, ["name", "wide", "tele", "capture", "calibration", "job", "options", "samples", "output"], in: at)
            guard let name = try reader.string(r["name"], "\(at).name") else { throw reader.fail("\(at).name", "missing") }
            try checkName(name, field: "\(at).name", reader)
            let source: Source
            switch (try reader.string(r["wide"], "\(at).wide"), try reader.string(r["tele"], "\(at).tele"),
                    try reader.string(r["capture"], "\(at).capture")) {
            case let (w?, t?, nil): source = .pair(wide: reader.path(w), tele: reader.path(t))
            case let (nil, nil, c?): source = .capture(reader.path(c))
            default: throw reader.fail(at, "give wide and tele, or capture (a dualcam capture directory)")
            }
            guard let job = try r["job"].map({ try reader.job($0, "\(at).job") }) ?? defaultJob else {
                throw reader.fail("\(at).job", "missing (and no top-level job); expected depth, fuse or converge")
            }
            guard let calibration = try reader.string(r["calibration"], "\(at).calibration").map(reader.path) ?? defaultCalibration else {
                throw reader.fail("\(at).calibration", "missing (and no top-level calibration); expected the rig's calibration file")
            }
            var merged: [String: String?] = [:]
            if job == defaultJob { for o in defaultOptions { merged[o.name] = o.value } }
            for o in try reader.options(r["options"], "\(at).options") { merged[o.name] = o.value }
            let options = merged.keys.sorted().map { Option(name: $0, value: merged[$0]!) }
            let samples = try reader.string(r["samples"], "\(at).samples").map(reader.path)
            if job == .fuse, samples == nil { throw reader.fail("\(at).samples", "missing; fuse needs a directory of per-pair samples files") }
            if job != .fuse, samples != nil { throw reader.fail("\(at).samples", "only a fuse job takes samples") }
            let outputText = try reader.string(r["output"], "\(at).output") ?? name
            let output = try outputPath(outputText, root: outputRoot, field: "\(at).output", reader)
            recordings.append(Recording(name: name, source: source, calibration: calibration, job: job, options: options,
                                        samples: samples, output: output))
        }
        try checkDistinct(recordings, reader)
        return BatchManifest(url: URL(fileURLWithPath: file), outputRoot: outputRoot, chunkPairs: chunkPairs, recordings: recordings)
    }

    /// Names become file names of records and default output directories.
    static func checkName(_ name: String, field: String, _ reader: FieldReader) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...100).contains(name.count), name.allSatisfy(allowed.contains), name.first != ".", name.first != "-" else {
            throw reader.fail(field, "'\(PrintableText.escaped(name, limit: 60))' is not a usable name; expected 1-100 letters, digits, '.', '_' or '-', not starting with '.' or '-'")
        }
    }

    /// A recording's output: relative to the root, inside it.
    static func outputPath(_ text: String, root: URL, field: String, _ reader: FieldReader) throws -> URL {
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        guard !text.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == "." || $0 == ".." }) else {
            throw reader.fail(field, "'\(PrintableText.escaped(text, limit: 60))' must be a relative path inside the output root, without '.' or '..'")
        }
        for part in parts { try checkName(String(part), field: field, reader) }
        return parts.reduce(root) { $0.appendingPathComponent(String($1), isDirectory: true) }.standardizedFileURL
    }

    /// Unique names; no two outputs equal or nested (one would write into the other).
    static func checkDistinct(_ recordings: [Recording], _ reader: FieldReader) throws {
        var names: [String: Int] = [:]
        for (i, r) in recordings.enumerated() {
            if let j = names.updateValue(i, forKey: r.name) {
                throw reader.fail("recordings[\(i)].name", "'\(r.name)' is also recordings[\(j)]'s name; names must be unique")
            }
        }
        let outputs = recordings.enumerated().map { ($0.offset, $0.element.output.path + "/") }.sorted { $0.1 < $1.1 }
        for (a, b) in zip(outputs, outputs.dropFirst()) where b.1.hasPrefix(a.1) {
            let (i, j) = (min(a.0, b.0), max(a.0, b.0))
            let how = a.1 == b.1 ? "the same output directory as" : "an output directory nested with that of"
            throw reader.fail("recordings[\(j)].output", "\(recordings[j].name) has \(how) recordings[\(i)] (\(recordings[i].name)): \(String(b.1.dropLast())); outputs must be distinct")
        }
    }

    /// Every file the manifest names exists (recordings, calibrations,
    /// samples), and no output directory is an input directory or inside
    /// one, nor holds one (its outputs would be read as frames next time).
    public func checkInputs() throws {
        let fm = FileManager.default
        var inputDirectories: [(String, URL)] = []
        for (i, r) in recordings.enumerated() {
            let at = "recordings[\(i)] (\(r.name))"
            var named: [(String, URL)] = [("wide", r.source.wide), ("tele", r.source.tele), ("calibration", r.calibration)]
            if case let .capture(dir) = r.source {
                named.insert(("capture", dir), at: 0)
                named.append(("capture pairs.csv", dir.appendingPathComponent("pairs.csv")))
            }
            if let s = r.samples { named.append(("samples", s)) }
            for (what, url) in named where !fm.fileExists(atPath: url.path) {
                throw DualcamError.io(path: url.path, reason: "no such file or directory (\(at) \(what), in \(self.url.path))")
            }
            for (what, url) in named where ["wide", "tele", "capture", "samples"].contains(what) {
                inputDirectories.append(("\(at) \(what)", url))
            }
        }
        for (i, r) in recordings.enumerated() {
            let out = r.output.standardizedFileURL.path + "/"
            for (what, url) in inputDirectories {
                let input = url.standardizedFileURL.path + "/"
                if out.hasPrefix(input) || input.hasPrefix(out) {
                    throw DualcamError.invalidValue(name: "\(self.url.path): recordings[\(i)] (\(r.name)) output \(r.output.path)",
                                                    reason: "overlaps the input \(url.path) (\(what)); write the outputs elsewhere")
                }
            }
        }
    }
}
