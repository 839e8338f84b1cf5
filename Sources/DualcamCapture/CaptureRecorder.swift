import DualcamImaging
import DualcamSupport
import Foundation

/// Writes synchronized pairs to a directory as they arrive:
///
///     DIR/wide/frame_000000.png ...   DIR/wide/timestamps.csv
///     DIR/tele/frame_000000.png ...   DIR/tele/timestamps.csv
///     DIR/pairs.csv
///
/// Each PNG is written atomically (temporary file + rename) and its pairs.csv
/// row appended and flushed right after, so when capture stops early (device
/// lost, interrupted) every listed pair is complete on disk. The per-camera
/// `timestamps.csv` files (the format ``SequenceSource`` reads back, so the
/// directory pair can be replayed) are written by `finish()`.
///
/// pairs.csv columns: pair, wide_file, tele_file, wide_timestamp_ns,
/// tele_timestamp_ns, skew_ns (tele - wide), wide_sequence, tele_sequence,
/// wide_dropped (driver sequence gap before this frame), tele_dropped,
/// wide_unpaired, tele_unpaired (frames the synchronizer left without a
/// partner so far).
public final class CaptureRecorder {
    public static let pairsHeader = "pair,wide_file,tele_file,wide_timestamp_ns,tele_timestamp_ns,skew_ns,wide_sequence,tele_sequence,wide_dropped,tele_dropped,wide_unpaired,tele_unpaired"

    public let directory: URL
    public private(set) var count = 0
    private let csv: FileHandle
    private var rows: [CameraRole: [(file: String, timestampNs: Int64)]] = [.wide: [], .tele: []]

    /// Creates DIR (which must not exist or be empty) with its wide/ and tele/ folders.
    public init(directory: URL) throws {
        self.directory = directory
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DualcamError.io(path: directory.path, reason: "exists and is not a directory") }
            let contents = (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
            guard contents.isEmpty else {
                throw DualcamError.io(path: directory.path, reason: "is not empty; give a new or empty directory for the capture")
            }
        }
        let parent = directory.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: directory.path, reason: "parent directory \(parent.path) does not exist")
        }
        do {
            for role in CameraRole.allCases {
                try fm.createDirectory(at: directory.appendingPathComponent(role.rawValue), withIntermediateDirectories: true)
            }
            let csvURL = directory.appendingPathComponent("pairs.csv")
            try Data((Self.pairsHeader + "\n").utf8).write(to: csvURL)
            csv = try FileHandle(forWritingTo: csvURL)
            csv.seekToEndOfFile()
        } catch {
            throw DualcamError.io(path: directory.path, reason: "cannot create the capture directory: \(error.localizedDescription)")
        }
    }

    deinit { try? csv.close() }

    /// Writes both frames, then the pair's CSV row.
    public func write(_ pair: FramePair, statistics: PairStatistics) throws {
        let name = String(format: "frame_%06d.png", count)
        for frame in [pair.wide, pair.tele] {
            try ImageIO.write(frame.image.converted(to: .uint8), to: directory.appendingPathComponent(frame.role.rawValue).appendingPathComponent(name))
            rows[frame.role]!.append((name, frame.timestampNs))
        }
        let fields: [String] = [
            String(count), "wide/\(name)", "tele/\(name)", String(pair.wide.timestampNs), String(pair.tele.timestampNs),
            String(pair.skewNs), String(pair.wide.sequence), String(pair.tele.sequence),
            String(pair.wide.droppedBefore), String(pair.tele.droppedBefore),
            String(statistics.unpairedWide), String(statistics.unpairedTele),
        ]
        csv.write(Data((fields.joined(separator: ",") + "\n").utf8))
        csv.synchronizeFile()
        count += 1
    }

    /// Writes wide/timestamps.csv and tele/timestamps.csv.
    public func finish() throws {
        for role in CameraRole.allCases {
            try AtomicFile.write(Data(TimestampsCSV.text(rows[role]!).utf8),
                                 to: directory.appendingPathComponent(role.rawValue).appendingPathComponent(TimestampsCSV.fileName))
        }
    }
}

/// When a capture stops.
public struct CaptureLimit: Equatable, Sendable {
    public var pairs: Int?
    /// Nanoseconds of capture time, measured on the frames' timestamps from
    /// the first pair.
    public var durationNs: Int64?

    public init(pairs: Int? = nil, durationNs: Int64? = nil) {
        self.pairs = pairs
        self.durationNs = durationNs
    }
}

/// Records pairs from `source` until the limit, the end of the source, or
/// `shouldStop()` (checked before each pair, e.g. after Ctrl-C). Returns the
/// number of pairs written; a lost device ends the run normally (see
/// ``LivePairSource/stopReason``), after `finish()` saved the timestamps.
public func recordPairs(from source: PairSource, to recorder: CaptureRecorder, limit: CaptureLimit,
                        shouldStop: () -> Bool = { false },
                        progress: (Int, PairStatistics) -> Void = { _, _ in }) throws -> Int {
    var firstNs: Int64?
    defer { try? recorder.finish() }
    while limit.pairs.map({ recorder.count < $0 }) ?? true, !shouldStop(), let pair = try source.nextPair() {
        let t = pair.wide.timestampNs
        if firstNs == nil { firstNs = t }
        if let d = limit.durationNs, t - firstNs! >= d { break }
        try recorder.write(pair, statistics: source.statistics)
        progress(recorder.count, source.statistics)
    }
    try recorder.finish()
    return recorder.count
}
