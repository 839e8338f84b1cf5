import DualcamCalibration
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// Convergence throughput: warp + compose of one wide/tele pair at 1920x1440
/// (tables built once and cached, as for a sequence; encoding excluded),
/// against a plain cv::warpPerspective of the same wide image into the tele
/// view, measured in the same run.
enum ConvergeBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        let size = PixelSize(width: 1920, height: 1440)
        let demo = try DemoPair(calibration: try NominalDevice.load(), size: size)
        let warp = try ConvergenceWarp(rig: demo.calibration.rig)
        let distance = try Distance(metres: 1.2)
        let ours = try Timing.measure(runs: runs) {
            let pair = try warp.register(wide: demo.wide.image, tele: demo.tele.image, distance: distance)
            _ = try ConvergenceViews.compose(.split, pair)
        }
        let h = try demo.calibration.rig.homography(from: .wide, to: .tele,
                                                    plane: .frontoParallel(distance: distance, in: .wide))
        let reference = try Timing.measure(runs: runs) {
            _ = try ImageOps.warpPerspective(demo.wide.image, homography: h.rowMajor, width: size.width, height: size.height)
        }
        return BenchmarkResult(
            name: "converge", work: "register (one undistort+warp remap) + split view of a \(size) wide/tele pair",
            reference: "one OpenCV warpPerspective of the \(size) wide image (bilinear)",
            dualcam: ours, referenceTiming: reference,
            figures: ["pairs per second (dualcam)": 1000 / ours.median])
    }
}
