import Foundation

/// A directory of outputs made in a hidden staging directory and moved into
/// their destination directory by `publish`, so that a failed or interrupted
/// run leaves nothing half-written: the sequence maps of `dualcam depth`, the
/// numbered frames of `converge`, a batch unit's outputs. The staging
/// directory is registered with `StagingRegistry` (removed on SIGINT/SIGTERM)
/// until `discard()` (or deinit) removes it.
///
/// Single files beside their destination are staged by `StagedOutputs`;
/// both rename with `AtomicFile.moveIntoPlace`.
public final class StagedDirectory {
    /// The staging directory.
    public let url: URL

    /// Creates the staging directory `url` (its parent must exist; `url`
    /// must not). Errors name `path` (the output the staging is for).
    public init(at url: URL, for path: String) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false) } catch {
            throw DualcamError.io(path: path, reason: "cannot create the staging directory: \(error.localizedDescription)")
        }
        self.url = url
        StagingRegistry.register(url)
    }

    /// A fresh staging directory beside the output directory `output`
    /// (`.NAME.TAG-UUID`, a new name: nothing that was there is ever removed),
    /// after `checkDestination`.
    public convenience init(beside output: URL, tag: String) throws {
        try Self.checkDestination(output)
        let name = ".\(output.lastPathComponent).\(tag)-\(UUID().uuidString)"
        try self.init(at: output.deletingLastPathComponent().appendingPathComponent(name), for: output.path)
    }

    deinit { discard() }

    /// Throws unless `output` can become a directory of outputs: it is a
    /// directory or does not exist yet (`allowFile`: or is a file, which a
    /// video output replaces), and its parent directory exists.
    public static func checkDestination(_ output: URL, allowFile: Bool = false) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if !allowFile, fm.fileExists(atPath: output.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw DualcamError.io(path: output.path, reason: "exists and is not a directory")
        }
        let parent = output.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: output.path, reason: "parent directory \(parent.path) does not exist")
        }
    }

    /// Where to write the staged file `name`.
    public func url(for name: String) -> URL { url.appendingPathComponent(name) }

    /// Moves every staged `name` into `output` (created when missing),
    /// replacing files of the same name (rename(2): each appears whole; a
    /// directory in the way is an error, never removed).
    public func publish(_ names: [String], to output: URL) throws {
        do { try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) } catch {
            throw DualcamError.io(path: output.path, reason: "cannot create the output directory: \(error.localizedDescription)")
        }
        for name in names {
            try AtomicFile.moveIntoPlace(url(for: name), output.appendingPathComponent(name))
        }
    }

    /// Removes the staging directory and whatever was not published.
    public func discard() {
        try? FileManager.default.removeItem(at: url)
        StagingRegistry.unregister(url)
    }
}
