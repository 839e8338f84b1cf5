import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation

/// A calibrated wide/tele rig and the report of how it was measured.
public struct RigCalibrationResult: Sendable {
    public var calibration: CalibrationFile
    public var report: CalibrationReport
}

/// Calibrates a wide/tele rig from board observations with OpenCV:
/// 1. each camera alone (cv::calibrateCamera) on its pair views plus its own
///    intrinsic set; views whose RMS is an outlier are dropped and the
///    camera recalibrated;
/// 2. the extrinsics with both cameras' intrinsics fixed (cv::stereoCalibrate,
///    CALIB_FIX_INTRINSIC), again dropping outlier pairs;
/// 3. a joint refinement of intrinsics, distortion and extrinsics from there
///    (skipped when separate per-camera intrinsic sets were given: the pairs
///    alone would then undo what the larger sets measured).
/// The wide camera is the reference; the object points are in mm, so
/// tele_from_wide's translation is in mm.
public struct RigCalibrator: Sendable {
    /// A view is an outlier when its RMS exceeds `outlierFactor` times the
    /// median and also `outlierFloorPixels` (so clean sets lose nothing).
    public var outlierFactor = 3.0
    public var outlierFloorPixels = 0.5
    public static let minimumViews = 3
    /// The distortion coefficients estimated (default: k1, k2, k3 and no
    /// tangential terms, see `Distortion`).
    public var distortion = Distortion.radial
    /// Distortion models: `radial` (k1 k2 k3, p1 = p2 = 0; phone lenses are
    /// centred well enough, and tangential terms trade off against the
    /// principal point when views cover only part of the image), `full`
    /// (k1 k2 p1 p2 k3), `radial2` (k1 k2 only).
    public enum Distortion: String, CaseIterable, Sendable {
        case radial, full, radial2
        var cv: CVDistortionModel {
            switch self {
            case .radial: return .zeroTangential
            case .full: return []
            case .radial2: return [.zeroTangential, .fixK3]
            }
        }
    }
    /// Written into `provenance.tool`.
    public var tool = "dualcam calibrate"

    public init() {}

