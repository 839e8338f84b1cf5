import Foundation

/// Wall-clock timings of repeated runs and their summary.
public struct Timing: Codable, Sendable {
    public var runs: [Double]  // milliseconds
    public var median: Double { Self.quantile(runs, 0.5) }
    public var minimum: Double { runs.min() ?? .nan }
    public var maximum: Double { runs.max() ?? .nan }
    /// Half the interquartile range relative to the median: a robust spread.
    public var relativeSpread: Double { (Self.quantile(runs, 0.75) - Self.quantile(runs, 0.25)) / 2 / median }

    static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let i = Int(position), f = position - Double(i)
        return i + 1 < sorted.count ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i]
    }

    /// Runs `body` once to warm up, then `runs` times, timing each run.
    public static func measure(runs: Int, _ body: () throws -> Void) rethrows -> Timing {
        try body()
        var times: [Double] = []
        for _ in 0..<max(1, runs) { times.append(try milliseconds(body)) }
        return Timing(runs: times)
    }

    /// The wall-clock time of one call of `body`, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Times `dualcam` and `reference` in alternating rounds: each runs once
    /// to warm up, then each round runs both, the order swapped every round
    /// (AB, BA, AB, ...; with an odd `runs` dualcam goes first once more), so
    /// a machine that speeds up or slows down during the benchmark
    /// (frequency, other load) weighs on both alike. Round i's two times are
    /// `dualcam.runs[i]` and `reference.runs[i]` (`BenchmarkResult.roundRatio`).
    /// `BatchBenchmark.timedRuns` alternates its child processes the same way.
    public static func measureAlternating(runs: Int, dualcam: () throws -> Void,
                                          reference: () throws -> Void) rethrows -> (dualcam: Timing, reference: Timing) {
        try dualcam()
        try reference()
        var ours: [Double] = [], theirs: [Double] = []
        for round in 0..<max(1, runs) {
            if round % 2 == 0 {
                ours.append(try milliseconds(dualcam))
                theirs.append(try milliseconds(reference))
            } else {
                theirs.append(try milliseconds(reference))
                ours.append(try milliseconds(dualcam))
            }
        }
        return (Timing(runs: ours), Timing(runs: theirs))
    }

    /// `median 12.3 ms (min 11.9, max 13.0, spread ±2.1 %)`.
    public var summary: String {
        String(format: "median %.1f ms (min %.1f, max %.1f, spread ±%.1f %%)", median, minimum, maximum,
               relativeSpread * 100)
    }
}

/// One benchmark's result: dualcam's timing and the reference's, measured in the same run.
public struct BenchmarkResult: Codable, Sendable {
    public var name: String
    public var work: String
    public var reference: String
    public var dualcam: Timing
    public var referenceTiming: Timing
    /// dualcam median / reference median.
    public var ratio: Double { dualcam.median / referenceTiming.median }
    /// Whether the two timings were taken in alternating rounds
    /// (`Timing.measureAlternating`); nil or false: one after the other.
    public var alternatingRounds: Bool?
    /// With alternating rounds, the median over rounds i of dualcam.runs[i] /
    /// referenceTiming.runs[i], and that ratio's quartiles: a drift of the
    /// machine's speed slower than one round moves both times of a round
    /// alike, so not their ratio. Nil otherwise. (`--json` carries the two
    /// runs arrays and `alternating_rounds`, from which it follows.)
    public var roundRatio: (median: Double, lower: Double, upper: Double)? {
        guard alternatingRounds == true, dualcam.runs.count == referenceTiming.runs.count, !dualcam.runs.isEmpty
        else { return nil }
        let ratios = zip(dualcam.runs, referenceTiming.runs).map { $0 / $1 }
        return (Timing.quantile(ratios, 0.5), Timing.quantile(ratios, 0.25), Timing.quantile(ratios, 0.75))
    }
    /// Other figures the benchmark reports (throughputs, sizes).
    public var figures: [String: Double]
    /// A Markdown table of the figures side by side, for benchmarks that compare several methods.
    public var table: String?

    public init(name: String, work: String, reference: String, dualcam: Timing, referenceTiming: Timing,
                figures: [String: Double], table: String? = nil, alternatingRounds: Bool? = nil) {
        self.alternatingRounds = alternatingRounds
        self.name = name
        self.work = work
        self.reference = reference
        self.dualcam = dualcam
        self.referenceTiming = referenceTiming
        self.figures = figures
        self.table = table
    }

    public var text: String {
        var lines = ["benchmark \(name): \(work), \(dualcam.runs.count) runs",
                     "  dualcam:   \(dualcam.summary)",
                     "  reference: \(referenceTiming.summary) — \(reference)",
                     String(format: "  ratio dualcam / reference: %.2f", ratio)]
        if let r = roundRatio {
            lines.append(String(format: "  ratio in alternating rounds (median of per-round ratios, quartiles): %.2f (%.2f-%.2f)",
                                r.median, r.lower, r.upper))
        }
        if let table {
            lines.append(table)  // the figures, side by side (JSON carries them one by one)
        } else {
            for (key, value) in figures.sorted(by: { $0.key < $1.key }) {
                lines.append(String(format: "  %@: %.4g", key, value))
            }
        }
        return lines.joined(separator: "\n")
    }
}
