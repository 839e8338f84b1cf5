import XCTest
@testable import DualcamBench

/// `Timing.measureAlternating` and `BenchmarkResult.roundRatio`: the
/// benchmarks' guard against a machine whose speed drifts during a run.
final class AlternatingTimingTests: XCTestCase {
    func testRoundsAlternateTheOrderAfterOneWarmUpEach() {
        var order: [Character] = []
        let (a, b) = Timing.measureAlternating(runs: 4, dualcam: { order.append("A") }, reference: { order.append("B") })
        XCTAssertEqual(String(order), "AB" + "AB" + "BA" + "AB" + "BA")
        XCTAssertEqual(a.runs.count, 4)
        XCTAssertEqual(b.runs.count, 4)
    }

    func testEachRoundTimesItsOwnWork() {
        // dualcam sleeps 6 ms, the reference 2 ms: every round's ratio is near 3.
        let (a, b) = Timing.measureAlternating(runs: 3, dualcam: { usleep(6_000) }, reference: { usleep(2_000) })
        for (x, y) in zip(a.runs, b.runs) {
            XCTAssertGreaterThanOrEqual(x, 6)
            XCTAssertGreaterThanOrEqual(y, 2)
            XCTAssertGreaterThan(x, y)
        }
    }

    func testRoundRatioIsTheMedianOfPerRoundRatios() throws {
        // A machine twice as slow in the second half: the medians' ratio is
        // 1.5, every round's own ratio 1.2.
        let ours = Timing(runs: [12, 12, 24, 24]), reference = Timing(runs: [10, 10, 20, 20])
        let result = BenchmarkResult(name: "x", work: "w", reference: "r", dualcam: ours, referenceTiming: reference,
                                     figures: [:], alternatingRounds: true)
        let r = try XCTUnwrap(result.roundRatio)
        XCTAssertEqual(r.median, 1.2, accuracy: 1e-12)
        XCTAssertEqual(r.lower, 1.2, accuracy: 1e-12)
        XCTAssertEqual(r.upper, 1.2, accuracy: 1e-12)
        XCTAssertTrue(result.text.contains("ratio in alternating rounds (median of per-round ratios, quartiles): 1.20 (1.20-1.20)"),
                      result.text)
    }

    func testNoRoundRatioWithoutAlternatingRounds() {
        let t = Timing(runs: [1, 2])
        XCTAssertNil(BenchmarkResult(name: "x", work: "w", reference: "r", dualcam: t, referenceTiming: t, figures: [:]).roundRatio)
        let unequal = BenchmarkResult(name: "x", work: "w", reference: "r", dualcam: t, referenceTiming: Timing(runs: [1]),
                                      figures: [:], alternatingRounds: true)
        XCTAssertNil(unequal.roundRatio)
        XCTAssertFalse(unequal.text.contains("alternating"))
    }
}
