import DualcamCalibrationFiles
import DualcamImaging
import DualcamSupport
import DualcamSync
import Foundation

/// Opens the pair source for `--wide A --tele B` given as files:
/// - two images: one pair;
/// - two directories or videos without real timestamps (nominal rate): paired
///   by index; directories must have the same length, with a video the
///   shorter sequence ends the pairs (a video's frame count is an estimate);
/// - two directories with timestamps (CSV or file names): paired by the
///   synchronizer within `maxSkewNs` (default: half the interval between the
///   wide stream's first two frames), so unequal lengths and dropped frames are fine.
public enum FilePairs {
    public static func open(wide: String, tele: String, nominalFPS: Double, maxSkewNs: Int64?) throws -> PairSource {
        let wu = URL(fileURLWithPath: wide), tu = URL(fileURLWithPath: tele)
        let wideSeq = ImageSequence.isSequence(wu), teleSeq = ImageSequence.isSequence(tu)
        if !wideSeq && !teleSeq { return try ImagePairSource(wide: wide, tele: tele) }
        guard wideSeq && teleSeq else {
            throw DualcamError.invalidValue(name: "--wide/--tele", reason: "\(wideSeq ? tele : wide) is a single image but \(wideSeq ? wide : tele) is a sequence; give two images, two directories or two videos")
        }
        let w = try SequenceSource(path: wide, role: .wide, nominalFPS: nominalFPS)
        let t = try SequenceSource(path: tele, role: .tele, nominalFPS: nominalFPS)
        switch (w.timestamps == .nominalRate, t.timestamps == .nominalRate) {
        case (true, true):
            let video = w.isVideo || t.isVideo
            if !video, let a = w.count, let b = t.count, a != b {
                throw mismatch(wide, a, tele, b)
            }
            return IndexPairSource(wide: w, tele: t, label: "\(wide) + \(tele)", shorterEnds: video)
        case (false, false):
            return try SynchronizedPairSource(wide: w, tele: t, maxSkewNs: maxSkewNs, label: "\(wide) + \(tele)")
        default:
            let (stamped, plain) = w.timestamps == .nominalRate ? (t, w) : (w, t)
            throw DualcamError.invalidValue(name: "--wide/--tele", reason: "\(stamped.path) has timestamps (\(stamped.timestamps.rawValue)) but \(plain.path) has none; give both or neither a \(TimestampsCSV.fileName)")
        }
    }

    static func mismatch(_ wide: String, _ a: Int, _ tele: String, _ b: Int) -> DualcamError {
        DualcamError.invalidValue(name: "--wide/--tele", reason: "\(wide) has \(a) frames but \(tele) has \(b); sequences without timestamps pair by index and must have the same length")
    }
}

/// Two images: one pair at time 0.
public final class ImagePairSource: PairSource {
    public let label: String
    public let expectedCount: Int? = 1
    public private(set) var statistics = PairStatistics()
    private var pending: FramePair?

    public init(wide: String, tele: String) throws {
        label = "\(wide) + \(tele)"
        let wu = URL(fileURLWithPath: wide), tu = URL(fileURLWithPath: tele)
        pending = FramePair(
            wide: Frame(role: .wide, timestampNs: 0, sequence: 0, intrinsics: try FrameIntrinsicsSidecar.read(besides: wu),
                        image: try ImageIO.read(wu), origin: wide),
            tele: Frame(role: .tele, timestampNs: 0, sequence: 0, intrinsics: try FrameIntrinsicsSidecar.read(besides: tu),
                        image: try ImageIO.read(tu), origin: tele))
    }

    public func nextPair() throws -> FramePair? {
        defer { pending = nil }
        if pending != nil {
            statistics.pairs = 1
            statistics.medianSkewNs = 0
            statistics.maxSkewNs = 0
        }
        return pending
    }
}

/// Frame i of one source with frame i of the other; a source that ends first
/// is an error naming both lengths.
public final class IndexPairSource: PairSource {
    public let label: String
    public let expectedCount: Int?
    private let wide: SequenceSource, tele: SequenceSource
    private let shorterEnds: Bool
    private var skews: [Int64] = []

    public var statistics: PairStatistics {
        var s = PairStatistics()
        s.pairs = skews.count
        let sorted = skews.sorted()
        s.maxSkewNs = sorted.last
        let n = sorted.count
        s.medianSkewNs = n == 0 ? nil : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        return s
    }

