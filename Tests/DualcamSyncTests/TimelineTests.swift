import DualcamSync
import XCTest

/// Synchronizer behaviour on drawn timelines (1 column = 1 ms), with the exact
/// pairs and drops expected.
final class TimelineTests: XCTestCase {
    private func check(_ text: String, maxSkew: Int64, pairs: [String], droppedFirst: [String] = [], droppedSecond: [String] = [],
                       arrivals: [Timeline.Arrival] = [.byTime, .firstThenSecond, .secondDelayed(ticks: 25)],
                       file: StaticString = #filePath, line: UInt = #line) {
        let timeline = Timeline(text)
        for arrival in arrivals {
            let (result, stats) = timeline.run(maxSkewTicks: maxSkew, arrival: arrival)
            XCTAssertEqual(result.pairs, pairs.sorted(), "pairs, arrival \(arrival)", file: file, line: line)
            XCTAssertEqual(result.droppedFirst, droppedFirst.sorted(), "drops A, arrival \(arrival)", file: file, line: line)
            XCTAssertEqual(result.droppedSecond, droppedSecond.sorted(), "drops B, arrival \(arrival)", file: file, line: line)
            XCTAssertEqual(stats.pairs, pairs.count, file: file, line: line)
            XCTAssertEqual(stats.droppedFirst, droppedFirst.count, file: file, line: line)
            XCTAssertEqual(stats.droppedSecond, droppedSecond.count, file: file, line: line)
        }
    }

    func testSameRateWithJitter() {
        check("""
            A: a.........b.........c.........d.........e
            B: ..v.......w............x.....y...........z
            """, maxSkew: 3, pairs: ["a-v", "b-w", "c-x", "d-y", "e-z"])
    }

    func testDropsOnEitherSide() {
        // B lost the frame near c; A lost the frame near x.
        check("""
            A: a.........b.........c..................e.........f
            B: .v.........w..................x........y.........z
            """, maxSkew: 3, pairs: ["a-v", "b-w", "e-y", "f-z"], droppedFirst: ["c"], droppedSecond: ["x"])
    }

    func testSkewLimitIsInclusive() {
        check("""
            A: a.........b
            B: ...x..........y
            """, maxSkew: 3, pairs: ["a-x"], droppedFirst: ["b"], droppedSecond: ["y"])
        check("""
            A: a.........b
            B: ...x..........y
            """, maxSkew: 4, pairs: ["a-x", "b-y"])
    }

    func testBurstAfterStall() {
        // B stalls, then delivers a burst of three frames close together: only the
        // one nearest to c pairs; the rest are dropped, pairs never cross.
        check("""
            A: a.........b.........c.........d
            B: v...................wxy.......z
            """, maxSkew: 2, pairs: ["a-v", "c-w", "d-z"], droppedFirst: ["b"], droppedSecond: ["x", "y"])
    }

    func testDifferentRates() {
        // A every 6 ms, B every 4 ms: pairs where they meet within 1 ms.
        check("""
            A: a.....b.....c.....d.....e
            B: v...w...x...y...z...s...t
            """, maxSkew: 1, pairs: ["a-v", "c-y", "e-t"], droppedFirst: ["b", "d"], droppedSecond: ["w", "x", "z", "s"])
    }

    func testTightestOfSeveralCandidates() {
        // Both x and y are within 10 ms of a; y is closer.
        check("""
            A: .....a
            B: ..x...y
            """, maxSkew: 10, pairs: ["a-y"], droppedSecond: ["x"])
    }

    func testMostPairsBeforeSmallestSkew() {
        // Greedy closest-first would pair b-x (4 ms) and leave a and y alone;
        // the optimal pairing keeps two pairs of 8 ms each.
        check("""
            A: a...........b
            B: ........x...........y
            """, maxSkew: 10, pairs: ["a-x", "b-y"])
    }

    func testNeverCrossing() {
        // b-x is as close as b-y, but a-x + b-y keeps both pairs without crossing;
        // when only one pair is possible the tighter one wins.
        check("""
            A: a..b
            B: .x...y
            """, maxSkew: 2, pairs: ["a-x", "b-y"])
        check("""
            A: ....ab
            B: ..x....
            """, maxSkew: 3, pairs: ["a-x"], droppedFirst: ["b"])
    }

    func testLateArrivalBehindTheHorizonIsDropped() {
        // B's frames arrive 100 ms after their timestamps; by then A has moved on,
        // but nothing was decided around them yet, so the pairing is unchanged.
        let timeline = Timeline("""
            A: a.........b.........c.........d
            B: .x.........y.........z.........w
            """)
        let (onTime, _) = timeline.run(maxSkewTicks: 3)
        let (late, _) = timeline.run(maxSkewTicks: 3, arrival: .secondDelayed(ticks: 100))
        XCTAssertEqual(onTime.pairs, ["a-x", "b-y", "c-z", "d-w"])
        XCTAssertEqual(late, onTime)

        // A frame older than an already decided one is dropped as late.
        typealias F = Stamped<String>
        let sync = ApproximateSynchronizer<F, F>(maxSkewNs: 3_000_000)
        var events = sync.push(first: F(0, "a")) + sync.push(second: F(1_000_000, "x"))
        events += sync.push(first: F(10_000_000, "b")) + sync.push(second: F(11_000_000, "y"))
        XCTAssertEqual(events.count, 1, "a-x is decided once both streams are past 4 ms")
        events = sync.push(second: F(500_000, "old"))
        guard case let .droppedSecond(item, reason)? = events.first else { return XCTFail("expected a late drop") }
        XCTAssertEqual(item.value, "old")
        XCTAssertEqual(reason, .late)
        XCTAssertEqual(sync.statistics.lateSecond, 1)
    }

    func testStalledStreamIsBoundedByTheQueue() {
        // B never delivers: A's queue never exceeds its capacity; old frames are
        // dropped as they are forced out.
        typealias F = Stamped<Int>
        let sync = ApproximateSynchronizer<F, F>(maxSkewNs: 1_000_000, queueCapacity: 8)
        var dropped = 0
        for i in 0..<100 {
            for e in sync.push(first: F(Int64(i) * 33_000_000, i)) {
                if case .droppedFirst = e { dropped += 1 }
            }
            XCTAssertLessThanOrEqual(sync.pendingCount.first, 8)
        }
        XCTAssertEqual(dropped, 92)
        XCTAssertEqual(sync.statistics.forcedDecisions, 92)
    }

    func testSkewStatistics() {
        let (_, stats) = Timeline("""
            A: a.........b.........c.........d
            B: .x..........y.........z..........w
            """).run(maxSkewTicks: 3)
        XCTAssertEqual(stats.pairs, 4)
        XCTAssertEqual(stats.absoluteSkewsNs.sorted(), [1_000_000, 2_000_000, 2_000_000, 3_000_000])
        XCTAssertEqual(stats.medianSkewNs, 2_000_000)
        XCTAssertEqual(stats.maxSkewNs, 3_000_000)
    }
}
