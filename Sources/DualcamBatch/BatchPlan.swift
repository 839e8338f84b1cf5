import DualcamSupport
import Foundation

/// How a recording may be cut into units, decided by its job's temporal state.
public enum ChunkPolicy: Equatable, Sendable, Codable {
    /// Each pair is processed by itself: chunks are independent.
    case independent
    /// A filter whose result depends on the previous `n` pairs only
    /// (`TemporalSmoother`): each chunk first feeds the `n` pairs before it
    /// (its warm-up) and discards their results.
    case warmUp(Int)
    /// A filter with unbounded memory (tap-to-converge tracking): the
    /// recording is one unit.
    case whole
}

/// One unit of work: pairs `first ..< end` of a recording (`end` nil: to
/// the end of a video whose length is an estimate), after `warmUp` pairs
/// before `first` whose results are discarded.
public struct BatchUnit: Equatable, Sendable, Codable {
    /// Index of the recording in the manifest.
    public var recording: Int
    public var name: String
    public var first: Int
    public var end: Int?
    public var warmUp: Int

    /// `name.FIRST-END` (six digits each, `end` for an open end): the record's file name.
    public var key: String {
        "\(name).\(Self.digits(first))-\(end.map(Self.digits) ?? "end")"
    }

    /// Pairs written (nil when open-ended).
    public var pairCount: Int? { end.map { $0 - first } }

    static func digits(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 6 ? s : String(repeating: "0", count: 6 - s.count) + s
    }
}

/// A manifest expanded into units: each recording's pairs cut into chunks
/// of `chunkPairs` (the last one shorter), in manifest order.
public struct BatchPlan: Sendable {
    public let manifest: BatchManifest
    public let units: [BatchUnit]
    /// Pairs per recording (nil: a video whose length is not known exactly).
    public let pairCounts: [Int?]
    public let policies: [ChunkPolicy]

    /// `pairCounts[i]` and `policies[i]` belong to `manifest.recordings[i]`;
    /// `estimatedCounts[i]` is a video's container count (the last chunk of
    /// a video is open-ended). A recording without pairs is an error.
    public init(manifest: BatchManifest, pairCounts: [Int?], estimatedCounts: [Int?], policies: [ChunkPolicy]) throws {
        precondition(pairCounts.count == manifest.recordings.count && policies.count == pairCounts.count
                     && estimatedCounts.count == pairCounts.count)
        self.manifest = manifest
        self.pairCounts = pairCounts
        self.policies = policies
        var units: [BatchUnit] = []
        let chunk = manifest.chunkPairs
        for (i, r) in manifest.recordings.enumerated() {
            let exact = pairCounts[i]
            let known = exact ?? estimatedCounts[i]
            if let known, known == 0 {
                throw DualcamError.format(path: r.source.wide.path, reason: "\(r.name): no pairs to process")
            }
            switch policies[i] {
            case .whole:
                units.append(BatchUnit(recording: i, name: r.name, first: 0, end: exact, warmUp: 0))
            case .independent, .warmUp:
                var warm = 0
                if case let .warmUp(n) = policies[i] { warm = max(n, 0) }
                guard let known else {
                    units.append(BatchUnit(recording: i, name: r.name, first: 0, end: nil, warmUp: 0))
                    continue
                }
                var first = 0
                while first < known {
                    let end = first + chunk
                    // A video's last chunk runs to the end (its count is an estimate).
                    let last = end >= known
                    units.append(BatchUnit(recording: i, name: r.name, first: first,
                                           end: last ? exact : end, warmUp: min(warm, first)))
                    first = end
                }
            }
            try InputLimits.checkCount(units.count, limit: InputLimits.maxBatchUnits, limitName: "maxBatchUnits",
                                       what: "units of work", name: manifest.url.path)
        }
        self.units = units
    }

    /// Pairs (known or estimated) per recording, summed over its units.
    public func pairs(of recording: Int) -> Int? { pairCounts[recording] }
}
