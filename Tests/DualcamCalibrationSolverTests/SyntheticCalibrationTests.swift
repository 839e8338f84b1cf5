import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamGeometry
import XCTest

/// Acceptance on the nominal wide/tele rig with known truth: 20 views of a
/// 16x11 chessboard (15 mm) at 4032x3024, corners projected through the true
/// rig and given 0.2 px Gaussian noise per coordinate (see
/// `SyntheticBoardViews`), and 5 held-back views for `verify`. With a 9x6
/// board the tele principal point's standard deviation at this noise is
/// about 1.6 px (OpenCV's estimate, matched by the errors over seeds), so a
/// 1 px criterion would be luck; 176 corners per view bring it to 0.7-1 px
/// and the errors measured over 8 seeds to at most 0.73 px.
final class SyntheticCalibrationTests: XCTestCase {
    struct Fixture {
        var views: SyntheticBoardViews.Output
        var result: RigCalibrationResult
    }

    /// Computed once per process.
    static let fixture: Result<Fixture, Error> = Result {
        var synthetic = SyntheticBoardViews()
        synthetic.views = 20
        synthetic.heldBackViews = 5
        synthetic.cornerNoisePixels = 0.2
        synthetic.target = try BoardTarget(parsing: "chessboard:16x11:15mm")
        synthetic.seed = 7
        let views = try synthetic.make()
        return Fixture(views: views, result: try RigCalibrator().calibrate(views.observations))
    }

    func testIntrinsicsMatchTruth() throws {
        let f = try Self.fixture.get()
        for name in [FrameName.wide, .tele] {
            let truth = try f.views.truth.rig.camera(name).model.intrinsics
            let got = try f.result.calibration.rig.camera(name).model.intrinsics
            XCTAssertLessThan(abs(got.fx / truth.fx - 1), 0.002, "\(name) fx \(got.fx) vs \(truth.fx)")
            XCTAssertLessThan(abs(got.fy / truth.fy - 1), 0.002, "\(name) fy \(got.fy) vs \(truth.fy)")
            XCTAssertLessThan(abs(got.cx - truth.cx), 1, "\(name) cx \(got.cx) vs \(truth.cx)")
            XCTAssertLessThan(abs(got.cy - truth.cy), 1, "\(name) cy \(got.cy) vs \(truth.cy)")
        }
    }

    func testExtrinsicsMatchTruth() throws {
        let f = try Self.fixture.get()
        let truth = try f.views.truth.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        let got = try f.result.calibration.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertEqual(got.unit, .millimetre)
        XCTAssertLessThan(abs(got.baseline / truth.baseline - 1), 0.005, "baseline \(got.baseline) vs \(truth.baseline) mm")
        let difference = got.rotation * truth.rotation.inverse
        XCTAssertLessThan(difference.angleDegrees, 0.05, "rotation differs by \(difference.angleDegrees) deg")
        XCTAssertEqual(f.result.report.baselineMM, got.baseline, accuracy: 1e-12)
    }

    func testReportAndProvenance() throws {
        let f = try Self.fixture.get()
        let report = f.result.report
        XCTAssertEqual(report.pairsUsed, 20)
        XCTAssertTrue(report.dropped.isEmpty)
        XCTAssertTrue(report.jointRefinement)
        // 0.2 px per coordinate: RMS of the 2D error is about 0.2 * sqrt(2) = 0.28 px.
        XCTAssertEqual(report.stereoRMS, 0.2 * 2.0.squareRoot(), accuracy: 0.03)
        XCTAssertLessThan(report.epipolarErrorMean, 0.4)
        // The Jacobian-based uncertainties are small but not zero.
        XCTAssertTrue(report.baselineStdMM > 0 && report.baselineStdMM < 0.05, "\(report.baselineStdMM)")
        XCTAssertTrue(report.rotationStdDegrees.allSatisfy { $0 > 0 && $0 < 0.05 }, "\(report.rotationStdDegrees)")
        XCTAssertTrue(report.cameras.allSatisfy { ($0.standardDeviations["fx"] ?? 0) > 0 })
        let provenance = f.result.calibration.provenance
        XCTAssertEqual(provenance.source, .calibrated)
        XCTAssertEqual(provenance.rms?.stereo, report.stereoRMS)
        XCTAssertEqual(provenance.rms?.cameras.keys.sorted(), ["tele", "wide"])
        // The file round-trips through the dualcam YAML format.
        let yaml = try f.result.calibration.yamlString()
        let back = try CalibrationFile(yaml: yaml, path: "rig.yaml")
        XCTAssertEqual(back.rig, f.result.calibration.rig)
        XCTAssertTrue(yaml.contains("calibration_report:"))
    }

    func testVerifyPassesOnHeldBackViewsAndFailsOnPerturbedRotation() throws {
        let f = try Self.fixture.get()
        let verifier = CalibrationVerifier()
        let good = try verifier.verify(f.result.calibration, observations: f.views.heldBack)
        XCTAssertTrue(good.passed, good.text)
        XCTAssertEqual(good.pairsUsed, 5)
        XCTAssertLessThan(good.reprojectionRMS, 0.4)

        // Perturb the rotation by 0.5 degrees, about each axis in turn.
        for axis in [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)] {
            var bad = f.result.calibration
            let t = try bad.rig.transform(from: .wide, to: .tele, unit: .millimetre)
            let perturbed = try RigidTransform(rotation: Rotation(axis: axis, angle: Angle.radians(0.5)) * t.rotation,
                                               translation: t.translation, unit: .millimetre, from: .wide, to: .tele)
            bad.rig = try Rig(reference: .wide, cameras: bad.rig.cameras, extrinsics: [perturbed])
            let report = try verifier.verify(bad, observations: f.views.heldBack)
            XCTAssertFalse(report.passed, "axis \(axis): \(report.text)")
            XCTAssertGreaterThan(report.reprojectionRMS, 1.5, "axis \(axis)")
        }
    }

    func testTooFewViewsIsAnError() throws {
        var synthetic = SyntheticBoardViews()
        synthetic.views = 2
        synthetic.size = PixelSize(width: 1008, height: 756)
        let views = try synthetic.make()
        XCTAssertThrowsError(try RigCalibrator().calibrate(views.observations)) { error in
            XCTAssertTrue("\(error)".contains("at least 3"), "\(error)")
        }
    }
}
