import DualcamSupport
import Foundation

/// The batch's own files under the output root, beside the recordings' outputs:
///
///     OUTPUT/.dualcam-batch/records/KEY.json    completion records (`CompletionRecord`)
///     OUTPUT/.dualcam-batch/staging/KEY.ID/     a running unit's outputs until published
///     OUTPUT/.dualcam-batch/locks/KEY.lock      held (flock) while a task runs the unit
///
/// Publishing a unit renames each staged file into the recording's output
/// directory (rename(2): every file appears whole), then writes the record
/// (`AtomicFile`): a unit counts as done only once its record is there, so
/// a task killed at any point leaves no unit that looks done without all
/// its outputs. A staging directory (or a record's temporary file) left by a
/// killed task is removed by the next task that takes the unit's lock
/// (nothing else is ever removed).
public struct BatchStore: Sendable {
    public let root: URL
    public var directory: URL { root.appendingPathComponent(".dualcam-batch", isDirectory: true) }
    public var records: URL { directory.appendingPathComponent("records", isDirectory: true) }
    public var staging: URL { directory.appendingPathComponent("staging", isDirectory: true) }
    public var locks: URL { directory.appendingPathComponent("locks", isDirectory: true) }

    public init(root: URL) { self.root = root }

    /// Creates the directories (and the root) when missing.
    public func prepare() throws {
        for dir in [records, staging, locks] {
            do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw DualcamError.io(path: dir.path, reason: "cannot create the batch directory: \(error.localizedDescription)")
            }
        }
    }

    public func recordURL(_ key: String) -> URL { records.appendingPathComponent(key + ".json") }

    /// The unit's record, nil when there is none; an unreadable one is
    /// reported through `problem` and taken as none (the unit runs again).
    public func record(_ key: String, problem: ((String) -> Void)? = nil) -> CompletionRecord? {
        let url = recordURL(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try CompletionRecord.read(url) } catch {
            problem?("\(error)")
            return nil
        }
    }

    /// Every record's key present (for records no plan unit matches).
    public func recordKeys() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    public func write(_ record: CompletionRecord) throws {
        try AtomicFile.write(try record.encoded(), to: recordURL(record.unit))
    }

    /// An exclusive lock on a unit (flock on its lock file), held until `release()`.
    public final class UnitLock {
        private let fd: Int32
        init(fd: Int32) { self.fd = fd }
        public func release() { close(fd) }
        deinit { close(fd) }
    }

    /// The unit's lock, or nil when another process holds it (it is running the unit).
    public func lock(_ key: String) throws -> UnitLock? {
        let path = locks.appendingPathComponent(key + ".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DualcamError.io(path: path, reason: "cannot open the lock file: \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return UnitLock(fd: fd)
    }

    /// Whether another process holds the unit's lock now.
    public func isLocked(_ key: String) -> Bool {
        let path = locks.appendingPathComponent(key + ".lock").path
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }

    /// Staging directories of units whose lock nobody holds: left by killed tasks.
    public func staleStaging(of key: String? = nil) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        return names.filter { name in
            guard let dot = name.lastIndex(of: ".") else { return false }
            let unit = String(name[..<dot])
            return (key == nil || unit == key) && !isLocked(unit)
        }.sorted().map { staging.appendingPathComponent($0, isDirectory: true) }
    }

    /// A fresh staging directory for a unit whose lock the caller holds;
    /// the unit's stale ones (from killed tasks) are removed first, and so is
    /// the temporary file of a record a killed task was writing
    /// (`.KEY.tmp-PID-N.json`, never renamed: the record does not count).
    public func makeStaging(_ key: String) throws -> StagedDirectory {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        for name in names where name.hasPrefix(key + ".") && !name.dropFirst(key.count + 1).contains(".") {
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(name))
        }
        let recordNames = (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []
        for name in recordNames where name.hasPrefix(".\(key).tmp-") && name.hasSuffix(".json") {
            try? FileManager.default.removeItem(at: records.appendingPathComponent(name))
        }
        let url = staging.appendingPathComponent("\(key).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))",
                                                 isDirectory: true)
        return try StagedDirectory(at: url, for: url.path)
    }
}
