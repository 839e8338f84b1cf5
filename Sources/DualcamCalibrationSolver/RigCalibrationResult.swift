import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation

extension RigCalibrator {
    /// Builds the calibration file and the report from the final stereo solution.
    func result(_ obs: CalibrationObservations, stereo: CVCalibrate.StereoResult, wide: CVCalibrate.CameraResult,
                tele: CVCalibrate.CameraResult, dropped: [DroppedView], pairsGiven: Int, joint: Bool,
                pattern: String) throws -> RigCalibrationResult {
        let rotation = try Rotation(Matrix3(stereo.rotation))
        let translation = Vector3(stereo.translation)
        let epipolar = try EpipolarCheck.errors(pairs: obs.pairs, camera1: stereo.camera1, camera2: stereo.camera2,
                                               size: obs.wideSize, rotation: stereo.rotation, translation: stereo.translation)
        let uncertainty = try extrinsicUncertainty(obs, stereo: stereo)

        func camera(_ name: String, _ params: CVCameraParameters, _ single: CVCalibrate.CameraResult, size: PixelSize,
                    views: Int) -> CalibrationReport.Camera {
            let k = params.cameraMatrix
            var std: [String: Double] = [:]
            for (key, value) in zip(CalibrationReport.stdNames, single.intrinsicStandardDeviations) { std[key] = value }
            return CalibrationReport.Camera(name: name, imageWidth: size.width, imageHeight: size.height, rms: single.rms,
                                            views: views, fx: k[0], fy: k[4], cx: k[2], cy: k[5],
                                            distortion: params.distortion, standardDeviations: std)
        }
        let axis = rotation.angle > 0 ? rotation.rotationVector / rotation.angle : Vector3.zero
        let report = CalibrationReport(
            pattern: pattern, pairsGiven: pairsGiven, pairsUsed: obs.pairs.count, dropped: dropped,
            cameras: [camera("wide", stereo.camera1, wide, size: obs.wideSize, views: obs.pairs.count + obs.wideOnly.count),
                      camera("tele", stereo.camera2, tele, size: obs.teleSize, views: obs.pairs.count + obs.teleOnly.count)],
            stereoRMS: stereo.rms, jointRefinement: joint,
            perView: zip(obs.pairs, stereo.perViewRMS).map { CalibrationReport.View(view: $0.name, wideRMS: $1.first, teleRMS: $1.second) },
            epipolarErrorMean: epipolar.mean, epipolarErrorMax: epipolar.max,
            translationMM: [translation.x, translation.y, translation.z], baselineMM: translation.norm,
            rotationDegrees: rotation.angleDegrees, rotationAxis: [axis.x, axis.y, axis.z],
            translationStdMM: [uncertainty.translationMillimetres.x, uncertainty.translationMillimetres.y,
                               uncertainty.translationMillimetres.z],
            baselineStdMM: uncertainty.baselineMillimetres,
            rotationStdDegrees: [uncertainty.rotationDegrees.x, uncertainty.rotationDegrees.y, uncertainty.rotationDegrees.z])

        let rig = try Rig(reference: .wide, cameras: [
            RigCamera(name: .wide, model: try stereo.camera1.cameraModel(size: obs.wideSize)),
            RigCamera(name: .tele, model: try stereo.camera2.cameraModel(size: obs.teleSize)),
        ], extrinsics: [try RigidTransform(rotation: rotation, translation: translation, unit: .millimetre,
                                           from: .wide, to: .tele)])
        let provenance = Provenance(source: .calibrated, tool: tool, date: Provenance.isoDate(Date()), notes: report.notes,
                                    rms: RMSErrors(cameras: ["wide": wide.rms, "tele": tele.rms], stereo: stereo.rms))
        let file = CalibrationFile(rig: rig, provenance: provenance, extra: [FreeFormEntry("calibration_report", report.freeForm)])
        return RigCalibrationResult(calibration: file, report: report)
    }

    /// Board poses in the wide camera (solvePnP with the final wide
    /// intrinsics) and the Jacobian-based uncertainty of tele_from_wide.
    func extrinsicUncertainty(_ obs: CalibrationObservations, stereo: CVCalibrate.StereoResult) throws -> ExtrinsicUncertainty {
        let points = obs.cornerPointsMillimetres
        let views: [ExtrinsicUncertainty.View] = try obs.pairs.map { pair in
            let (w, t) = pair.wide.common(with: pair.tele)
            let object = w.cornerIndices.map { points[$0] }
            let pose = try CVCalibrate.solvePnP(objectXYZ: object.flatMap { [$0.x, $0.y, $0.z] },
                                                imageXY: w.pixels.flatMap { [$0.x, $0.y] }, camera: stereo.camera1)
            return ExtrinsicUncertainty.View(object: object, wide: w.pixels, tele: t.pixels,
                                             rvec: Vector3(pose.rotationVector), tvec: Vector3(pose.translation))
        }
        return try ExtrinsicUncertainty.compute(views: views, wide: PinholeProjection(stereo.camera1),
                                                tele: PinholeProjection(stereo.camera2),
                                                rotation: Matrix3(stereo.rotation), translation: Vector3(stereo.translation))
    }
}

/// Epipolar error after rectification: both cameras' corners are undistorted
/// and rectified (cv::stereoRectify + cv::undistortPoints); corresponding
/// corners then differ only along the baseline, so the error is |Δy| for a
/// horizontal rig (|Δx| for a vertical one), in rectified pixels.
enum EpipolarCheck {
    static func errors(pairs: [PairObservation], camera1: CVCameraParameters, camera2: CVCameraParameters,
                       size: PixelSize, rotation: [Double], translation: [Double]) throws -> (mean: Double, max: Double, perPair: [Double]) {
        let rect = try CVCalibrate.stereoRectify(camera1: camera1, camera2: camera2, width: size.width, height: size.height,
                                                 rotation: rotation, translation: translation)
        let horizontal = abs(rect.projection2[3]) >= abs(rect.projection2[7])
        var sum = 0.0, count = 0, largest = 0.0, perPair: [Double] = []
        for pair in pairs {
            let (w, t) = pair.wide.common(with: pair.tele)
            let a = try CVCalibrate.undistortPoints(w.pixels.flatMap { [$0.x, $0.y] }, camera: camera1,
                                                    rotation: rect.rotation1, projection: rect.projection1)
            let b = try CVCalibrate.undistortPoints(t.pixels.flatMap { [$0.x, $0.y] }, camera: camera2,
                                                    rotation: rect.rotation2, projection: rect.projection2)
            var pairSum = 0.0
            for i in 0..<w.pixels.count {
                let e = horizontal ? abs(a[2 * i + 1] - b[2 * i + 1]) : abs(a[2 * i] - b[2 * i])
                pairSum += e
                largest = max(largest, e)
            }
            sum += pairSum
            count += w.pixels.count
            perPair.append(pairSum / Double(max(1, w.pixels.count)))
        }
        return (sum / Double(max(1, count)), largest, perPair)
    }
}