    public func calibrate(_ observations: CalibrationObservations) throws -> RigCalibrationResult {
        var obs = observations
        var dropped = obs.dropped
        let pairsGiven = obs.pairs.count + obs.dropped.filter { !$0.view.hasPrefix("wide:") && !$0.view.hasPrefix("tele:") }.count
        try Self.checkEnough(obs, given: pairsGiven)
        let target = patternDescription(obs.target)

        // 1. Per-camera intrinsics with outlier rejection (two rounds at most).
        var wide: CVCalibrate.CameraResult!, tele: CVCalibrate.CameraResult!
        for round in 0..<3 {
            wide = try CVCalibrate.calibrateCamera(obs.cvViews(obs.pairs.map(\.wide) + obs.wideOnly.map(\.observation)),
                                                   width: obs.wideSize.width, height: obs.wideSize.height, model: distortion.cv)
            tele = try CVCalibrate.calibrateCamera(obs.cvViews(obs.pairs.map(\.tele) + obs.teleOnly.map(\.observation)),
                                                   width: obs.teleSize.width, height: obs.teleSize.height, model: distortion.cv)
            guard round < 2 else { break }
            let w = outliers(wide.perViewRMS), t = outliers(tele.perViewRMS)
            guard !w.isEmpty || !t.isEmpty else { break }
            let n = obs.pairs.count
            var dropPairs = Set<Int>()
            for (i, median) in w where i < n {
                dropPairs.insert(i)
                dropped.append(DroppedView(view: obs.pairs[i].name, reason: outlierReason("wide", wide.perViewRMS[i], median)))
            }
            for (i, median) in t where i < n && !dropPairs.contains(i) {
                dropPairs.insert(i)
                dropped.append(DroppedView(view: obs.pairs[i].name, reason: outlierReason("tele", tele.perViewRMS[i], median)))
            }
            let wideSingles = Set(w.map(\.0).filter { $0 >= n }.map { $0 - n })
            let teleSingles = Set(t.map(\.0).filter { $0 >= n }.map { $0 - n })
            for i in wideSingles.sorted() {
                dropped.append(DroppedView(view: obs.wideOnly[i].name, reason: outlierReason("wide", wide.perViewRMS[n + i], w.first!.1)))
            }
            for i in teleSingles.sorted() {
                dropped.append(DroppedView(view: obs.teleOnly[i].name, reason: outlierReason("tele", tele.perViewRMS[n + i], t.first!.1)))
            }
            obs.pairs = obs.pairs.enumerated().filter { !dropPairs.contains($0.offset) }.map(\.element)
            obs.wideOnly = obs.wideOnly.enumerated().filter { !wideSingles.contains($0.offset) }.map(\.element)
            obs.teleOnly = obs.teleOnly.enumerated().filter { !teleSingles.contains($0.offset) }.map(\.element)
            try Self.checkEnough(obs, given: pairsGiven)
        }

        // 2. Extrinsics with the intrinsics fixed, dropping outlier pairs once.
        var stereo = try CVCalibrate.stereoCalibrate(obs.cvStereoViews(obs.pairs), width: obs.wideSize.width,
                                                     height: obs.wideSize.height, camera1: wide.camera,
                                                     camera2: tele.camera, fixIntrinsics: true)
        let stereoOutliers = outliers(stereo.perViewRMS.map { max($0.first, $0.second) })
        if !stereoOutliers.isEmpty {
            let drop = Set(stereoOutliers.map(\.0))
            for (i, median) in stereoOutliers {
                let e = stereo.perViewRMS[i]
                dropped.append(DroppedView(view: obs.pairs[i].name, reason: outlierReason("stereo", max(e.first, e.second), median)))
            }
            obs.pairs = obs.pairs.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
            try Self.checkEnough(obs, given: pairsGiven)
            stereo = try CVCalibrate.stereoCalibrate(obs.cvStereoViews(obs.pairs), width: obs.wideSize.width,
                                                     height: obs.wideSize.height, camera1: wide.camera,
                                                     camera2: tele.camera, fixIntrinsics: true)
        }

        // 3. Joint refinement.
        let joint = obs.wideOnly.isEmpty && obs.teleOnly.isEmpty
        if joint {
            stereo = try CVCalibrate.stereoCalibrate(obs.cvStereoViews(obs.pairs), width: obs.wideSize.width,
                                                     height: obs.wideSize.height, camera1: stereo.camera1,
                                                     camera2: stereo.camera2, rotation: stereo.rotation,
                                                     translation: stereo.translation, model: distortion.cv,
                                                     fixIntrinsics: false)
        }
        return try result(obs, stereo: stereo, wide: wide, tele: tele, dropped: dropped, pairsGiven: pairsGiven,
                          joint: joint, pattern: target)
    }

    /// (index, median) of the views whose RMS is an outlier.
    func outliers(_ rms: [Double]) -> [(Int, Double)] {
        guard rms.count >= 4 else { return [] }
        let sorted = rms.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return rms.enumerated().filter { $0.element > outlierFactor * median && $0.element > outlierFloorPixels }
            .map { ($0.offset, median) }
    }

    func outlierReason(_ what: String, _ rms: Double, _ median: Double) -> String {
        String(format: "outlier: %@ RMS %.3f px is more than %.0fx the median %.3f px", what, rms, outlierFactor, median)
    }

    static func checkEnough(_ obs: CalibrationObservations, given: Int) throws {
        if obs.pairs.isEmpty && given > 0 && obs.dropped.count >= given {
            throw DualcamError.invalidValue(
                name: "calibration input",
                reason: "no pattern found in any of the \(given) views (\(patternDescription(obs.target))); first: \(obs.dropped.first!.view): \(obs.dropped.first!.reason)")
        }
        guard obs.pairs.count >= minimumViews else {
            let why = obs.dropped.prefix(3).map { "\($0.view): \($0.reason)" }.joined(separator: "; ")
            throw DualcamError.invalidValue(
                name: "calibration input",
                reason: "only \(obs.pairs.count) usable pair(s) of \(given); at least \(minimumViews) are needed" + (why.isEmpty ? "" : " (\(why))"))
        }
    }
}

/// The pattern as a spec string, e.g. `chessboard:9x6:25mm`.
func patternDescription(_ target: BoardTarget) -> String {
    func mm(_ metres: Double) -> String {
        let v = metres * 1000
        return (v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%g", v)) + "mm"
    }
    switch target.kind {
    case let .chessboard(columns, rows): return "chessboard:\(columns)x\(rows):\(mm(target.squareSize))"
    case let .charuco(x, y, marker, dictionary): return "charuco:\(x)x\(y):\(mm(target.squareSize)):\(mm(marker)):\(dictionary)"
    }
}
