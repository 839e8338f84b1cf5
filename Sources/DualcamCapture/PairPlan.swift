import DualcamImaging
import DualcamSupport
import DualcamSync
import Foundation

/// A frame of a file sequence named but not decoded: its index in the
/// sequence, its file (nil for a video frame) and its timestamp in ns.
public struct FrameRef: Timestamped, Equatable, Sendable {
    public var index: Int
    public var file: URL?
    public var timestampNs: Int64

    public init(index: Int, file: URL?, timestampNs: Int64) {
        self.index = index
        self.file = file
        self.timestampNs = timestampNs
    }
}

/// The pairs of `--wide A --tele B`, decided from file listings and
/// timestamps alone (no frame is decoded), exactly as `FilePairs.open`
/// would pair them: so that a long recording can be cut into ranges of
/// pairs and each range read by itself (`PlannedPairSource`) with the same
/// frames, timestamps and per-frame intrinsics the whole run would see.
///
/// - two images: one pair;
/// - two directories: their pairs (by index, or by timestamp through the
///   same synchronizer and the same default skew bound);
/// - two videos (by index): `pairs` is nil; `estimatedCount` is the shorter
///   container frame count (an estimate, nil when unknown), so the last
///   range of a video is open-ended and runs to the shorter end.
public struct PairPlan: Sendable {
    public enum Pairing: String, Sendable {
        case single = "one image pair"
        case index = "paired by index"
        case timestamp = "paired by timestamp"
    }

    public let wide: String
    public let tele: String
    public let pairing: Pairing
    /// The pairs of two directories or two images; nil for videos.
    public let pairs: [(wide: FrameRef, tele: FrameRef)]?
    /// Videos: the shorter container frame count, when both record one.
    public let estimatedCount: Int?
    /// The skew bound used for timestamp pairing (ns).
    public let maxSkewNs: Int64?

    /// Pairs known exactly (directories, images), else the estimate.
    public var count: Int? { pairs?.count ?? estimatedCount }

    /// Plans `--wide`/`--tele` as `FilePairs.open(wide:tele:nominalFPS:maxSkewNs:)` opens them.
    public static func make(wide: String, tele: String, nominalFPS: Double, maxSkewNs: Int64?) throws -> PairPlan {
        let wu = URL(fileURLWithPath: wide), tu = URL(fileURLWithPath: tele)
        let wideSeq = ImageSequence.isSequence(wu), teleSeq = ImageSequence.isSequence(tu)
        if !wideSeq && !teleSeq {
            for (flag, path) in [("--wide", wide), ("--tele", tele)] where !FileManager.default.fileExists(atPath: path) {
                throw DualcamError.io(path: path, reason: "no such file or directory (\(flag))")
            }
            return PairPlan(wide: wide, tele: tele, pairing: .single,
                            pairs: [(FrameRef(index: 0, file: wu, timestampNs: 0), FrameRef(index: 0, file: tu, timestampNs: 0))],
                            estimatedCount: nil, maxSkewNs: nil)
        }
        // The same checks and messages as FilePairs.open (it is called for them).
        guard wideSeq && teleSeq else { throw try refusal(wide, tele, nominalFPS, maxSkewNs) }
        let w = try SequenceSource(path: wide, role: .wide, nominalFPS: nominalFPS)
        let t = try SequenceSource(path: tele, role: .tele, nominalFPS: nominalFPS)
        guard let wideRefs = try w.frameRefs(), let teleRefs = try t.frameRefs() else {
            if w.timestamps != .nominalRate || t.timestamps != .nominalRate { throw try refusal(wide, tele, nominalFPS, maxSkewNs) }
            let counts = [w.count, t.count]
            let estimate = counts.contains(nil) ? nil : counts.compactMap { $0 }.min()
            return PairPlan(wide: wide, tele: tele, pairing: .index, pairs: nil, estimatedCount: estimate, maxSkewNs: nil)
        }
        switch (w.timestamps == .nominalRate, t.timestamps == .nominalRate) {
        case (true, true):
            guard wideRefs.count == teleRefs.count else { throw FilePairs.mismatch(wide, wideRefs.count, tele, teleRefs.count) }
            return PairPlan(wide: wide, tele: tele, pairing: .index, pairs: Array(zip(wideRefs, teleRefs)),
                            estimatedCount: nil, maxSkewNs: nil)
        case (false, false):
            var wi = wideRefs.makeIterator(), ti = teleRefs.makeIterator()
            let feed = try TimestampFeed<FrameRef, FrameRef>(wide: { wi.next() }, tele: { ti.next() }, maxSkewNs: maxSkewNs)
            var pairs: [(wide: FrameRef, tele: FrameRef)] = []
            while let p = try feed.next() { pairs.append((p.first, p.second)) }
            return PairPlan(wide: wide, tele: tele, pairing: .timestamp, pairs: pairs, estimatedCount: nil, maxSkewNs: feed.maxSkewNs)
        default:
            throw try refusal(wide, tele, nominalFPS, maxSkewNs)
        }
    }

