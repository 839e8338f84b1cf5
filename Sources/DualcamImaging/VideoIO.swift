import DualcamOpenCV
import DualcamSupport
import Foundation

/// Video files (read and written through OpenCV's videoio).
public enum VideoIO {
    /// File extensions treated as video (lower case, no dot).
    public static let videoExtensions: Set<String> = ["avi", "mp4", "mkv", "mov"]

    /// Whether `url` names a video file, judged by its extension (case-insensitive).
    public static func isVideo(_ url: URL) -> Bool {
        videoExtensions.contains(url.pathExtension.lowercased())
    }
}

/// Writes a video file atomically: frames go to a hidden temporary file with
/// the same extension in the destination's directory, which `finish()` renames
/// over the destination. A writer that fails, or is released without
/// `finish()`, removes its temporary file and leaves the destination untouched.
///
/// Frames are `Image`s of 8-bit RGB or grey pixels of exactly `width` x
/// `height`; channels are converted to OpenCV's BGR order on the way.
public final class VideoWriter {
    public let url: URL
    public let width: Int, height: Int
    public let fps: Double
    public let fourcc: String
    /// Frames written so far.
    public private(set) var frameCount = 0

    private var writer: CVVideoWriter?
    private let temporary: URL
    private var finished = false

    /// Opens a writer for `url` (container from the extension) with the codec
    /// `fourcc` ("MJPG" for .avi, "mp4v" for .mp4, ...). Throws when the
    /// directory does not exist or this OpenCV build cannot write the codec /
    /// container; nothing is left behind then.
    public init(url: URL, fps: Double, width: Int, height: Int, fourcc: String = "MJPG") throws {
        guard fps > 0, fps.isFinite else {
            throw DualcamError.invalidValue(name: "fps", reason: "\(fps) is not a positive frame rate")
        }
        guard width > 0, height > 0, width <= Image.maximumSide, height <= Image.maximumSide else {
            throw DualcamError.invalidValue(name: "video size", reason: "\(width)x\(height) is not a valid frame size")
        }
        self.url = url
        self.width = width
        self.height = height
        self.fps = fps
        self.fourcc = fourcc
        let temporary = try AtomicFile.temporaryURL(for: url)
        self.temporary = temporary
        do {
            writer = try CVVideoWriter(path: temporary.path, fourcc: fourcc, fps: fps, width: width, height: height)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Self.naming(url, instead: temporary, in: error)
        }
    }

    deinit {
        writer = nil  // closes the temporary file
        if !finished { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Appends one frame: 8-bit RGB (3 channels) or grey (1 channel), `width` x `height`.
    public func write(_ image: Image) throws {
        guard let writer else {
            throw DualcamError.io(path: url.path, reason: "the video writer is already finished")
        }
        guard image.element == .uint8, image.channels == 3 || image.channels == 1 else {
            throw DualcamError.invalidValue(
                name: "video frame",
                reason: "\(image.channels)-channel \(image.element) image; \(url.path) takes 8-bit RGB or grey frames")
        }
        guard image.width == width, image.height == height else {
            throw DualcamError.invalidValue(
                name: "video frame",
                reason: "frame is \(image.width)x\(image.height), \(url.path) is \(width)x\(height)")
        }
        do {
            try writer.write(image.makeCVMat())
        } catch {
            throw Self.naming(url, instead: temporary, in: error)
        }
        frameCount += 1
    }

    /// Closes the file and renames it into place. The writer cannot be used afterwards.
    public func finish() throws {
        guard let writer, !finished else {
            throw DualcamError.io(path: url.path, reason: "the video writer is already finished")
        }
        do {
            try writer.release()
            self.writer = nil
            if frameCount == 0 {
                throw DualcamError.io(path: url.path, reason: "no frames were written")
            }
            try AtomicFile.moveIntoPlace(temporary, url)
            finished = true
        } catch {
            self.writer = nil
            try? FileManager.default.removeItem(at: temporary)
            throw Self.naming(url, instead: temporary, in: error)
        }
    }

    /// `error` with the temporary path replaced by the destination's.
    private static func naming(_ url: URL, instead temporary: URL, in error: Error) -> Error {
        guard let error = error as? DualcamError else { return error }
        switch error {
        case let .io(path, reason) where path == temporary.path: return DualcamError.io(path: url.path, reason: reason)
        case let .format(path, reason) where path == temporary.path: return DualcamError.format(path: url.path, reason: reason)
        default: return error
        }
    }
}

/// Reads a video file frame by frame as 8-bit RGB `Image`s.
public final class VideoReader {
    public let url: URL
    private let reader: CVVideoReader

    /// Opens `url`: a missing file is `DualcamError.io`, one that cannot be
    /// decoded `DualcamError.format`, both naming the path.
    public init(url: URL) throws {
        self.url = url
        reader = try CVVideoReader(path: url.path)
    }

    public var width: Int { reader.width }
    public var height: Int { reader.height }
    /// Nominal frame rate (0 when the container does not say).
    public var fps: Double { reader.fps }
    /// Frame count from the container (0 when unknown; an estimate for some
    /// formats: read to the end with `next()` for an exact count).
    public var frameCount: Int { reader.frameCount }

    /// The next frame as 8-bit RGB, or nil at the end of the video.
    public func next() throws -> Image? {
        guard let mat = try reader.next() else { return nil }
        return try Image(mat)
    }
}
