import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation

/// Runs a `CalibrationSuite`: makes or reads its views, calibrates, verifies
/// (synthetic suites with held-back views), and checks every quantity.
public enum CalibrationSuiteRunner {
    public struct Row: Codable, Sendable {
        public var quantity: String
        public var value: Double
        public var min: Double?
        public var max: Double?
        public var passed: Bool
    }

    public struct Outcome: Codable, Sendable {
        public var suite: String
        public var rows: [Row]
        public var passed: Bool
        public var seconds: Double

        /// The pass/fail table.
        public var table: String {
            func f(_ x: Double?) -> String { x.map { String(format: "%.6g", $0) } ?? "-" }
            let width = max(8, rows.map(\.quantity.count).max() ?? 0)
            func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
            var lines = ["suite \(suite)", pad("quantity", width) + "  " + pad("value", 12) + "  " + pad("min", 12) + "  "
                         + pad("max", 12) + "  result"]
            for r in rows {
                lines.append(pad(r.quantity, width) + "  " + pad(f(r.value), 12) + "  " + pad(f(r.min), 12) + "  "
                             + pad(f(r.max), 12) + "  " + (r.passed ? "pass" : "FAIL"))
            }
            lines.append("\(rows.filter(\.passed).count) passed, \(rows.filter { !$0.passed }.count) failed"
                         + String(format: " (%.1f s): ", seconds) + (passed ? "PASS" : "FAIL"))
            return lines.joined(separator: "\n")
        }
    }

    static let perCamera = ["fx", "fy", "cx", "cy", "rms_px"]
    static let perCameraTruth = ["fx_relative_error", "fy_relative_error", "cx_error_px", "cy_error_px"]
    static let general = ["pairs_given", "pairs_used", "stereo_rms_px", "epipolar_error_mean_px", "baseline_mm",
                          "baseline_std_mm", "rotation_deg", "baseline_relative_error", "rotation_error_deg",
                          "verify.reprojection_rms_px", "verify.epipolar_error_mean_px", "verify.passed",
                          "verify_perturbed.reprojection_rms_px", "verify_perturbed.epipolar_error_mean_px",
                          "verify_perturbed.passed"]

    /// Every quantity a check may name (errors against truth: synthetic suites only).
    public static var quantityNames: [String] {
        general + ["wide", "tele"].flatMap { c in (perCamera + perCameraTruth).map { "\(c).\($0)" } }
    }

    static func isKnown(_ name: String) -> Bool { quantityNames.contains(name) }

    public static func run(_ suite: CalibrationSuite) throws -> Outcome {
        let start = Date()
        var values: [String: Double] = [:]
        let result: RigCalibrationResult
        switch suite.source {
        case let .openCVList(list):
            let observations = try CalibrationSources(list: list).observations(detector: try PatternDetector(target: suite.pattern))
            result = try RigCalibrator().calibrate(observations)
        case let .synthetic(spec, rigURL, rendered, renderNoise, perturb):
            let rig = try rigURL.map { try CalibrationFile.read($0) }
            let views = rendered ? try renderedViews(spec, rig: rig, renderNoise: renderNoise) : try spec.make(rig: rig)
            result = try RigCalibrator().calibrate(views.observations)
            try addTruth(&values, result: result, truth: views.truth)
            if !views.heldBack.pairs.isEmpty {
                let verifier = CalibrationVerifier()
                let good = try verifier.verify(result.calibration, observations: views.heldBack)
                values["verify.reprojection_rms_px"] = good.reprojectionRMS
                values["verify.epipolar_error_mean_px"] = good.epipolarErrorMean
                values["verify.passed"] = good.passed ? 1 : 0
                if perturb != 0 {
                    let bad = try verifier.verify(try perturbed(result.calibration, degrees: perturb), observations: views.heldBack)
                    values["verify_perturbed.reprojection_rms_px"] = bad.reprojectionRMS
                    values["verify_perturbed.epipolar_error_mean_px"] = bad.epipolarErrorMean
                    values["verify_perturbed.passed"] = bad.passed ? 1 : 0
                }
            }
        }
        let r = result.report
        values["pairs_given"] = Double(r.pairsGiven)
        values["pairs_used"] = Double(r.pairsUsed)
        values["stereo_rms_px"] = r.stereoRMS
        values["epipolar_error_mean_px"] = r.epipolarErrorMean
        values["baseline_mm"] = r.baselineMM
        values["baseline_std_mm"] = r.baselineStdMM
        values["rotation_deg"] = r.rotationDegrees
        for c in r.cameras {
            values["\(c.name).fx"] = c.fx
            values["\(c.name).fy"] = c.fy
            values["\(c.name).cx"] = c.cx
            values["\(c.name).cy"] = c.cy
            values["\(c.name).rms_px"] = c.rms
        }
        let rows: [Row] = try suite.checks.map { check in
            guard let value = values[check.quantity] else {
                throw DualcamError.invalidValue(name: "suite \(suite.name)",
                                                reason: "quantity '\(check.quantity)' is not available for this source")
            }
            let passed = (check.min.map { value >= $0 } ?? true) && (check.max.map { value <= $0 } ?? true)
            return Row(quantity: check.quantity, value: value, min: check.min, max: check.max, passed: passed)
        }
        return Outcome(suite: suite.name, rows: rows, passed: rows.allSatisfy(\.passed), seconds: Date().timeIntervalSince(start))
    }

