import DualcamFusion
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// Error figures of a depth map against ground truth over the pixels where both are finite.
struct Figures: CustomStringConvertible {
    var rmse: Double
    var meanAbsRel: Double
    var coverage: Double
    var description: String {
        String(format: "RMSE %.4f m, mean abs rel %.4f %%, coverage %.1f %%", rmse, 100 * meanAbsRel, 100 * coverage)
    }

    init(_ depth: [Float], truth: [Float], exclude: [Bool]? = nil) {
        var se = 0.0, rel = 0.0, n = 0, total = 0
        for p in depth.indices where truth[p].isFinite && !(exclude?[p] ?? false) {
            total += 1
            guard depth[p].isFinite else { continue }
            let e = Double(depth[p] - truth[p])
            se += e * e
            rel += abs(e) / Double(truth[p])
            n += 1
        }
        rmse = n > 0 ? (se / Double(n)).squareRoot() : .nan
        meanAbsRel = n > 0 ? rel / Double(n) : .nan
        coverage = total > 0 ? Double(n) / Double(total) : 0
    }
}

final class FusionAccuracyTests: XCTestCase {
    func testMeasureRoom() throws {
        let scenario = try FusionScenario.named("room")
        let (samples, _) = try scenario.samples(.random(fraction: 0.02))
        let input = FusionInput(size: FusionScenario.size, guideRGB: scenario.guideRGB, samples: samples,
                                stereo: scenario.stereo)
        let result = try DepthFusion.fuse(input, options: DepthFusion.Options(focalPixels: scenario.focalPixels))
        print("fit", result.fit!.scale, result.fit!.shift, result.fit!.inlierCount, result.fit!.residualRMS)
        print("verdicts verified", result.count(.verified), "unverified", result.count(.unverified), "outlier", result.count(.outlier))
        print("filtered", Figures(result.filteredDepth, truth: scenario.truth))
        print("filtered no band", Figures(result.filteredDepth, truth: scenario.truth, exclude: scenario.discontinuity))
        print("unfiltered", Figures(result.unfilteredDepth, truth: scenario.truth))
        print("timings", result.timings)
        let samplesOnly = try DepthFusion.fuse(FusionInput(size: FusionScenario.size, guideRGB: scenario.guideRGB, samples: samples),
                                               options: DepthFusion.Options(focalPixels: scenario.focalPixels))
        print("samples only", Figures(samplesOnly.filteredDepth, truth: scenario.truth))
        print("samples only no band", Figures(samplesOnly.filteredDepth, truth: scenario.truth, exclude: scenario.discontinuity))
        print("samples only unfiltered", Figures(samplesOnly.unfilteredDepth, truth: scenario.truth))
    }
}
