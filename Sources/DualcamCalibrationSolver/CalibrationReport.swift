import DualcamCalibrationFiles
import DualcamGeometry
import Foundation

/// What a rig calibration measured, for people (`text`), scripts (JSON,
/// snake_case keys) and the calibration file (provenance and `extra`).
public struct CalibrationReport: Codable, Sendable {
    public struct Camera: Codable, Sendable {
        public var name: String
        public var imageWidth: Int
        public var imageHeight: Int
        /// RMS reprojection error of the single-camera calibration, px.
        public var rms: Double
        /// Views used for this camera's intrinsics.
        public var views: Int
        public var fx: Double, fy: Double, cx: Double, cy: Double
        /// k1 k2 p1 p2 k3.
        public var distortion: [Double]
        /// OpenCV's standard deviations (calibrateCamera) of fx, fy, cx, cy, k1, k2, p1, p2, k3.
        public var standardDeviations: [String: Double]
    }

    public struct View: Codable, Sendable {
        public var view: String
        /// RMS reprojection error in each camera after the final stereo step, px.
        public var wideRMS: Double
        public var teleRMS: Double
    }

    public var pattern: String
    public var pairsGiven: Int
    public var pairsUsed: Int
    public var dropped: [DroppedView]
    public var cameras: [Camera]
    /// RMS of the final stereo calibration (both cameras, all corners), px.
    public var stereoRMS: Double
    /// Whether the final step refined intrinsics and extrinsics jointly.
    public var jointRefinement: Bool
    public var perView: [View]
    /// Mean and largest |Δy| (or |Δx| for a vertical rig) of corresponding
    /// corners after rectification with the result (cv::stereoRectify), px.
    public var epipolarErrorMean: Double
    public var epipolarErrorMax: Double
    /// tele_from_wide: X_tele = R X_wide + t, t in mm.
    public var translationMM: [Double]
    public var baselineMM: Double
    public var rotationDegrees: Double
    /// Unit rotation axis (wide frame); (0, 0, 0) for no rotation.
    public var rotationAxis: [Double]
    /// Standard deviations from the Jacobian of the stereo reprojection
    /// residuals with intrinsics fixed (OpenCV's stereoCalibrate gives none).
    public var translationStdMM: [Double]
    public var baselineStdMM: Double
    public var rotationStdDegrees: [Double]

    /// A human-readable summary.
    public var text: String {
        func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }
        var lines = ["pattern \(pattern): \(pairsUsed) of \(pairsGiven) pairs used"
                     + (jointRefinement ? "" : " (intrinsics from separate per-camera sets, kept fixed)")]
        for d in dropped { lines.append("  dropped \(d.view): \(d.reason)") }
        for c in cameras {
            let s = c.standardDeviations
            lines.append("\(c.name) (\(c.imageWidth)x\(c.imageHeight), \(c.views) views): RMS \(f(c.rms)) px")
            lines.append("  fx \(f(c.fx, 2)) ± \(f(s["fx"] ?? 0, 2))  fy \(f(c.fy, 2)) ± \(f(s["fy"] ?? 0, 2))  "
                         + "principal point (\(f(c.cx, 2)) ± \(f(s["cx"] ?? 0, 2)), \(f(c.cy, 2)) ± \(f(s["cy"] ?? 0, 2)))")
            lines.append("  distortion k1 k2 p1 p2 k3: " + c.distortion.map { String(format: "%.5g", $0) }.joined(separator: " "))
        }
        lines.append("stereo RMS \(f(stereoRMS)) px; epipolar error after rectification mean \(f(epipolarErrorMean)) px, max \(f(epipolarErrorMax)) px")
        lines.append("tele_from_wide: baseline \(f(baselineMM, 4)) ± \(f(baselineStdMM, 4)) mm, t = ("
                     + translationMM.map { f($0, 4) }.joined(separator: ", ") + ") ± ("
                     + translationStdMM.map { f($0, 4) }.joined(separator: ", ") + ") mm")
        lines.append("  rotation \(f(rotationDegrees, 4)) deg about (" + rotationAxis.map { f($0, 4) }.joined(separator: ", ")
                     + "), std per axis (" + rotationStdDegrees.map { f($0, 4) }.joined(separator: ", ") + ") deg")
        lines.append("per-view RMS (wide, tele) px: "
                     + perView.map { "\($0.view) \(f($0.wideRMS, 2))/\(f($0.teleRMS, 2))" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// One line for `provenance.notes`.
    var notes: String {
        String(format: "dualcam calibrate: %@, %d of %d pairs; stereo RMS %.3f px; epipolar error %.3f px mean; baseline %.4f ± %.4f mm; rotation %.4f deg",
               pattern, pairsUsed, pairsGiven, stereoRMS, epipolarErrorMean, baselineMM, baselineStdMM, rotationDegrees)
    }

    /// The report as a free-form mapping for the calibration file's `extra.calibration_report`.
    var freeForm: FreeFormValue {
        func n(_ x: Double) -> FreeFormValue { .number(x) }
        func list(_ xs: [Double]) -> FreeFormValue { .list(xs.map(n)) }
        var entries: [FreeFormEntry] = [
            FreeFormEntry("pattern", .string(pattern)),
            FreeFormEntry("pairs_given", .scalar("\(pairsGiven)")),
            FreeFormEntry("pairs_used", .scalar("\(pairsUsed)")),
            FreeFormEntry("joint_refinement", .scalar(jointRefinement ? "true" : "false")),
            FreeFormEntry("stereo_rms_px", n(stereoRMS)),
            FreeFormEntry("epipolar_error_mean_px", n(epipolarErrorMean)),
            FreeFormEntry("epipolar_error_max_px", n(epipolarErrorMax)),
            FreeFormEntry("baseline_mm", n(baselineMM)),
            FreeFormEntry("baseline_std_mm", n(baselineStdMM)),
            FreeFormEntry("translation_std_mm", list(translationStdMM)),
            FreeFormEntry("rotation_deg", n(rotationDegrees)),
            FreeFormEntry("rotation_axis", list(rotationAxis)),
            FreeFormEntry("rotation_std_deg", list(rotationStdDegrees)),
        ]
        entries.append(FreeFormEntry("cameras", .mapping(cameras.map { c in
            FreeFormEntry(c.name, .mapping([
                FreeFormEntry("rms_px", n(c.rms)),
                FreeFormEntry("views", .scalar("\(c.views)")),
                FreeFormEntry("std", .mapping(Self.stdNames.compactMap { key in c.standardDeviations[key].map { FreeFormEntry(key, n($0)) } })),
            ]))
        })))
        entries.append(FreeFormEntry("per_view_rms_px", .list(perView.map {
            .mapping([FreeFormEntry("view", .string($0.view)), FreeFormEntry("wide", n($0.wideRMS)),
                      FreeFormEntry("tele", n($0.teleRMS))])
        })))
        if !dropped.isEmpty {
            entries.append(FreeFormEntry("dropped", .list(dropped.map {
                .mapping([FreeFormEntry("view", .string($0.view)), FreeFormEntry("reason", .string($0.reason))])
            })))
        }
        return .mapping(entries)
    }

    static let stdNames = ["fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"]
}
