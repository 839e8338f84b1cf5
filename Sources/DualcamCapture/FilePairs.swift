import DualcamCalibration
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
/// fed in timestamp order (one frame of lookahead per source).
public final class SynchronizedPairSource: PairSource {
    public let label: String
    public let expectedCount: Int? = nil
    public let maxSkewNs: Int64
    private let wide: FrameSource, tele: FrameSource
    private let sync: ApproximateSynchronizer<Frame, Frame>
    private var nextWide: Frame?, nextTele: Frame?
    private var ready: [FramePair] = []
    private var finished = false

    public init(wide: FrameSource, tele: FrameSource, maxSkewNs: Int64?, label: String, queueCapacity: Int = 64) throws {
        self.wide = wide
        self.tele = tele
        self.label = label
        nextWide = try wide.next()
        nextTele = try tele.next()
        if let s = maxSkewNs {
            self.maxSkewNs = s
        } else {
            // Half the wide stream's frame interval (from its first two frames).
            let first = nextWide
            let second = try wide.next()
            let interval = (first != nil && second != nil) ? second!.timestampNs - first!.timestampNs : 33_333_333
            self.maxSkewNs = max(interval / 2, 1)
            sync = ApproximateSynchronizer(maxSkewNs: self.maxSkewNs, queueCapacity: queueCapacity)
            if let f = first { ready += collect(sync.push(first: f)) }
            nextWide = second
            return
        }
        sync = ApproximateSynchronizer(maxSkewNs: self.maxSkewNs, queueCapacity: queueCapacity)
    }

    public var statistics: PairStatistics { PairStatistics(sync.statistics) }

    public func nextPair() throws -> FramePair? {
        while ready.isEmpty && !finished {
            switch (nextWide, nextTele) {
            case let (w?, t?) where w.timestampNs <= t.timestampNs:
                ready += collect(sync.push(first: w))
                nextWide = try wide.next()
            case let (_, t?):
                ready += collect(sync.push(second: t))
                nextTele = try tele.next()
            case let (w?, nil):
                ready += collect(sync.push(first: w))
                nextWide = try wide.next()
            case (nil, nil):
                ready += collect(sync.finish())
                finished = true
            }
        }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    private func collect(_ events: [SyncEvent<Frame, Frame>]) -> [FramePair] {
        events.compactMap { if case let .pair(p) = $0 { return FramePair(wide: p.first, tele: p.second) } else { return nil } }
    }
}
