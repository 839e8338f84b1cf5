import DualcamCalibrationFiles
import DualcamImaging
import DualcamSupport
import Foundation

/// How a file source timestamps its frames.
public enum FileTimestamps: String, Sendable {
    /// `timestamps.csv` in the directory.
    case csv
    /// Nanosecond file names (`1403636579763555584.png`).
    case fileNames = "file names"
    /// index / rate (the video's rate, or the nominal rate given).
    case nominalRate = "nominal rate"
}

/// The frames of a directory (timestamps from `timestamps.csv`, the file
/// names, else index / `nominalFPS`) or a video (index / its rate). Per-frame
/// intrinsics sidecars next to directory frames are attached.
public final class SequenceSource: FrameSource {
    public let role: CameraRole
    public let path: String
    public let timestamps: FileTimestamps
    public let count: Int?
    public let isVideo: Bool
    private let sequence: ImageSequence
    private let csv: [String: Int64]?
    private let periodNs: Double
    private var index = 0
    private var lastTimestamp: Int64?

    public init(path: String, role: CameraRole, nominalFPS: Double) throws {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw DualcamError.io(path: path, reason: "no such file or directory")
        }
        self.role = role
        self.path = path
        sequence = try ImageSequence(url: url)
        count = sequence.count
        isVideo = VideoIO.isVideo(url)
        let csvURL = url.appendingPathComponent(TimestampsCSV.fileName)
        var fps = nominalFPS
        if !isVideo, FileManager.default.fileExists(atPath: csvURL.path) {
            csv = try TimestampsCSV.read(csvURL)
            timestamps = .csv
        } else if !isVideo, let first = Self.firstFileName(url), TimestampsCSV.timestamp(fromName: first) != nil {
            csv = nil
            timestamps = .fileNames
        } else {
            csv = nil
            timestamps = .nominalRate
            if isVideo, let rate = try? VideoReader(url: url).fps, rate > 0 { fps = rate }
        }
        periodNs = 1e9 / fps
    }

    private static func firstFileName(_ url: URL) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && ImageFormat(pathExtension: ($0 as NSString).pathExtension) != nil }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }.first
    }

    public func next() throws -> Frame? {
        guard let (image, file) = try sequence.next() else { return nil }
        defer { index += 1 }
        let t = try timestamp(index: index, file: file)
        lastTimestamp = t
        let k = try file.flatMap { try FrameIntrinsicsSidecar.read(besides: $0) }
        return Frame(role: role, timestampNs: t, sequence: index, intrinsics: k, image: image, origin: file?.path ?? "\(path)#\(index)")
    }

    /// Frame `index`'s timestamp (from the CSV, its file name or the rate),
    /// checked to increase on the previous frame's.
    private func timestamp(index: Int, file: URL?) throws -> Int64 {
        let name = file?.lastPathComponent
        let t: Int64
        switch timestamps {
        case .csv:
            guard let name, let value = csv?[name] else {
                throw DualcamError.format(path: URL(fileURLWithPath: path).appendingPathComponent(TimestampsCSV.fileName).path,
                                          reason: "no timestamp for \(name ?? "frame \(index)")")
            }
            t = value
        case .fileNames:
            guard let name, let value = TimestampsCSV.timestamp(fromName: name) else {
                throw DualcamError.format(path: file?.path ?? path, reason: "the file name is not a nanosecond timestamp like the other frames'")
            }
            t = value
        case .nominalRate:
            t = Int64((Double(index) * periodNs).rounded())
        }
        if let last = lastTimestamp, t <= last {
            throw DualcamError.format(path: file?.path ?? path, reason: "timestamp \(t) ns does not increase (previous frame: \(last) ns)")
        }
        return t
    }

    /// A directory's frames without decoding them: each file with its index
    /// and timestamp, checked as `next()` checks them; nil for a video (its
    /// frames have no files and its count may be an estimate). Call it on a
    /// fresh source, before `next()`.
    public func frameRefs() throws -> [FrameRef]? {
        guard !isVideo else { return nil }
        lastTimestamp = nil
        defer { lastTimestamp = nil }
        return try ImageSequence.imageFiles(in: URL(fileURLWithPath: path)).enumerated().map { i, file in
            let t = try timestamp(index: i, file: file)
            lastTimestamp = t
            return FrameRef(index: i, file: file, timestampNs: t)
        }
    }

    /// The frame `ref` (from `frameRefs()`) read as `next()` reads it: the
    /// same image, timestamp, sequence number, per-frame intrinsics and origin.
    public func frame(_ ref: FrameRef) throws -> Frame {
        guard let file = ref.file else {
            throw DualcamError.invalidValue(name: path, reason: "frame \(ref.index) of a video has no file to read by itself")
        }
        let image = try ImageIO.read(file)
        let k = try FrameIntrinsicsSidecar.read(besides: file)
        return Frame(role: role, timestampNs: ref.timestampNs, sequence: ref.index, intrinsics: k, image: image, origin: file.path)
    }
}

/// One side-by-side image or video split into halves: the left half is the
/// wide frame, the right half the tele frame, both with the same timestamp
/// (hardware-synchronized halves).
public final class SideBySideSource: PairSource {
    public let label: String
    public let expectedCount: Int?
    public private(set) var statistics = PairStatistics()
    private let sequence: ImageSequence?
    private var single: Image?
    private let periodNs: Double
    private var index = 0
    /// The video's frame rate, else the nominal one (a single image: the nominal one).
    public let framesPerSecond: Double

    public init(path: String, nominalFPS: Double) throws {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw DualcamError.io(path: path, reason: "no such file or directory")
        }
        label = path
        if ImageSequence.isSequence(url) {
            sequence = try ImageSequence(url: url)
            expectedCount = sequence!.count
            let fps = VideoIO.isVideo(url) ? ((try? VideoReader(url: url).fps).flatMap { $0 > 0 ? $0 : nil } ?? nominalFPS) : nominalFPS
            periodNs = 1e9 / fps
            framesPerSecond = fps
        } else {
            single = try ImageIO.read(url)
            sequence = nil
            expectedCount = 1
            periodNs = 0
            framesPerSecond = nominalFPS
        }
    }

    public func nextPair() throws -> FramePair? {
        let image: Image
        let origin: String
        if let sequence {
            guard let (frame, file) = try sequence.next() else { return nil }
            image = frame
            origin = file?.path ?? "\(label)#\(index)"
        } else {
            guard let s = single else { return nil }
            single = nil
            image = s
            origin = label
        }
        defer { index += 1 }
        let halves = try SideBySide.split(image, source: origin)
        let t = Int64((Double(index) * periodNs).rounded())
        statistics.pairs += 1
        statistics.medianSkewNs = 0
        statistics.maxSkewNs = 0
        return FramePair(wide: Frame(role: .wide, timestampNs: t, sequence: index, image: halves.left, origin: origin),
                         tele: Frame(role: .tele, timestampNs: t, sequence: index, image: halves.right, origin: origin))
    }
}

public enum SideBySide {
    /// Left and right halves of a side-by-side frame (the width must be even).
    public static func split(_ image: Image, source: String) throws -> (left: Image, right: Image) {
        guard image.width >= 2, image.width % 2 == 0 else {
            throw DualcamError.format(path: source, reason: "a side-by-side frame needs an even width to split into halves, got \(image.width)")
        }
        let half = image.width / 2
        return (try image.cropped(x: 0, y: 0, width: half, height: image.height),
                try image.cropped(x: half, y: 0, width: half, height: image.height))
    }
}
