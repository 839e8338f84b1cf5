import Foundation

/// Every file one command writes, published together: each output is
/// written to a hidden temporary file beside its destination
/// (`AtomicFile.temporaryURL`), and `publish()` renames them all into place
/// only once every one was written, so a failure in the last output (a
/// preview, a confidence map) leaves every destination as it was. Until
/// then the temporaries are registered with `StagingRegistry` (removed on
/// SIGINT/SIGTERM) and `discard()` (or deinit) removes them.
///
/// `stage` refuses, before anything is computed, a destination that is an
/// existing directory, that resolves (symbolic links, `..`, hard links) to one
/// of the command's inputs or their `.json` sidecars, or that is given twice;
/// so `-o` equal to an input never overwrites it.
public final class StagedOutputs {
    private struct Entry {
        var temporary: URL
        var destination: URL
    }

    private var entries: [Entry] = []
    private var protected: [(path: String, identity: FileIdentity?, what: String)] = []

    /// `inputs`: the command's input files (a sidecar `<input>.json` is
    /// protected with each).
    public init(inputs: [String]) {
        for input in inputs where !input.isEmpty {
            for path in [input, input + ".json"] {
                protected.append((Self.canonical(path), FileIdentity(path), "input \(input)"))
            }
        }
    }

    deinit { discard() }

    /// Validates the output `path` (named by `flag` in errors) and returns
    /// the temporary URL to write it to (same directory and extension).
    /// With `sidecar`, `<temporary>.json` is published as `<path>.json` too
    /// (and `<path>.json` must not be an input either).
    public func stage(_ path: String, flag: String, sidecar: Bool = false) throws -> URL {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DualcamError.invalidValue(name: "\(flag) \(path)", reason: "is an existing directory; expected a file path")
        }
        try refuseClash(path, flag: flag, sidecar: sidecar)
        let temporary = try AtomicFile.temporaryURL(for: url)
        entries.append(Entry(temporary: temporary, destination: url))
        if sidecar {
            let staged = URL(fileURLWithPath: temporary.path + ".json")
            StagingRegistry.register(staged)
            entries.append(Entry(temporary: staged, destination: URL(fileURLWithPath: path + ".json")))
        }
        for candidate in sidecar ? [path, path + ".json"] : [path] {
            protected.append((Self.canonical(candidate), FileIdentity(candidate), flag))
        }
        return temporary
    }

    /// Throws when the output `path` (a file or a directory, with `sidecar`
    /// also `<path>.json`) resolves to an input or to another output.
    public func refuseClash(_ path: String, flag: String, sidecar: Bool = false) throws {
        for candidate in sidecar ? [path, path + ".json"] : [path] {
            let canonical = Self.canonical(candidate), identity = FileIdentity(candidate)
            if let clash = protected.first(where: { $0.path == canonical || (identity != nil && $0.identity == identity) }) {
                let which = clash.what.hasPrefix("input") ? "is the \(clash.what)" : "is also the output of \(clash.what)"
                throw DualcamError.invalidValue(
                    name: "\(flag) \(path)", reason: "\(candidate == path ? "" : "its sidecar \(candidate) ")\(which); choose another output path")
            }
        }
    }

    /// Renames every staged file into place (all were written: a missing
    /// temporary is an error before anything is renamed).
    public func publish() throws {
        for entry in entries where !FileManager.default.fileExists(atPath: entry.temporary.path) {
            throw DualcamError.io(path: entry.destination.path, reason: "was not written")
        }
        for entry in entries { try AtomicFile.moveIntoPlace(entry.temporary, entry.destination) }
        entries.removeAll()
    }

    /// Removes whatever was staged and not published.
    public func discard() {
        for entry in entries {
            try? FileManager.default.removeItem(at: entry.temporary)
            StagingRegistry.unregister(entry.temporary)
        }
        entries.removeAll()
    }

    /// The absolute path with `.`/`..` and symbolic links resolved (of the
    /// directory when the file does not exist yet).
    static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if FileManager.default.fileExists(atPath: url.path) { return url.resolvingSymlinksInPath().path }
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }
}

/// A file's device and inode: the same file under any name (hard links).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
