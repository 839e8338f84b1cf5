import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamGeometry
import XCTest

/// Outlier views and per-camera intrinsic sets, on projected corners of the
/// nominal rig with known truth (no rendering).
final class CalibratorOptionsTests: XCTestCase {
    func views(_ count: Int, seed: UInt64) throws -> SyntheticBoardViews.Output {
        var synthetic = SyntheticBoardViews()
        synthetic.views = count
        synthetic.seed = seed
        synthetic.cornerNoisePixels = 0.1
        synthetic.size = PixelSize(width: 2016, height: 1512)
        return try synthetic.make()
    }

    func testOutlierViewIsDroppedWithItsReason() throws {
        var data = try views(12, seed: 11)
        // View 4's tele corners are off by a smooth 2-3 px distortion the model cannot absorb.
        data.observations.pairs[4].tele.pixels = data.observations.pairs[4].tele.pixels.enumerated().map { i, p in
            p + Vector2(i % 2 == 0 ? 3 : -3, i % 3 == 0 ? 2 : -2)
        }
        let result = try RigCalibrator().calibrate(data.observations)
        XCTAssertEqual(result.report.pairsUsed, 11)
        XCTAssertEqual(result.report.dropped.map(\.view), ["004"])
        XCTAssertTrue(result.report.dropped[0].reason.contains("outlier: tele RMS"), result.report.dropped[0].reason)
        XCTAssertTrue(result.report.dropped[0].reason.contains("the median"), result.report.dropped[0].reason)
        let truth = try data.truth.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertEqual(result.report.baselineMM, truth.baseline, accuracy: 0.01 * truth.baseline)
        XCTAssertTrue(result.calibration.provenance.notes?.contains("11 of 12 pairs") ?? false)
    }

    func testSeparateIntrinsicSetsKeepIntrinsicsFixed() throws {
        let data = try views(24, seed: 12)
        var observations = data.observations
        observations.pairs = Array(data.observations.pairs.prefix(6))
        observations.wideOnly = data.observations.pairs.dropFirst(6).map { SingleObservation(name: "w\($0.name)", observation: $0.wide) }
        observations.teleOnly = data.observations.pairs.dropFirst(6).map { SingleObservation(name: "t\($0.name)", observation: $0.tele) }
        let result = try RigCalibrator().calibrate(observations)
        XCTAssertFalse(result.report.jointRefinement)
        XCTAssertEqual(result.report.cameras.map(\.views), [24, 24])
        XCTAssertEqual(result.report.pairsUsed, 6)
        for name in [FrameName.wide, .tele] {
            let truth = try data.truth.rig.camera(name).model.intrinsics
            let got = try result.calibration.rig.camera(name).model.intrinsics
            XCTAssertEqual(got.fx / truth.fx, 1, accuracy: 0.002, "\(name)")
        }
        let truth = try data.truth.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertEqual(result.report.baselineMM, truth.baseline, accuracy: 0.01 * truth.baseline)
    }

    func testFewerThanThreeUsablePairsAfterDetection() throws {
        var data = try views(4, seed: 13)
        data.observations.pairs = Array(data.observations.pairs.prefix(2))
        data.observations.dropped = [DroppedView(view: "x", reason: "no 9x6 chessboard found in either image"),
                                     DroppedView(view: "y", reason: "no 9x6 chessboard found in either image")]
        XCTAssertThrowsError(try RigCalibrator().calibrate(data.observations)) { error in
            XCTAssertTrue("\(error)".contains("only 2 usable pair(s) of 4; at least 3"), "\(error)")
        }
        data.observations.pairs = []
        XCTAssertThrowsError(try RigCalibrator().calibrate(data.observations)) { error in
            XCTAssertTrue("\(error)".contains("no pattern found in any of the 2 views"), "\(error)")
        }
    }
}
