/// Anything the synchronizer can pair: it has a timestamp in nanoseconds on a
/// clock shared by both streams (CLOCK_MONOTONIC for V4L2 frames).
public protocol Timestamped {
    var timestampNs: Int64 { get }
}

/// A value with a timestamp (for tests and simple callers).
public struct Stamped<Value>: Timestamped {
    public var timestampNs: Int64
    public var value: Value

    public init(_ timestampNs: Int64, _ value: Value) {
        self.timestampNs = timestampNs
        self.value = value
    }
}

extension Stamped: Equatable where Value: Equatable {}
extension Stamped: Sendable where Value: Sendable {}

/// Two items that belong to one moment. `skewNs = second - first`.
public struct SyncPair<First: Timestamped, Second: Timestamped> {
    public var first: First
    public var second: Second

    public var skewNs: Int64 { second.timestampNs - first.timestampNs }
}

/// Why an item left the synchronizer without a partner.
public enum DropReason: String, Sendable, Equatable {
    /// No partner within the maximum skew (or the optimal pairing used it elsewhere).
    case unmatched
    /// It arrived after the pairing around its timestamp was already decided.
    case late
}

/// What the synchronizer hands out, in timestamp order within each decision.
public enum SyncEvent<First: Timestamped, Second: Timestamped> {
    case pair(SyncPair<First, Second>)
    case droppedFirst(First, DropReason)
    case droppedSecond(Second, DropReason)

    /// The earliest timestamp involved (for ordering).
    public var timestampNs: Int64 {
        switch self {
        case let .pair(p): return min(p.first.timestampNs, p.second.timestampNs)
        case let .droppedFirst(f, _): return f.timestampNs
        case let .droppedSecond(s, _): return s.timestampNs
        }
    }
}

/// Counters of a synchronizer run.
public struct SyncStatistics: Equatable, Sendable {
    public var pairs = 0
    /// Frames of each stream that left without a partner (unmatched + late).
    public var droppedFirst = 0
    public var droppedSecond = 0
    /// Of those, frames that arrived behind the decision horizon.
    public var lateFirst = 0
    public var lateSecond = 0
    /// Decisions forced by a full queue before the pairing was certain.
    public var forcedDecisions = 0
    /// |skew| of every pair, in nanoseconds (kept for the median).
    public private(set) var absoluteSkewsNs: [Int64] = []

    public init() {}

    mutating func record(_ skewNs: Int64) {
        pairs += 1
        absoluteSkewsNs.append(skewNs.magnitude > UInt64(Int64.max) ? Int64.max : abs(skewNs))
    }

    /// Median |skew| in nanoseconds (mean of the two middle values for an even
    /// count, rounded down), nil without pairs.
    public var medianSkewNs: Int64? {
        guard !absoluteSkewsNs.isEmpty else { return nil }
        let s = absoluteSkewsNs.sorted()
        let n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// Largest |skew| in nanoseconds, nil without pairs.
    public var maxSkewNs: Int64? { absoluteSkewsNs.max() }
}
