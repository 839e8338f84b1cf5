import DualcamDepthMap
import DualcamGeometry
import Foundation

/// What `dualcam eval` prints: one column per scored map (text), or JSON.
struct EvalReport: Encodable {
    struct Entry: Encodable {
        var name: String
        var description: String
        var evaluation: StereoEvaluation
        var milliseconds: Double?

        enum CodingKeys: String, CodingKey { case name, description, scores, milliseconds }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(description, forKey: .description)
            try c.encode(evaluation.report, forKey: .scores)
            try c.encodeIfPresent(milliseconds, forKey: .milliseconds)
        }
    }

    var groundTruth: String
    var groundTruthDescription: String
    var geometry: DisparityGeometry?
    var space: EvaluationSpace
    var region: [Int]?
    var maps: [Entry]
    var timingsMs: [String: Double]

    init(groundTruth: String, groundTruthDescription: String, geometry: DisparityGeometry?, options: EvaluationOptions,
         entries: [Entry], timingsMs: [String: Double]) {
        self.groundTruth = groundTruth
        self.groundTruthDescription = groundTruthDescription
        self.geometry = geometry
        space = options.space
        region = options.region.map { [$0.x, $0.y, $0.x + $0.width, $0.y + $0.height] }
        maps = entries
        self.timingsMs = timingsMs
    }

    var text: String {
        let reports = maps.map(\.evaluation.report)
        guard let first = reports.first else { return "" }
        var lines = ["eval: \(groundTruth) (\(groundTruthDescription)), \(space.rawValue) space"
            + (region.map { ", region x \($0[0])..<\($0[2]) y \($0[1])..<\($0[3])" } ?? "")
            + ", \(first.all.evaluatedPixels) pixels scored"]
        for entry in maps { lines.append("  \(entry.name): \(entry.description)") }
        var rows: [(String, [String])] = [("", maps.map(\.name))]
        func row(_ label: String, _ value: (EvaluationReport) -> Double?, _ format: String) {
            rows.append((label, reports.map { value($0).map { $0.isFinite ? String(format: format, $0) : "-" } ?? "-" }))
        }
        row("coverage", { $0.all.coverage }, "%.3f")
        switch space {
        case .disparity:
            for t in first.all.disparity?.bad.map(\.thresholdPixels) ?? [] {
                row("bad\(Self.number(t)) %", { $0.all.disparity?.bad(t).map { 100 * $0.fraction } }, "%.2f")
            }
            for t in first.all.disparity?.bad.map(\.thresholdPixels) ?? [] {
                row("bad\(Self.number(t)) of valid %", { $0.all.disparity?.bad(t).map { 100 * $0.fractionOfValid } }, "%.2f")
            }
            row("avgerr px", { $0.all.disparity?.averageErrorPixels }, "%.3f")
            row("rms px", { $0.all.disparity?.rmsErrorPixels }, "%.3f")
            row("interior bad2 %", { $0.interior.disparity?.bad(2).map { 100 * $0.fraction } }, "%.2f")
            row("band bad2 %", { $0.band.disparity?.bad(2).map { 100 * $0.fraction } }, "%.2f")
            row("interior avgerr px", { $0.interior.disparity?.averageErrorPixels }, "%.3f")
            row("band avgerr px", { $0.band.disparity?.averageErrorPixels }, "%.3f")
        case .depth:
            row("AbsRel %", { $0.all.depth.map { 100 * $0.absoluteRelativeError } }, "%.3f")
            row("RMSE m", { $0.all.depth?.rmseMetres }, "%.4f")
            row("MAE m", { $0.all.depth?.maeMetres }, "%.4f")
            row("delta<1.05 %", { $0.all.depth.map { 100 * $0.delta105 } }, "%.2f")
            row("delta<1.25 %", { $0.all.depth.map { 100 * $0.delta125 } }, "%.2f")
            row("interior AbsRel %", { $0.interior.depth.map { 100 * $0.absoluteRelativeError } }, "%.3f")
            row("band AbsRel %", { $0.band.depth.map { 100 * $0.absoluteRelativeError } }, "%.3f")
        }
        row("streak ratio", { $0.all.streakRatio }, "%.2f")
        rows.append(("band pixels (radius \(first.bandRadius))", reports.map { String($0.band.evaluatedPixels) }))
        if maps.contains(where: { $0.milliseconds != nil }) {
            rows.append(("ms", maps.map { $0.milliseconds.map { String(format: "%.0f", $0) } ?? "-" }))
        }
        let labelWidth = rows.map(\.0.count).max() ?? 0
        let columnWidth = max(10, (rows.flatMap(\.1).map(\.count).max() ?? 0) + 2)
        for (label, cells) in rows {
            lines.append("  " + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(0, columnWidth - $0.count)) + $0 }.joined())
        }
        return lines.joined(separator: "\n")
    }

    static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
}
