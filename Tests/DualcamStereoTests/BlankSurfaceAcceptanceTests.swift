import DualcamGeometry
import XCTest
@testable import DualcamStereo

/// Issue 17's blank surfaces on the rendered `office` (nominal rig,
/// 1920x1440, tele reference, photo-size output, clean): the painted walls
/// and ceiling that the unfiltered map left empty take the planes their
/// measured borders define.
final class BlankSurfaceAcceptanceTests: XCTestCase {
    /// Mean abs rel of the filtered depth over the painted surfaces' pixels
    /// that unfiltered left empty. Measured 4.9 % (5.9 % before the island
    /// removal; the row fill before the blank surfaces: 41 %); the issue's
    /// target is 2 %, which also needs the unfiltered map's wrong
    /// measurements on those walls gone.
    func testPaintedSurfacesTakeTheirBorderPlanes() throws {
        let run = try DepthAcceptanceTests.run("office")
        let pair = try DepthFixtures.pair("office")
        let view = pair.view(run.estimator.reference)
        let names = pair.scene.objects.map(\.name)
        let (w, h) = (run.result.size.width, run.result.size.height)
        let (sw, sh) = (view.size.width, view.size.height)
        var sum = 0.0, count = 0
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                guard run.result.unfilteredDisparityPixels[i].isNaN else { continue }
                // The view's pixel under the output pixel's centre (as DepthTruth samples it).
                let nx = min(sw - 1, max(0, Int(((Double(x) + 0.5) * Double(sw) / Double(w) - 0.5).rounded())))
                let ny = min(sh - 1, max(0, Int(((Double(y) + 0.5) * Double(sh) / Double(h) - 0.5).rounded())))
                let id = Int(view.objectIDs[ny * sw + nx])
                guard id >= 0, names[id].hasPrefix("painted") else { continue }
                let truth = Double(run.truth.depth[i]), estimate = Double(run.result.depthMetres[i])
                guard truth.isFinite, truth > 0 else { continue }
                sum += abs(estimate - truth) / truth
                count += 1
            }
        }
        let absRel = sum / Double(max(1, count))
        print("blank surfaces office: painted holes \(count) px, filtered AbsRel \(absRel)")
        XCTAssertGreaterThan(count, 50_000, "the painted walls are mostly unmeasured")
        XCTAssertLessThanOrEqual(absRel, 0.10)
    }

    /// On the office (a window onto a facade 20 m away, 1-2 px of disparity
    /// on this rig): no measurement within the refinement's noise of zero
    /// disparity (they made depths of kilometres), and nothing filled beyond
    /// the measured range (the planes' extrapolation put fills at the
    /// disparity floor: 2e7 m).
    func testNoDepthBeyondWhatWasMeasured() throws {
        let run = try DepthAcceptanceTests.run("office")
        let measured = run.result.unfilteredDisparityPixels.filter(\.isFinite)
        let noise = Float(try XCTUnwrap(run.estimator.options.measuredTolerancePixels))
        XCTAssertGreaterThan(measured.min() ?? 0, noise)
        let low = try XCTUnwrap(measured.min()), high = try XCTUnwrap(measured.max())
        let filled = run.result.disparityPixels.filter(\.isFinite)
        XCTAssertEqual(filled.count, run.result.coveredCount)
        XCTAssertGreaterThanOrEqual(filled.min() ?? 0, low)
        XCTAssertLessThanOrEqual(filled.max() ?? .infinity, high)
        // Nor any whose own predicted noise reaches zero disparity: every
        // value exceeds one calibrated sigma (`DisparityNoise.boundsDepth`);
        // before that rule 2.4 % of the office's values did not (clean,
        // scripts/depth-yardstick.sh: coverage 0.499 -> 0.487).
        let relative = run.result.relativeDepthSigma
        XCTAssertEqual(relative.count, run.result.unfilteredDisparityPixels.count)
        let unbounded = relative.filter { $0.isFinite && DisparityNoise.calibration * $0 >= 1 }.count
        XCTAssertEqual(unbounded, 0, "measurements whose 1-sigma depth interval reaches infinity")
        XCTAssertGreaterThan(relative.filter(\.isFinite).count, measured.count / 2, "the noise is predicted")
        let farthest = run.result.depthMetres.filter(\.isFinite).max() ?? 0
        print("blank surfaces office: farthest filtered depth \(farthest) m")
        XCTAssertLessThan(farthest, 1000)
    }
}
