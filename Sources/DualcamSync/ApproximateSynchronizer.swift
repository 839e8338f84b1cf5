/// Pairs two free-running streams by timestamp, with the ApproximateTime
/// properties (ROS message_filters; docs/conventions.md, "Pairing two
/// cameras"): each item used at most once, pairs never cross, at most
/// `maxSkewNs` between the two items of a pair, and the pairing is optimal
/// (most pairs, then least total skew; see ``OptimalPairing``).
///
/// Streaming rule. Each stream is assumed to deliver increasing timestamps.
/// Let W = min(latest first, latest second): no future item is earlier than W.
/// Sort everything pending by time; wherever two neighbours are more than
/// `maxSkewNs` apart no pair can span the gap, so the pending items split into
/// independent blocks. A block whose last item t satisfies t + maxSkew < W can
/// never gain a partner, so its optimal pairing is final and is emitted. The
/// output therefore depends only on the timestamps, not on how the two streams
/// interleave on arrival, and it equals the optimal pairing of the whole streams.
///
/// Bounded queues. When a stream has more than `queueCapacity` items pending
/// (the other stream stalled, or the skew is so large that blocks never end),
/// its oldest items are decided now from the optimal pairing of what is pending
/// (counted in ``SyncStatistics/forcedDecisions``); that decision is the only
/// one that can differ from the whole-stream optimum. An item arriving with a
/// timestamp at or before an already decided one is dropped as late.
public final class ApproximateSynchronizer<First: Timestamped, Second: Timestamped> {
    public typealias Event = SyncEvent<First, Second>

    public let maxSkewNs: Int64
    public let queueCapacity: Int
    public private(set) var statistics = SyncStatistics()

    private var firsts: [First] = []
    private var seconds: [Second] = []
    private var latestFirst: Int64?
    private var latestSecond: Int64?
    /// Items with timestamps below this are decided; later arrivals there are late.
    private var horizonNs = Int64.min

    public init(maxSkewNs: Int64, queueCapacity: Int = 64) {
        precondition(maxSkewNs >= 0 && queueCapacity >= 1)
        self.maxSkewNs = maxSkewNs
        self.queueCapacity = queueCapacity
    }

    /// Items waiting for a decision.
    public var pendingCount: (first: Int, second: Int) { (firsts.count, seconds.count) }

    public func push(first item: First) -> [Event] {
        if item.timestampNs < horizonNs {
            statistics.droppedFirst += 1
            statistics.lateFirst += 1
            return [.droppedFirst(item, .late)]
        }
        insertSorted(&firsts, item)
        latestFirst = max(latestFirst ?? item.timestampNs, item.timestampNs)
        return decide()
    }

    public func push(second item: Second) -> [Event] {
        if item.timestampNs < horizonNs {
            statistics.droppedSecond += 1
            statistics.lateSecond += 1
            return [.droppedSecond(item, .late)]
        }
        insertSorted(&seconds, item)
        latestSecond = max(latestSecond ?? item.timestampNs, item.timestampNs)
        return decide()
    }

    /// End of both streams: decide everything pending.
    public func finish() -> [Event] {
        guard let last = (firsts.map(\.timestampNs) + seconds.map(\.timestampNs)).max() else { return [] }
        return commit(throughNs: last)
    }

    // MARK: Decisions

    private func decide() -> [Event] {
        var events: [Event] = []
        if let w = cutBoundary() { events += commit(throughNs: w) }
        while firsts.count > queueCapacity || seconds.count > queueCapacity {
            statistics.forcedDecisions += 1
            events += forcedCommit()
        }
        return events
    }

    /// The last timestamp t of pending items such that a block ends at t and
    /// t + maxSkew < W (nothing after it can still pair with it or before it).
    private func cutBoundary() -> Int64? {
        guard let lf = latestFirst, let ls = latestSecond else { return nil }
        let w = min(lf, ls)
        let times = mergedTimes()
        var best: Int64?
        for k in times.indices {
            let t = times[k]
            guard t < w - maxSkewNs else { break }
            if k + 1 == times.count || times[k + 1] - t > maxSkewNs { best = t }
        }
        return best
    }

