import DualcamSync
import TestSupport
import XCTest

/// ApproximateTime properties on random streams (jitter, drops, bursts,
/// different rates), checked against a brute-force optimal pairing on small
/// inputs and against arrival-order changes on long ones.
final class PropertyTests: XCTestCase {
    typealias F = Stamped<Int>

    /// A free-running stream: nominal period, jitter, random drops and bursts.
    static func stream(count: Int, periodNs: Int64, jitterNs: Int64, dropRate: Double, startNs: Int64,
                       using rng: inout SeededGenerator) -> [F] {
        var frames: [F] = []
        var t = startNs
        var id = 0
        while frames.count < count {
            t += periodNs + Int64.random(in: -jitterNs...jitterNs, using: &rng)
            if Double.random(in: 0..<1, using: &rng) < dropRate { continue }
            if Double.random(in: 0..<1, using: &rng) < 0.05 {
                // Burst: a few frames delivered close together.
                for _ in 0..<Int.random(in: 2...3, using: &rng) where frames.count < count {
                    t += Int64.random(in: 1_000_000...3_000_000, using: &rng)
                    frames.append(F(t, id)); id += 1
                }
                continue
            }
            frames.append(F(t, id)); id += 1
        }
        return frames
    }

    /// Every non-crossing pairing within maxSkew, enumerated: the best
    /// (pairs, -total skew).
    static func bruteForce(_ a: [Int64], _ b: [Int64], _ s: Int64) -> (pairs: Int, skew: Int64) {
        var best = (pairs: 0, skew: Int64(0))
        func visit(_ i: Int, _ minJ: Int, _ pairs: Int, _ skew: Int64) {
            if i == a.count {
                if pairs > best.pairs || (pairs == best.pairs && skew < best.skew) { best = (pairs, skew) }
                return
            }
            visit(i + 1, minJ, pairs, skew)
            var j = minJ
            while j < b.count {
                if abs(a[i] - b[j]) <= s { visit(i + 1, j + 1, pairs + 1, skew + abs(a[i] - b[j])) }
                j += 1
            }
        }
        visit(0, 0, 0, 0)
        return best
    }

    /// Runs the synchronizer with a random interleaving that keeps each stream in order.
    static func run(_ a: [F], _ b: [F], maxSkew: Int64, capacity: Int, using rng: inout SeededGenerator)
        -> (pairs: [(Int, Int, Int64)], droppedA: [Int], droppedB: [Int], stats: SyncStatistics) {
        let sync = ApproximateSynchronizer<F, F>(maxSkewNs: maxSkew, queueCapacity: capacity)
        var events: [SyncEvent<F, F>] = []
        var ia = 0, ib = 0
        while ia < a.count || ib < b.count {
            let takeA = ib == b.count || (ia < a.count && Bool.random(using: &rng))
            if takeA { events += sync.push(first: a[ia]); ia += 1 } else { events += sync.push(second: b[ib]); ib += 1 }
        }
        events += sync.finish()
        var pairs: [(Int, Int, Int64)] = [], da: [Int] = [], db: [Int] = []
        for e in events {
            switch e {
            case let .pair(p): pairs.append((p.first.value, p.second.value, p.skewNs))
            case let .droppedFirst(f, _): da.append(f.value)
            case let .droppedSecond(s, _): db.append(s.value)
            }
        }
        pairs.sort { $0.0 < $1.0 }
        return (pairs, da.sorted(), db.sorted(), sync.statistics)
    }

    /// Used at most once, every frame accounted for, never crossing, within the skew.
    func assertValid(_ r: (pairs: [(Int, Int, Int64)], droppedA: [Int], droppedB: [Int], stats: SyncStatistics),
                     countA: Int, countB: Int, maxSkew: Int64, file: StaticString = #filePath, line: UInt = #line) {
        let usedA = r.pairs.map(\.0) + r.droppedA, usedB = r.pairs.map(\.1) + r.droppedB
        XCTAssertEqual(usedA.sorted(), Array(0..<countA), "each A frame exactly once", file: file, line: line)
        XCTAssertEqual(usedB.sorted(), Array(0..<countB), "each B frame exactly once", file: file, line: line)
        for k in r.pairs.indices.dropFirst() {
            XCTAssertLessThan(r.pairs[k - 1].1, r.pairs[k].1, "pairs cross", file: file, line: line)
        }
        for p in r.pairs { XCTAssertLessThanOrEqual(abs(p.2), maxSkew, file: file, line: line) }
        XCTAssertEqual(r.stats.pairs, r.pairs.count, file: file, line: line)
        XCTAssertEqual(r.stats.droppedFirst, r.droppedA.count, file: file, line: line)
        XCTAssertEqual(r.stats.droppedSecond, r.droppedB.count, file: file, line: line)
    }