    init(wide: SequenceSource, tele: SequenceSource, label: String, shorterEnds: Bool = false) {
        self.wide = wide
        self.tele = tele
        self.label = label
        self.shorterEnds = shorterEnds
        expectedCount = [wide.count, tele.count].compactMap { $0 }.min()
    }

    public func nextPair() throws -> FramePair? {
        let w = try wide.next(), t = try tele.next()
        switch (w, t) {
        case let (w?, t?):
            let pair = FramePair(wide: w, tele: t)
            skews.append(abs(pair.skewNs))
            return pair
        case (nil, nil):
            return nil
        default:
            if shorterEnds { return nil }
            var a = skews.count + (w == nil ? 0 : 1), b = skews.count + (t == nil ? 0 : 1)
            // Count the rest of the longer one for the message.
            if w != nil { while try wide.next() != nil { a += 1 } } else { while try tele.next() != nil { b += 1 } }
            throw FilePairs.mismatch(wide.path, a, tele.path, b)
        }
    }
}

/// Two timestamped sequences paired by ``ApproximateSynchronizer``: frames are
/// fed in timestamp order (one frame of lookahead per source; `TimestampFeed`).
public final class SynchronizedPairSource: PairSource {
    public let label: String
    public let expectedCount: Int? = nil
    public var maxSkewNs: Int64 { feed.maxSkewNs }
    private let feed: TimestampFeed<Frame, Frame>

    public init(wide: FrameSource, tele: FrameSource, maxSkewNs: Int64?, label: String, queueCapacity: Int = 64) throws {
        self.label = label
        feed = try TimestampFeed(wide: { try wide.next() }, tele: { try tele.next() }, maxSkewNs: maxSkewNs,
                                 queueCapacity: queueCapacity)
    }

    public var statistics: PairStatistics { PairStatistics(feed.statistics) }

    public func nextPair() throws -> FramePair? {
        try feed.next().map { FramePair(wide: $0.first, tele: $0.second) }
    }
}

/// The feeding rule of timestamp pairing, for any timestamped items (decoded
/// frames, or `FrameRef`s when a recording is planned without decoding):
/// items go into an ``ApproximateSynchronizer`` in timestamp order, one item of
/// lookahead per stream, a tie going to the wide stream first. Without
/// `maxSkewNs` the bound is half the interval between the wide stream's first
/// two items (33.3 ms / 2 with fewer than two). The same items give the same
/// pairs whatever they carry.
final class TimestampFeed<W: Timestamped, T: Timestamped> {
    let maxSkewNs: Int64
    private let nextWideItem: () throws -> W?, nextTeleItem: () throws -> T?
    private let sync: ApproximateSynchronizer<W, T>
    private var nextWide: W?, nextTele: T?
    private var ready: [SyncPair<W, T>] = []
    private var finished = false

    init(wide: @escaping () throws -> W?, tele: @escaping () throws -> T?, maxSkewNs: Int64?, queueCapacity: Int = 64) throws {
        nextWideItem = wide
        nextTeleItem = tele
        nextWide = try wide()
        nextTele = try tele()
        if let s = maxSkewNs {
            self.maxSkewNs = s
            sync = ApproximateSynchronizer(maxSkewNs: s, queueCapacity: queueCapacity)
            return
        }
        // Half the wide stream's frame interval (from its first two frames).
        let first = nextWide
        let second = try wide()
        let interval = (first != nil && second != nil) ? second!.timestampNs - first!.timestampNs : 33_333_333
        self.maxSkewNs = max(interval / 2, 1)
        sync = ApproximateSynchronizer(maxSkewNs: self.maxSkewNs, queueCapacity: queueCapacity)
        if let f = first { ready += collect(sync.push(first: f)) }
        nextWide = second
    }

    var statistics: SyncStatistics { sync.statistics }

    func next() throws -> SyncPair<W, T>? {
        while ready.isEmpty && !finished {
            switch (nextWide, nextTele) {
            case let (w?, t?) where w.timestampNs <= t.timestampNs:
                ready += collect(sync.push(first: w))
                nextWide = try nextWideItem()
            case let (_, t?):
                ready += collect(sync.push(second: t))
                nextTele = try nextTeleItem()
            case let (w?, nil):
                ready += collect(sync.push(first: w))
                nextWide = try nextWideItem()
            case (nil, nil):
                ready += collect(sync.finish())
                finished = true
            }
        }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    private func collect(_ events: [SyncEvent<W, T>]) -> [SyncPair<W, T>] {
        events.compactMap { if case let .pair(p) = $0 { return p } else { return nil } }
    }
}
