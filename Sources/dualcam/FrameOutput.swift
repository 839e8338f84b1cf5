import DualcamImaging
import DualcamSupport
import Foundation

/// Where a command writes a series of frames: numbered PNGs in a directory
/// (`frame_0000.png`, ...) or one video file (by extension, `VideoIO.isVideo`).
/// Nothing appears at the destination until `finish()`: PNG frames go to a
/// `StagedDirectory` beside it and are renamed into place; a video is
/// written to a temporary file by `VideoWriter`. Dropping the output
/// without finishing removes what was written.
final class FrameOutput {
    let path: String
    let url: URL
    let isVideo: Bool
    private let fps: Double
    private var video: VideoWriter?
    private var staging: StagedDirectory?
    private var names: [String] = []

    /// Validates the destination before any frame is made.
    init(path: String, fps: Double) throws {
        self.path = path
        url = URL(fileURLWithPath: path)
        isVideo = VideoIO.isVideo(url)
        self.fps = fps
        if isVideo, !(fps.isFinite && fps > 0 && fps <= 240) {
            throw DualcamError.invalidValue(name: "--fps", reason: "expected a frame rate above 0 and at most 240")
        }
        try StagedDirectory.checkDestination(url, allowFile: isVideo)
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
        if staging == nil { staging = try StagedDirectory(beside: url, tag: "staging") }
        let name = String(format: "frame_%04d.png", names.count)
        try ImageIO.write(image, to: staging!.url(for: name))
        names.append(name)
    }

    /// Moves everything into place; returns the paths written.
    func finish() throws -> [String] {
        if let video {
            try video.finish()
            return [path]
        }
        guard let staging else { return [] }
        do { try staging.publish(names, to: url) } catch {
            throw DualcamError.io(path: path, reason: "cannot write the frames: \(error.localizedDescription)")
        }
        return names.map { url.appendingPathComponent($0).path }
    }

    var frameCount: Int { names.count }
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
