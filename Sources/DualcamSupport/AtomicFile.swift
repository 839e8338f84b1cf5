import Foundation

/// Writes files so that a reader never sees a partial or corrupted result:
/// the content goes to a hidden temporary file in the destination's directory,
/// which is renamed over the destination only after the write succeeded
/// (rename(2) within one directory is atomic on POSIX file systems).
/// On any failure the temporary file is removed and the destination is untouched.
public enum AtomicFile {
    /// Writes `data` to `url` atomically.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { temporary in
            do {
                try data.write(to: temporary)
            } catch {
                throw DualcamError.io(path: url.path, reason: "cannot write: \(error.localizedDescription)")
            }
        }
    }

    /// Writes a UTF-8 string to `url` atomically.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Calls `body` with a temporary path (same directory, same extension as `url`,
    /// so that extension-driven encoders pick the right format) and renames it to
    /// `url` once `body` returns without throwing.
    public static func write(to url: URL, _ body: (URL) throws -> Void) throws {
        let temporary = try temporaryURL(for: url)
        defer { StagingRegistry.unregister(temporary) }
        do {
            try body(temporary)
            try moveIntoPlace(temporary, url)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// A fresh hidden temporary path in `url`'s directory with `url`'s
    /// extension, for writers that produce a file over time (video) and call
    /// `moveIntoPlace` when done. Throws if the directory does not exist or
    /// `url` is an existing directory. The path is registered with
    /// `StagingRegistry` (removed on SIGINT/SIGTERM) until `moveIntoPlace`.
    public static func temporaryURL(for url: URL) throws -> URL {
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw DualcamError.io(path: url.path, reason: "directory \(directory.path) does not exist")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DualcamError.io(path: url.path, reason: "is a directory; expected a file path to write")
        }
        let ext = url.pathExtension
        let name = ".\(url.deletingPathExtension().lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let temporary = directory.appendingPathComponent(ext.isEmpty ? name : name + "." + ext)
        StagingRegistry.register(temporary)
        return temporary
    }

    /// Renames a finished `temporary` (from `temporaryURL(for:)`) over `url`.
    /// Does not remove `temporary` on failure; callers do.
    public static func moveIntoPlace(_ temporary: URL, _ url: URL) throws {
        guard FileManager.default.fileExists(atPath: temporary.path) else {
            throw DualcamError.io(path: url.path, reason: "the encoder wrote nothing")
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            throw DualcamError.io(path: url.path, reason: "cannot move into place: \(reason)")
        }
        StagingRegistry.unregister(temporary)
    }
}