    func testSmallStreamsMatchBruteForceOptimum() {
        var rng = SeededGenerator(seed: 7)
        for trial in 0..<400 {
            let s = Int64.random(in: 1...25, using: &rng) * 1_000_000
            let a = Self.stream(count: Int.random(in: 0...7, using: &rng), periodNs: Int64.random(in: 8...40, using: &rng) * 1_000_000,
                                jitterNs: 4_000_000, dropRate: 0.15, startNs: 0, using: &rng)
            let b = Self.stream(count: Int.random(in: 0...7, using: &rng), periodNs: Int64.random(in: 8...40, using: &rng) * 1_000_000,
                                jitterNs: 4_000_000, dropRate: 0.15, startNs: Int64.random(in: 0...20, using: &rng) * 1_000_000, using: &rng)
            let r = Self.run(a, b, maxSkew: s, capacity: 64, using: &rng)
            assertValid(r, countA: a.count, countB: b.count, maxSkew: s)
            let best = Self.bruteForce(a.map(\.timestampNs), b.map(\.timestampNs), s)
            XCTAssertEqual(r.pairs.count, best.pairs, "trial \(trial): pair count")
            XCTAssertEqual(r.pairs.map { abs($0.2) }.reduce(0, +), best.skew, "trial \(trial): total skew")
        }
    }

    func testLongStreamsAreOptimalAndIndependentOfArrivalOrder() {
        var rng = SeededGenerator(seed: 11)
        for trial in 0..<12 {
            let pa = Int64.random(in: 25...40, using: &rng) * 1_000_000, pb = Int64.random(in: 25...40, using: &rng) * 1_000_000
            let s = Int64.random(in: 2...12, using: &rng) * 1_000_000
            let a = Self.stream(count: 300, periodNs: pa, jitterNs: 3_000_000, dropRate: 0.1, startNs: 0, using: &rng)
            let b = Self.stream(count: 300, periodNs: pb, jitterNs: 3_000_000, dropRate: 0.1, startNs: 5_000_000, using: &rng)
            let r1 = Self.run(a, b, maxSkew: s, capacity: 400, using: &rng)
            let r2 = Self.run(a, b, maxSkew: s, capacity: 400, using: &rng)
            assertValid(r1, countA: a.count, countB: b.count, maxSkew: s)
            XCTAssertEqual(r1.pairs.map(\.0), r2.pairs.map(\.0), "trial \(trial): arrival order changed the pairs")
            XCTAssertEqual(r1.pairs.map(\.1), r2.pairs.map(\.1))
            XCTAssertEqual(r1.stats.forcedDecisions, 0)
            // Whole-stream optimum (the dynamic programme over all 300 x 300).
            let whole = OptimalPairing.pairs(first: a.map(\.timestampNs), second: b.map(\.timestampNs), maxSkewNs: s)
            XCTAssertEqual(r1.pairs.count, whole.count, "trial \(trial)")
            XCTAssertEqual(r1.pairs.map { abs($0.2) }.reduce(0, +),
                           whole.map { abs(a[$0.0].timestampNs - b[$0.1].timestampNs) }.reduce(0, +), "trial \(trial)")
        }
    }

    func testSmallQueuesKeepThePropertiesAndBoundMemory() {
        var rng = SeededGenerator(seed: 23)
        for _ in 0..<20 {
            // Skew larger than the frame period: blocks never end on their own.
            let s = Int64.random(in: 30...80, using: &rng) * 1_000_000
            let a = Self.stream(count: 200, periodNs: 33_000_000, jitterNs: 5_000_000, dropRate: 0.1, startNs: 0, using: &rng)
            let b = Self.stream(count: 200, periodNs: 33_000_000, jitterNs: 5_000_000, dropRate: 0.1, startNs: 0, using: &rng)
            let r = Self.run(a, b, maxSkew: s, capacity: 6, using: &rng)
            assertValid(r, countA: a.count, countB: b.count, maxSkew: s)
            XCTAssertGreaterThan(r.stats.forcedDecisions, 0)
        }
    }
}
