import DualcamOpenCV
import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamSupport
import Foundation

/// Calibration of OpenCV's 13-pair sample stereo set (Debian's opencv-doc)
/// as `dualcam calibrate --pattern chessboard:9x6:1mm --list stereo_calib.xml`
/// does it: reading and detection, both cameras, stereo with intrinsics fixed,
/// joint refinement, outlier checks, rectification, uncertainties. The
/// reference is plain OpenCV on the same detected corners:
/// cv::calibrateCamera for each camera and one cv::stereoCalibrate
/// (CALIB_FIX_INTRINSIC); the detection time alone is reported as a figure.
enum CalibrateBenchmark {
    static let list = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data/stereo_calib.xml")

    static func run(runs: Int) throws -> BenchmarkResult {
        guard FileManager.default.fileExists(atPath: list.path) else {
            throw DualcamError.io(path: list.path, reason: "OpenCV's sample stereo set is missing; install Debian's opencv-doc (scripts/setup.sh)")
        }
        let detector = try PatternDetector(target: try BoardTarget(parsing: "chessboard:9x6:1mm"))
        let sources = CalibrationSources(list: list)
        var report: CalibrationReport?
        let ours = try Timing.measure(runs: runs) {
            report = try RigCalibrator().calibrate(try sources.observations(detector: detector)).report
        }
        var observations: CalibrationObservations?
        let detection = try Timing.measure(runs: runs) { observations = try sources.observations(detector: detector) }
        let obs = observations!
        let wideViews = obs.cvViews(obs.pairs.map(\.wide)), teleViews = obs.cvViews(obs.pairs.map(\.tele))
        let stereoViews = obs.cvStereoViews(obs.pairs)
        var referenceRMS = 0.0
        let reference = try Timing.measure(runs: runs) {
            let w = try CVCalibrate.calibrateCamera(wideViews, width: obs.wideSize.width, height: obs.wideSize.height)
            let t = try CVCalibrate.calibrateCamera(teleViews, width: obs.teleSize.width, height: obs.teleSize.height)
            referenceRMS = try CVCalibrate.stereoCalibrate(stereoViews, width: obs.wideSize.width, height: obs.wideSize.height,
                                                           camera1: w.camera, camera2: t.camera, fixIntrinsics: true).rms
        }
        return BenchmarkResult(
            name: "calibrate",
            work: "calibrate OpenCV's 13-pair sample stereo set (640x480, 9x6 chessboard) from the image list",
            reference: "plain OpenCV calibrateCamera x2 + stereoCalibrate on the same detected corners (detection excluded)",
            dualcam: ours, referenceTiming: reference,
            figures: ["detection ms (median)": detection.median, "pairs used": Double(report?.pairsUsed ?? 0),
                      "stereo RMS px (dualcam)": report?.stereoRMS ?? .nan, "stereo RMS px (reference)": referenceRMS,
                      "baseline mm": report?.baselineMM ?? .nan])
    }
}
