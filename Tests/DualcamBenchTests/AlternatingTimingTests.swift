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
        // dualcam sleeps 6 ms, the reference 2 ms: each time is at least its own sleep.
        let (a, b) = Timing.measureAlternating(runs: 3, dualcam: { usleep(6_000) }, reference: { usleep(2_000) })
        for (x, y) in zip(a.runs, b.runs) {
            XCTAssertGreaterThanOrEqual(x, 6)
            XCTAssertGreaterThanOrEqual(y, 2)
        }
    }

    func testRoundRatioIsTheMedianOfPerRoundRatios() throws {
        // Per-round ratios 1.0, 1.5 and 0.8 (median 1.0, quartiles 0.9 and
        // 1.25), while the medians' ratio is 30 / 20 = 1.5.
        let ours = Timing(runs: [10, 30, 40]), reference = Timing(runs: [10, 20, 50])
        let result = BenchmarkResult(name: "x", work: "w", reference: "r", dualcam: ours, referenceTiming: reference,
                                     figures: [:], alternatingRounds: true)
        XCTAssertEqual(result.ratio, 1.5, accuracy: 1e-12)
        let r = try XCTUnwrap(result.roundRatio)
        XCTAssertEqual(r.median, 1.0, accuracy: 1e-12)
        XCTAssertEqual(r.lower, 0.9, accuracy: 1e-12)
        XCTAssertEqual(r.upper, 1.25, accuracy: 1e-12)
        XCTAssertTrue(result.text.contains("ratio in alternating rounds (median of per-round ratios, quartiles): 1.00 (0.90-1.25)"),
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
