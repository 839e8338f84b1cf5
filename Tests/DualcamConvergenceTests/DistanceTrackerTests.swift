import DualcamConvergence
import XCTest

/// `DistanceTracker` on drawn measurement timelines, one column per frame:
///
///     measured: ....x....-..aa....
///     decision: sffffcffffcffffff
///
/// The subject moves from 0.5 m to 2 m, linearly in distance over the
/// frames. What each frame measured:
/// - `.` the true distance (plus a little noise),
/// - `x` a false peak only: the pattern's repeat one period (8 px of parallax) nearer,
/// - `a` ambiguous: the repeat first, the truth second,
/// - `-` no texture (no usable measurement),
/// - `n` a new subject at 3 m (a persistent change).
/// Decisions: `s` started, `f` followed, `c` coasted, `r` restarted.
final class DistanceTrackerTests: XCTestCase {
    static let rate = 9.52  // px of parallax per 1/m: the nominal rig at 640x480
    static let period = 8.0  // px

    struct Run {
        var truth: [Double] = []
        var output: [Double] = []
        var decisions = ""
    }

    static func run(_ measured: String, options: DistanceTracker.Options = .init()) -> Run {
        let frames = Array(measured)
        var tracker = DistanceTracker(options: options)
        var run = Run()
        for (k, symbol) in frames.enumerated() {
            let d = 0.5 + 1.5 * Double(k) / Double(max(1, frames.count - 1))
            let noise = 0.002 * sin(Double(k) * 2.3)  // +-0.2 % of q
            let q = symbol == "n" ? 1 / 3.0 : (1 / d) * (1 + noise)
            let alias = q + period / rate
            let m: DistanceTracker.Measurement
            switch symbol {
            case "x": m = .init(candidates: [alias], rate: rate)
            case "a": m = .init(candidates: [alias, q], rate: rate)
            case "-": m = .init(candidates: [alias], rate: rate, usable: false)
            default: m = .init(candidates: [q], rate: rate)
            }
            let step = tracker.update(m)
            run.truth.append(symbol == "n" ? 3 : d)
            run.output.append(step.distance.metres)
            run.decisions.append(["started": "s", "followed": "f", "coasted": "c", "restarted": "r", "waiting": "w"][step.decision.rawValue]!)
        }
        return run
    }

    /// Largest relative error from `from` on, and largest relative step between frames (in distance).
    static func errors(_ run: Run, from: Int) -> (error: Double, jump: Double) {
        let error = zip(run.output, run.truth).dropFirst(from).map { abs($0 - $1) / $1 }.max() ?? 0
        let jump = zip(run.output, run.output.dropFirst()).map { abs($1 - $0) / $0 }.max() ?? 0
        return (error, jump)
    }

    func check(_ measured: String, decisions: String, options: DistanceTracker.Options = .init(),
               within: Double = 0.02, after: Int = 5, file: StaticString = #filePath, line: UInt = #line) {
        let run = Self.run(measured, options: options)
        XCTAssertEqual(run.decisions, decisions, file: file, line: line)
        let (error, jump) = Self.errors(run, from: after)
        XCTAssertLessThanOrEqual(error, within, "error after frame \(after)", file: file, line: line)
        XCTAssertLessThanOrEqual(jump, 0.10, "largest step between frames", file: file, line: line)
    }

    func testFollowsASubjectMovingAway() {
        let clean = String(repeating: ".", count: 60)
        check(clean, decisions: "s" + String(repeating: "f", count: 59))
        let run = Self.run(clean)
        print(String(format: "tracker, clean 0.5 -> 2 m in 60 frames: error after 5 frames %.2f %%, largest step %.2f %%",
                     100 * Self.errors(run, from: 5).error, 100 * Self.errors(run, from: 5).jump))
    }

    func testSingleFalsePeaksAndBlankFramesAreRidden() {
        check("...........x.........-.........x.....-..........x.........",
              decisions: "sffffffffffcfffffffffcfffffffffcfffffcffffffffffcfffffffff")
    }

    /// Ambiguous frames: the candidate nearest the prediction is the truth.
    func testAmbiguousFramesFollowTheTruth() {
        check("......aaaaaaaaaa.....aaaa.a.a.a........aaaaaaaaaaaaaaaaaaaa",
              decisions: "s" + String(repeating: "f", count: 58))
    }

    /// Runs of false peaks shorter than the restart count are ridden out
    /// (the prediction carries the motion meanwhile).
    func testShortRunsOfFalsePeaksAreRidden() {
        check("..........xxxx...........----.............xxxx.............",
              decisions: "sfffffffffccccfffffffffffccccfffffffffffffccccfffffffffffff")
    }

    /// A persistent change (a new subject at 3 m) restarts the filter after
    /// five frames and the distance glides there, at most 15 % of q per frame.
    func testANewSubjectRestartsAndGlides() {
        let run = Self.run("..........nnnnnnnnnnnnnnnnnnnn")
        XCTAssertEqual(run.decisions, "sfffffffffccccrfffffffffffffff")
        let steps = zip(run.output, run.output.dropFirst()).map { abs(1 / $1 - 1 / $0) / (1 / $0) }
        XCTAssertLessThanOrEqual(steps.max()!, 0.15 / (1 - 0.15) + 1e-9)
        XCTAssertEqual(run.output.last!, 3, accuracy: 0.03)
    }

    /// Without the output's step limit the gate alone keeps every step below 10 %.
    func testTheGateAloneKeepsStepsSmall() {
        var options = DistanceTracker.Options()
        options.maxStepFraction = .infinity
        check("...........x.........-.........x.....-..........x.........",
              decisions: "sffffffffffcfffffffffcfffffffffcfffffcffffffffffcfffffffff", options: options)
    }

    /// Frames without texture before any measurement hand out their own best and start nothing.
    func testWaitsForAUsableFirstFrame() {
        let run = Self.run("--" + String(repeating: ".", count: 58))
        XCTAssertEqual(run.decisions, "wws" + String(repeating: "f", count: 57))
    }
}