    static func addTruth(_ values: inout [String: Double], result: RigCalibrationResult, truth: CalibrationFile) throws {
        for name in [FrameName.wide, .tele] {
            let t = try truth.rig.camera(name).model.intrinsics, g = try result.calibration.rig.camera(name).model.intrinsics
            values["\(name).fx_relative_error"] = abs(g.fx / t.fx - 1)
            values["\(name).fy_relative_error"] = abs(g.fy / t.fy - 1)
            values["\(name).cx_error_px"] = abs(g.cx - t.cx)
            values["\(name).cy_error_px"] = abs(g.cy - t.cy)
        }
        let t = try truth.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        let g = try result.calibration.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        values["baseline_relative_error"] = abs(g.baseline / t.baseline - 1)
        values["rotation_error_deg"] = (g.rotation * t.rotation.inverse).angleDegrees
    }

    /// The calibration with tele_from_wide's rotation turned by `degrees` about the wide y axis.
    public static func perturbed(_ calibration: CalibrationFile, degrees: Double) throws -> CalibrationFile {
        var file = calibration
        let t = try file.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        let rotation = Rotation(axis: Vector3(0, 1, 0), angle: Angle.radians(degrees)) * t.rotation
        file.rig = try Rig(reference: file.rig.reference, cameras: file.rig.cameras, extrinsics: [
            try RigidTransform(rotation: rotation, translation: t.translation, unit: .millimetre, from: .wide, to: .tele),
        ])
        return file
    }

    /// Rendered board views (DualcamSynthetic, jittered anti-aliasing and
    /// optional sensor noise) with detected corners; poses as `BoardPoses`
    /// makes them for the synthesizer (tilts up to 30 degrees).
    static func renderedViews(_ spec: SyntheticBoardViews, rig: CalibrationFile?, renderNoise: Double) throws -> SyntheticBoardViews.Output {
        var synth = SynthSpec(sceneName: "board", calibration: try rig ?? NominalDevice.load(), size: spec.size)
        synth.board = spec.target
        synth.boardViews = spec.views + spec.heldBackViews
        synth.sceneOptions.seed = spec.seed
        synth.render.noiseSigma = renderNoise
        synth.render.seed = spec.seed
        let dataset = try Synthesizer.make(synth)
        let detector = try PatternDetector(target: spec.target)
        var all = CalibrationObservations(target: spec.target, wideSize: spec.size, teleSize: spec.size, pairs: [])
        for (index, pair) in dataset.pairs.enumerated() {
            let name = String(format: "%03d", index)
            guard let w = try detector.detect(in: pair.wide.image), let t = try detector.detect(in: pair.tele.image) else {
                all.dropped.append(DroppedView(view: name, reason: detector.notFoundReason))
                continue
            }
            all.pairs.append(PairObservation(name: name, wide: w, tele: t))
        }
        var observations = all, heldBack = all
        observations.pairs = all.pairs.filter { Int($0.name)! < spec.views }
        observations.dropped = all.dropped.filter { Int($0.view)! < spec.views }
        heldBack.pairs = all.pairs.filter { Int($0.name)! >= spec.views }
        heldBack.dropped = all.dropped.filter { Int($0.view)! >= spec.views }
        return SyntheticBoardViews.Output(truth: dataset.calibration, observations: observations, heldBack: heldBack)
    }
}
