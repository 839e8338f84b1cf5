import COpenCVShim
import DualcamSupport

/// A video file being written through OpenCV (cv::VideoWriter, FFmpeg backend
/// when available). Frames are 8-bit BGR (3 channels) or grey (1 channel) of
/// exactly `width` x `height`. Not atomic by itself: `DualcamImaging.VideoWriter`
/// writes to a temporary file and renames it. The handle is freed in deinit
/// (which also closes the file if `release()` was not called).
public final class CVVideoWriter {
    private let handle: OpaquePointer
    public let path: String
    public let width: Int, height: Int
    public let fps: Double

    /// Opens `path` for `fourcc` ("MJPG", "mp4v", ...: exactly 4 ASCII
    /// characters); the container follows the path's extension.
    public init(path: String, fourcc: String, fps: Double, width: Int, height: Int, isColor: Bool = true) throws {
        let code = Array(fourcc.utf8)
        guard code.count == 4, code.allSatisfy({ $0 >= 32 && $0 < 127 }) else {
            throw DualcamError.invalidValue(name: "fourcc", reason: "'\(fourcc)' is not 4 ASCII characters (e.g. MJPG)")
        }
        guard let w = Int32(exactly: width), let h = Int32(exactly: height) else {
            throw DualcamError.invalidValue(name: "video size", reason: "\(width)x\(height) is out of range")
        }
        let chars = code.map { CChar(bitPattern: $0) }
        var handle: OpaquePointer?
        try Shim.call("VideoWriter open", .file(path)) {
            dc_video_writer_open(path, chars, fps, w, h, isColor ? 1 : 0, &handle, $0)
        }
        self.handle = handle!
        self.path = path
        self.width = width
        self.height = height
        self.fps = fps
    }

    deinit { dc_video_writer_free(handle) }

    /// Appends one frame (8-bit, BGR or grey, the writer's size).
    public func write(_ frame: CVMat) throws {
        try Shim.call("VideoWriter write", .content(path)) { dc_video_writer_write(handle, frame.handle, $0) }
    }

    /// Finishes the file. Later writes and releases throw.
    public func release() throws {
        try Shim.call("VideoWriter release", .file(path)) { dc_video_writer_release(handle, $0) }
    }
}

/// A video file being read through OpenCV (cv::VideoCapture). Frames come back
/// as 8-bit BGR matrices. The handle is freed in deinit.
public final class CVVideoReader {
    private let handle: OpaquePointer
    public let path: String
    public let width: Int, height: Int
    /// Nominal frame rate (0 when the container does not say).
    public let fps: Double
    /// Frame count from the container (0 when unknown; an estimate for some formats).
    public let frameCount: Int

    /// Opens `path`: a missing file is `DualcamError.io(path:reason:)`, one no
    /// backend can decode `.format(path:reason:)`.
    public init(path: String) throws {
        var handle: OpaquePointer?
        try Shim.call("VideoCapture open", .file(path)) { dc_video_reader_open(path, &handle, $0) }
        var w: Int32 = 0, h: Int32 = 0, rate = 0.0, count: Int64 = 0
        do {
            try Shim.call("VideoCapture info", .file(path)) { dc_video_reader_info(handle, &w, &h, &rate, &count, $0) }
        } catch {
            dc_video_reader_free(handle)
            throw error
        }
        self.handle = handle!
        self.path = path
        width = Int(w)
        height = Int(h)
        fps = rate
        frameCount = Int(count)
    }

    deinit { dc_video_reader_free(handle) }

    /// The next frame (8-bit BGR), or nil at the end of the stream.
    public func next() throws -> CVMat? {
        var frame: OpaquePointer?
        var got: Int32 = 0
        try Shim.call("VideoCapture read", .file(path)) { dc_video_reader_next(handle, &frame, &got, $0) }
        guard got != 0, let frame else { return nil }
        return try CVMat(adopting: frame)
    }
}