    private func mergedTimes() -> [Int64] {
        (firsts.map(\.timestampNs) + seconds.map(\.timestampNs)).sorted()
    }

    /// Decides every pending item with timestamp <= `throughNs`, block by block.
    private func commit(throughNs t: Int64) -> [Event] {
        let a = firsts.prefix { $0.timestampNs <= t }
        let b = seconds.prefix { $0.timestampNs <= t }
        firsts.removeFirst(a.count)
        seconds.removeFirst(b.count)
        horizonNs = max(horizonNs, t &+ 1)
        return emit(Array(a), Array(b), blocks: true)
    }

    /// The first stream over capacity must lose its oldest items: solve the
    /// optimal pairing of everything pending and commit it up to the evicted
    /// items' time, extended to include their partners (and anything earlier).
    private func forcedCommit() -> [Event] {
        let aTimes = firsts.map(\.timestampNs), bTimes = seconds.map(\.timestampNs)
        var t: Int64
        if firsts.count > queueCapacity {
            t = aTimes[firsts.count - queueCapacity - 1]
        } else {
            t = bTimes[seconds.count - queueCapacity - 1]
        }
        let pairs = OptimalPairing.pairs(first: aTimes, second: bTimes, maxSkewNs: maxSkewNs)
        var changed = true
        while changed {
            changed = false
            for (i, j) in pairs where (aTimes[i] <= t) != (bTimes[j] <= t) {
                t = max(aTimes[i], bTimes[j])
                changed = true
            }
        }
        return commit(throughNs: t)
    }

    /// Emits the optimal pairing of `a` and `b` (each sorted), solved per block
    /// (split at gaps wider than maxSkew) so ties never depend on what else was
    /// pending, merged in timestamp order.
    private func emit(_ a: [First], _ b: [Second], blocks: Bool) -> [Event] {
        var events: [Event] = []
        var ia = 0, ib = 0
        while ia < a.count || ib < b.count {
            // Grow one block from the earliest remaining item.
            var ea = ia, eb = ib
            var end = Int64.min
            func nextTime() -> Int64? {
                let ta = ea < a.count ? a[ea].timestampNs : nil
                let tb = eb < b.count ? b[eb].timestampNs : nil
                switch (ta, tb) {
                case let (x?, y?): return min(x, y)
                case let (x?, nil): return x
                case let (nil, y?): return y
                default: return nil
                }
            }
            while let next = nextTime(), end == Int64.min || next - end <= maxSkewNs {
                if ea < a.count && a[ea].timestampNs == next { ea += 1 } else { eb += 1 }
                end = next
            }
            let blockA = Array(a[ia..<ea]), blockB = Array(b[ib..<eb])
            let pairs = OptimalPairing.pairs(first: blockA.map(\.timestampNs), second: blockB.map(\.timestampNs), maxSkewNs: maxSkewNs)
            var usedA = Set<Int>(), usedB = Set<Int>()
            var blockEvents: [Event] = []
            for (i, j) in pairs {
                usedA.insert(i)
                usedB.insert(j)
                let p = SyncPair(first: blockA[i], second: blockB[j])
                statistics.record(p.skewNs)
                blockEvents.append(.pair(p))
            }
            for i in blockA.indices where !usedA.contains(i) {
                statistics.droppedFirst += 1
                blockEvents.append(.droppedFirst(blockA[i], .unmatched))
            }
            for j in blockB.indices where !usedB.contains(j) {
                statistics.droppedSecond += 1
                blockEvents.append(.droppedSecond(blockB[j], .unmatched))
            }
            events += stableSorted(blockEvents)
            ia = ea
            ib = eb
        }
        return events
    }

    private func stableSorted(_ events: [Event]) -> [Event] {
        events.enumerated().sorted { ($0.element.timestampNs, $0.offset) < ($1.element.timestampNs, $1.offset) }.map(\.element)
    }

    private func insertSorted<T: Timestamped>(_ list: inout [T], _ item: T) {
        var i = list.count
        while i > 0 && list[i - 1].timestampNs > item.timestampNs { i -= 1 }
        list.insert(item, at: i)
    }
}
