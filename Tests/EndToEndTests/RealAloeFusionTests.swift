import DualcamBench
import DualcamDepthMap
import XCTest

/// Issue 19's real-imagery acceptance at the default `streaming` size
/// (Aloe, 320x277), through `FusionYardstick` as `dualcam bench fuse-real`
/// runs it: one-step `fuse --tele` (no depth option) with samples drawn from
/// the ground truth (1 % noise, 2 % outliers), and its baselines in the same
/// run: nearest-sample fill, and OpenCV SGBM on the full pair fitted to the
/// samples, which has holes, so the fused map is scored on its pixels.
/// Figures: docs/fusion.md ("Issue 19: fusing on a finer grid").
final class RealAloeFusionTests: XCTestCase {
    func run(_ pattern: String) throws -> FusionYardstickRun {
        let entry = try XCTUnwrap(FusionYardstick.patterns.first { $0.label == pattern })
        let aloe = try FusionYardstick.aloe(entry.pattern)
        let size = try DepthOutputSize.streaming.resolved(for: aloe.wideSize)
        return try aloe.run(outputSize: size, noiseSigma: { 0.01 * $0 })
    }

    /// 2 % random samples: at least 30 % below the better baseline.
    func testTwoPercentSamplesBeatTheBetterBaselineByAThird() throws {
        let r = try run("2 %")
        let sgbm = try XCTUnwrap(r.alignedSGBM), fusedThere = try XCTUnwrap(r.fusedOnSGBM)
        print(String(format: "Aloe 2 %% %@: fused %.2f %%, nearest %.2f %%, aligned SGBM %.2f %% (coverage %.3f), fused there %.2f %%",
                     "\(r.outputSize)", 100 * r.fused.all.meanAbsoluteRelativeError, 100 * r.nearest.meanAbsoluteRelativeError,
                     100 * sgbm.meanAbsoluteRelativeError, sgbm.coverage, 100 * fusedThere.meanAbsoluteRelativeError))
        XCTAssertEqual(r.fused.all.coverage, 1)
        XCTAssertLessThanOrEqual(r.fused.all.meanAbsoluteRelativeError, 0.7 * r.nearest.meanAbsoluteRelativeError)
        XCTAssertLessThanOrEqual(fusedThere.meanAbsoluteRelativeError, 0.7 * sgbm.meanAbsoluteRelativeError)
        // Filtered mode keeps verified samples within their noise (3 sigma) nearly everywhere.
        XCTAssertLessThanOrEqual(Double(r.verifiedOffNoise), 0.01 * Double(r.verified))
    }

    /// A 24x24 grid (no sample verified): lower than both baselines.
    func testGridSamplesBeatBothBaselines() throws {
        let r = try run("24x24 grid")
        let sgbm = try XCTUnwrap(r.alignedSGBM), fusedThere = try XCTUnwrap(r.fusedOnSGBM)
        print(String(format: "Aloe 24x24 grid %@: fused %.2f %%, nearest %.2f %%, aligned SGBM %.2f %%, fused there %.2f %%",
                     "\(r.outputSize)", 100 * r.fused.all.meanAbsoluteRelativeError, 100 * r.nearest.meanAbsoluteRelativeError,
                     100 * sgbm.meanAbsoluteRelativeError, 100 * fusedThere.meanAbsoluteRelativeError))
        XCTAssertLessThan(r.fused.all.meanAbsoluteRelativeError, r.nearest.meanAbsoluteRelativeError)
        XCTAssertLessThan(fusedThere.meanAbsoluteRelativeError, sgbm.meanAbsoluteRelativeError)
    }
}