    /// The error `FilePairs.open` gives for inputs it cannot pair (a single
    /// image with a sequence, one timestamped sequence with a plain one).
    private static func refusal(_ wide: String, _ tele: String, _ fps: Double, _ skew: Int64?) throws -> Error {
        _ = try FilePairs.open(wide: wide, tele: tele, nominalFPS: fps, maxSkewNs: skew)
        return DualcamError.invalidValue(name: "--wide/--tele", reason: "give two images, two directories or two videos")
    }
}

/// The pairs `range` of a `PairPlan` (pair indices; `upperBound` nil = to
/// the end), read as `FilePairs.open` would deliver them: directory frames
/// are decoded only for the pairs in the range; videos are read from their
/// start and the frames before the range dropped.
public final class PlannedPairSource: PairSource {
    public let label: String
    public let expectedCount: Int?
    private let plan: PairPlan
    private var position: Int
    private let end: Int?
    private let wide: SequenceSource?, tele: SequenceSource?
    private var skews: [Int64] = []

    public init(plan: PairPlan, from start: Int, to end: Int?, nominalFPS: Double) throws {
        precondition(start >= 0 && (end ?? start) >= start)
        self.plan = plan
        self.end = end
        position = start
        label = "\(plan.wide) + \(plan.tele)"
        if plan.pairing == .single {
            (wide, tele) = (nil, nil)
        } else {
            wide = try SequenceSource(path: plan.wide, role: .wide, nominalFPS: nominalFPS)
            tele = try SequenceSource(path: plan.tele, role: .tele, nominalFPS: nominalFPS)
        }
        if let pairs = plan.pairs {
            expectedCount = max(0, min(end ?? pairs.count, pairs.count) - start)
        } else {
            expectedCount = end.map { $0 - start }
            // Videos: frames before the range are decoded and dropped.
            var skipped = 0
            while skipped < start, try wide!.next() != nil, try tele!.next() != nil { skipped += 1 }
        }
    }

    public func nextPair() throws -> FramePair? {
        if let end, position >= end { return nil }
        let pair: FramePair
        if let pairs = plan.pairs {
            guard position < pairs.count else { return nil }
            let (w, t) = pairs[position]
            if plan.pairing == .single {
                pair = try ImagePairSource(wide: plan.wide, tele: plan.tele).nextPair()!
            } else {
                pair = FramePair(wide: try wide!.frame(w), tele: try tele!.frame(t))
            }
        } else {
            // Videos pair by index; the shorter one ends the run.
            guard let w = try wide!.next(), let t = try tele!.next() else { return nil }
            pair = FramePair(wide: w, tele: t)
        }
        position += 1
        skews.append(abs(pair.skewNs))
        return pair
    }

    public var statistics: PairStatistics {
        var s = PairStatistics()
        let sorted = skews.sorted()
        s.pairs = sorted.count
        s.maxSkewNs = sorted.last
        s.medianSkewNs = sorted.isEmpty ? nil : sorted[sorted.count / 2]
        return s
    }
}
