import DualcamSync

/// Two streams drawn as ASCII timelines, one column per tick (the ROS
/// message_filters ApproximateTime tests use the same idea):
///
///     A: a...b...c
///     B: ..x...y..
///
/// A letter is a frame at that column; '.' and ' ' are empty ticks. Labels
/// must be unique across both lines.
struct Timeline {
    typealias Frame = Stamped<String>
    var first: [Frame] = []
    var second: [Frame] = []

    init(_ text: String, tickNs: Int64 = 1_000_000) {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.count > 2, trimmed.dropFirst().first == ":" else { continue }
            let isFirst = trimmed.first == "A"
            let body = trimmed.dropFirst(2)
            // Column 0 is the first character after "X:" plus one space.
            for (column, ch) in body.dropFirst().enumerated() where ch != "." && ch != " " {
                let frame = Frame(Int64(column) * tickNs, String(ch))
                if isFirst { first.append(frame) } else { second.append(frame) }
            }
        }
    }

    /// How the frames reach the synchronizer.
    enum Arrival {
        /// In timestamp order across both streams.
        case byTime
        /// Every frame of A, then every frame of B (B arrives late).
        case firstThenSecond
        /// Each B frame arrives `ticks` ticks after its timestamp.
        case secondDelayed(ticks: Int64)
    }

    struct Result: Equatable {
        var pairs: [String] = []
        var droppedFirst: [String] = []
        var droppedSecond: [String] = []
        var late: [String] = []
    }

    func run(maxSkewTicks: Int64, tickNs: Int64 = 1_000_000, queueCapacity: Int = 64, arrival: Arrival = .byTime) -> (Result, SyncStatistics) {
        let sync = ApproximateSynchronizer<Frame, Frame>(maxSkewNs: maxSkewTicks * tickNs, queueCapacity: queueCapacity)
        var events: [SyncEvent<Frame, Frame>] = []
        switch arrival {
        case .byTime, .secondDelayed:
            let delay: Int64
            if case let .secondDelayed(ticks) = arrival { delay = ticks * tickNs } else { delay = 0 }
            var order: [(Int64, Bool, Frame)] = first.map { ($0.timestampNs, true, $0) } + second.map { ($0.timestampNs + delay, false, $0) }
            order.sort { ($0.0, $0.1 ? 0 : 1) < ($1.0, $1.1 ? 0 : 1) }
            for (_, isFirst, frame) in order {
                events += isFirst ? sync.push(first: frame) : sync.push(second: frame)
            }
        case .firstThenSecond:
            for f in first { events += sync.push(first: f) }
            for s in second { events += sync.push(second: s) }
        }
        events += sync.finish()
        var result = Result()
        for e in events {
            switch e {
            case let .pair(p): result.pairs.append(p.first.value + "-" + p.second.value)
            case let .droppedFirst(f, reason):
                result.droppedFirst.append(f.value)
                if reason == .late { result.late.append(f.value) }
            case let .droppedSecond(s, reason):
                result.droppedSecond.append(s.value)
                if reason == .late { result.late.append(s.value) }
            }
        }
        result.pairs.sort()
        result.droppedFirst.sort()
        result.droppedSecond.sort()
        result.late.sort()
        return (result, sync.statistics)
    }
}
