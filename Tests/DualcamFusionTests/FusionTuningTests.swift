import DualcamCV
import DualcamFusion
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

final class FusionTuningTests: XCTestCase {
    func testTune() throws {
        guard ProcessInfo.processInfo.environment["FUSION_TUNE"] != nil else { return }
        let scenario = try FusionScenario.named("room")
        let (samples, _) = try scenario.samples(.random(fraction: 0.02))
        let input = FusionInput(size: FusionScenario.size, guideRGB: scenario.guideRGB, samples: samples, stereo: scenario.stereo)
        let band = scenario.discontinuity
        let inBand = band.map { !$0 }
        print("stereo raw-ish band-only", Figures(scenario.stereo.map { 1 / ((($0 + 0.02) / 1.15)) }, truth: scenario.truth, exclude: inBand))
        // Nearest-sample baseline via the distance transform is in the accuracy tests; here: samples only.
        let so = try DepthFusion.fuse(FusionInput(size: FusionScenario.size, guideRGB: scenario.guideRGB, samples: samples), options: DepthFusion.Options(focalPixels: scenario.focalPixels))
        print("samples only | all", Figures(so.filteredDepth, truth: scenario.truth), "| off band", Figures(so.filteredDepth, truth: scenario.truth, exclude: band), "| band", Figures(so.filteredDepth, truth: scenario.truth, exclude: inBand))
        for (rl, fl, sw, sc, g) in [(600.0, 60.0, 0.05, 8.0, 0.0), (600, 60, 0.05, 8, 1), (600, 60, 0.05, 8, 3), (600, 10, 0.05, 8, 1), (600, 10, 0.5, 8, 2), (600, 200, 0.05, 8, 2), (600, 60, 0.05, 20, 2)] {
            var o = DepthFusion.Options(focalPixels: scenario.focalPixels)
            o.residualSmoother.lambda = rl
            o.fillSmoother.lambda = fl
            o.stereoWeight = sw
            o.fillSmoother.sigmaColor = sc
            o.depthGuideGain = g
            let r = try DepthFusion.fuse(input, options: o)
            print(rl, fl, sw, sc, g, "| all", Figures(r.filteredDepth, truth: scenario.truth), "| off band", Figures(r.filteredDepth, truth: scenario.truth, exclude: band), "| band", Figures(r.filteredDepth, truth: scenario.truth, exclude: inBand), "| outliers", r.count(.outlier))
        }
    }
}
