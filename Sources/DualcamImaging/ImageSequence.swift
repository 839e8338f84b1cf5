import DualcamSupport
import Foundation

/// A sequence of frames read one at a time: a directory of image files
/// (every file with a supported image extension, in natural name order, so
/// `frame2.png` comes before `frame10.png`) or a video file (`VideoIO.isVideo`).
public final class ImageSequence {
    public let url: URL
    /// The number of frames when known in advance (a directory, or a video
    /// whose container records it), else nil.
    public let count: Int?
    private var files: [URL]
    private let video: VideoReader?
    private var position = 0

    /// True when `url` names a directory or a video file.
    public static func isSequence(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { return true }
        return VideoIO.isVideo(url)
    }

    public init(url: URL) throws {
        self.url = url
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            files = try Self.imageFiles(in: url)
            video = nil
            count = files.count
        } else {
            video = try VideoReader(url: url)
            files = []
            count = video!.frameCount > 0 ? video!.frameCount : nil
        }
    }

    /// The image files of a directory in the order a sequence reads them
    /// (hidden files and other extensions left out); none is an error.
    public static func imageFiles(in url: URL) throws -> [URL] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch {
            throw DualcamError.io(path: url.path, reason: "cannot list the directory: \(error.localizedDescription)")
        }
        let files = names.filter { !$0.hasPrefix(".") && ImageFormat(pathExtension: ($0 as NSString).pathExtension) != nil }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
            .map { url.appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw DualcamError.format(path: url.path, reason: "the directory holds no image files (.png, .jpg, .tif, .pfm, ...)")
        }
        return files
    }

    /// The next frame and, for directories, its file; nil at the end.
    public func next() throws -> (image: Image, file: URL?)? {
        if let video {
            return try video.next().map { ($0, nil) }
        }
        guard position < files.count else { return nil }
        defer { position += 1 }
        return (try ImageIO.read(files[position]), files[position])
    }
}
