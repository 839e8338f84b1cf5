import DualcamSupport
import Foundation

/// A file a unit depends on, as seen before the unit ran: its size in
/// bytes and modification time in nanoseconds since 1970 (a missing file
/// has size -1). A change of either means the file changed.
public struct FileStamp: Equatable, Sendable, Codable {
    public var path: String
    public var bytes: Int64
    public var modifiedNs: Int64

    public init(path: String, bytes: Int64, modifiedNs: Int64) {
        self.path = path
        self.bytes = bytes
        self.modifiedNs = modifiedNs
    }

    /// stat(2) of `url` (following links).
    public static func of(_ url: URL) -> FileStamp {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return FileStamp(path: url.path, bytes: -1, modifiedNs: 0) }
        let ns = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return FileStamp(path: url.path, bytes: Int64(info.st_size), modifiedNs: ns)
    }
}

/// What a unit's result depends on: the job and its flags, the dualcam
/// version, and every input file (frames of the unit and its warm-up, their
/// per-frame sidecars, the timestamps files, the calibration, samples).
public struct UnitInputs: Equatable, Sendable, Codable {
    public var job: String
    public var flags: [String]
    public var dualcamVersion: String
    public var files: [FileStamp]

    public init(job: String, flags: [String], dualcamVersion: String, files: [FileStamp]) {
        self.job = job
        self.flags = flags
        self.dualcamVersion = dualcamVersion
        self.files = files
    }

    /// Why `self` (now) differs from `recorded` (when the unit was done), or nil when it does not.
    public func change(since recorded: UnitInputs) -> String? {
        if recorded.dualcamVersion != dualcamVersion {
            return "dualcam version changed (\(recorded.dualcamVersion) -> \(dualcamVersion))"
        }
        if recorded.job != job { return "job changed (\(recorded.job) -> \(job))" }
        if recorded.flags != flags {
            return "options changed ('\(recorded.flags.joined(separator: " "))' -> '\(flags.joined(separator: " "))')"
        }
        let old = Dictionary(recorded.files.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for file in files {
            guard let before = old[file.path] else { return "input added: \(file.path)" }
            if before.bytes != file.bytes {
                return file.bytes < 0 ? "input removed: \(file.path)" : "input changed: \(file.path) (\(before.bytes) -> \(file.bytes) bytes)"
            }
            if before.modifiedNs != file.modifiedNs { return "input changed: \(file.path) (modified since)" }
        }
        let now = Set(files.map(\.path))
        if let gone = recorded.files.first(where: { !now.contains($0.path) }) {
            return "input no longer used: \(gone.path) (the pairing changed)"
        }
        return nil
    }
}

/// The completion record of a unit (`OUTPUT/.dualcam-batch/records/KEY.json`),
/// written after its outputs are in place, or with `status` failed and the
/// reason when the unit failed (its outputs are then not written).
public struct CompletionRecord: Equatable, Sendable, Codable {
    public enum Status: String, Sendable, Codable { case done, failed }

    public var formatVersion = 1
    public var unit: String
    public var recording: String
    /// Pairs `firstPair ..< endPair` were written (`endPair` as found for an open end).
    public var firstPair: Int
    public var endPair: Int
    public var warmUpPairs: Int
    public var status: Status
    /// Why the unit failed (one line).
    public var reason: String?
    public var inputs: UnitInputs
    /// Files written into the recording's output directory (names).
    public var outputs: [String]
    public var milliseconds: Double
    public var task: Int
    public var tasks: Int
    public var host: String
    /// ISO 8601, UTC.
    public var finished: String

    public var pairs: Int { endPair - firstPair }

    public init(unit: BatchUnit, endPair: Int, status: Status, reason: String?, inputs: UnitInputs, outputs: [String],
                milliseconds: Double, task: TaskSelection) {
        self.unit = unit.key
        recording = unit.name
        firstPair = unit.first
        self.endPair = endPair
        warmUpPairs = unit.warmUp
        self.status = status
        self.reason = reason
        self.inputs = inputs
        self.outputs = outputs
        self.milliseconds = milliseconds
        self.task = task.index
        tasks = task.count
        host = ProcessInfo.processInfo.hostName
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        finished = formatter.string(from: Date())
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.keyEncodingStrategy = .convertToSnakeCase
        return e
    }()

    public func encoded() throws -> Data { try Self.encoder.encode(self) }

    /// Reads a record; an unreadable or malformed one is an error naming it
    /// (the caller treats the unit as not done).
    public static func read(_ url: URL) throws -> CompletionRecord {
        let data = try FileContents.read(url)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(CompletionRecord.self, from: data) } catch {
            throw DualcamError.format(path: url.path, reason: "not a dualcam batch completion record")
        }
    }
}
