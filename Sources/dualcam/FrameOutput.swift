import DualcamImaging
import DualcamSupport
import Foundation

/// Where a command writes a series of frames: numbered PNGs in a directory
/// (`frame_0000.png`, ...) or one video file (by extension, `VideoIO.isVideo`).
/// Nothing appears at the destination until `finish()`: PNG frames go to a
/// hidden staging directory next to it and are renamed into place; a video
/// is written to a temporary file by `VideoWriter`. Dropping the output
/// without finishing removes what was written.
final class FrameOutput {
    let path: String
    let url: URL
    let isVideo: Bool
    private let fps: Double
    private var video: VideoWriter?
    private var staging: URL?
    private var names: [String] = []

    /// Validates the destination before any frame is made.
    init(path: String, fps: Double) throws {
        self.path = path
        url = URL(fileURLWithPath: path)
        isVideo = VideoIO.isVideo(url)
        self.fps = fps
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if isVideo {
            guard fps.isFinite, fps > 0, fps <= 240 else {
                throw DualcamError.invalidValue(name: "--fps", reason: "expected a frame rate above 0 and at most 240")
            }
        } else if fm.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw DualcamError.io(path: path, reason: "exists and is not a directory")
        }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: path, reason: "parent directory \(parent.path) does not exist")
        }
    }

    deinit {
        if let staging {
            try? FileManager.default.removeItem(at: staging)
            StagingRegistry.unregister(staging)
        }
    }

    /// Appends a frame (converted to 8-bit).
    func write(_ frame: Image) throws {
        let image = frame.converted(to: .uint8)
        if isVideo {
            if video == nil { video = try VideoWriter(url: url, fps: fps, width: image.width, height: image.height) }
            try video!.write(image)
            names.append(path)
            return
        }
        if staging == nil {
            let dir = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).staging-\(UUID().uuidString)")
            try Self.createDirectory(dir, for: path)
            StagingRegistry.register(dir)
            staging = dir
        }
        let name = String(format: "frame_%04d.png", names.count)
        try ImageIO.write(image, to: staging!.appendingPathComponent(name))
        names.append(name)
    }

    /// Moves everything into place; returns the paths written.
    func finish() throws -> [String] {
        if let video {
            try video.finish()
            return [path]
        }
        guard let staging else { return [] }
        try Self.createDirectory(url, for: path)
        do {
            for name in names {
                // rename(2) replaces a file of that name; a directory in the way is an error, never removed.
                try AtomicFile.moveIntoPlace(staging.appendingPathComponent(name), url.appendingPathComponent(name))
            }
        } catch {
            throw DualcamError.io(path: path, reason: "cannot write the frames: \(error.localizedDescription)")
        }
        return names.map { url.appendingPathComponent($0).path }
    }

    var frameCount: Int { names.count }

    private static func createDirectory(_ url: URL, for path: String) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw DualcamError.io(path: path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
    }
}

/// A one-line progress indicator on stderr, shown only when stderr is a terminal.
struct Progress {
    let label: String
    let total: Int?
    let enabled = isatty(STDERR_FILENO) != 0

    func update(_ done: Int) {
        guard enabled else { return }
        let text = total.map { "\r\(label) \(done)/\($0)" } ?? "\r\(label) \(done)"
        FileHandle.standardError.write(Data(text.utf8))
    }

    func end() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))  // clear the line
    }
}
