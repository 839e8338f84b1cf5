import DualcamCapture
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
        // A fresh name: nothing that was there before is ever removed.
        staging = parent.appendingPathComponent(".\(output.lastPathComponent).partial-\(UUID().uuidString)")
        try fm.createDirectory(at: staging, withIntermediateDirectories: false)
        StagingRegistry.register(staging)
    }

    /// Where to write the staged file `name`.
    func url(for name: String) -> URL { staging.appendingPathComponent(name) }

    /// Moves every staged `name` and its `name.json` sidecar into the output
    /// directory, replacing files of the same name (rename(2); a directory
    /// in the way is an error, never removed).
    func publish(_ names: [String]) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: output, withIntermediateDirectories: true)
        for name in names {
            for file in [name, name + ".json"] {
                try AtomicFile.moveIntoPlace(url(for: file), output.appendingPathComponent(file))
            }
        }
    }

    func discard() {
        try? FileManager.default.removeItem(at: staging)
        StagingRegistry.unregister(staging)
    }
}

/// The pairs of two frame sequences (directories or videos) given as
/// --wide/--tele (`FilePairs`): two directories with timestamps
/// (`timestamps.csv` or nanosecond file names) pair by timestamp within
/// --max-skew (default: half the wide stream's frame interval), so dropped
/// frames and unequal lengths are fine; otherwise frames pair by index
/// (directories must hold the same number of frames; with a video the
/// shorter sequence ends the run).
func openFilePairs(wide: String, tele: String, maxSkew: String?) throws -> PairSource {
    let skew = try maxSkew.map { text in try parseFlag("--max-skew", text) { try parseDurationNs($0, bareUnit: 1_000_000) } }
    return try FilePairs.open(wide: wide, tele: tele, nominalFPS: 30, maxSkewNs: skew)
}

/// The image file a sequence frame came from (for per-frame intrinsics
/// sidecars); nil for a video frame.
func sourceFile(of frame: Frame) -> URL? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: frame.origin, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
    return URL(fileURLWithPath: frame.origin)
}

/// How the pairs were made, for the summary line: timestamp pairing reports
/// its skew and the frames left unpaired.
func pairingSummary(_ source: PairSource) -> String {
    guard source is SynchronizedPairSource else { return "paired by index" }
    let s = source.statistics
    return "paired by timestamp (skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs)); unpaired wide \(s.unpairedWide), tele \(s.unpairedTele))"
}
