import DualcamImaging
import DualcamSupport
import Foundation

/// A directory of numbered outputs (maps plus their `.json` sidecars) written
/// through a hidden staging directory beside it, then moved into place by
/// `publish`, so a failed run leaves nothing half-written. The staging
/// directory is removed by `discard` (call it in a `defer`).
struct StagedDirectory {
    let output: URL
    let staging: URL

    /// Checks that `path` is a directory or does not exist yet and that its
    /// parent exists, then creates the staging directory.
    init(output path: String) throws {
        let fm = FileManager.default
        output = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: output.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw DualcamError.io(path: path, reason: "exists and is not a directory")
        }
        let parent = output.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: path, reason: "parent directory \(parent.path) does not exist")
        }
        staging = parent.appendingPathComponent(".\(output.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    /// Where to write the staged file `name`.
    func url(for name: String) -> URL { staging.appendingPathComponent(name) }

    /// Moves every staged `name` and its `name.json` sidecar into the output
    /// directory, replacing files of the same name.
    func publish(_ names: [String]) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: output, withIntermediateDirectories: true)
        for name in names {
            for file in [name, name + ".json"] {
                let destination = output.appendingPathComponent(file)
                try? fm.removeItem(at: destination)
                try fm.moveItem(at: url(for: file), to: destination)
            }
        }
    }

    func discard() { try? FileManager.default.removeItem(at: staging) }
}

/// Opens two frame sequences (directories or videos) that pair by index.
/// Two directories must hold the same number of frames; with a video the
/// shorter sequence ends the run.
func openSequencePair(wide: String, tele: String) throws -> (wide: ImageSequence, tele: ImageSequence) {
    let wideSequence = try ImageSequence(url: URL(fileURLWithPath: wide))
    let teleSequence = try ImageSequence(url: URL(fileURLWithPath: tele))
    if let a = wideSequence.count, let b = teleSequence.count, a != b,
       !VideoIO.isVideo(wideSequence.url), !VideoIO.isVideo(teleSequence.url) {
        throw DualcamError.invalidValue(name: "--wide/--tele",
                                        reason: "\(wide) has \(a) frames but \(tele) has \(b); the sequences must pair up")
    }
    return (wideSequence, teleSequence)
}
