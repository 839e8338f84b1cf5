import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// Convergence throughput: the split view of one wide/tele pair at 1920x1440
/// (`ConvergenceWarp.view`: tables built once and cached, as for a sequence;
/// only the visible half of each image resampled; encoding excluded), against
/// a plain cv::warpPerspective of the same wide image into the tele view,
/// measured in the same run. Figure: the same view the earlier way (register
/// the whole pair, then compose), for comparison.
enum ConvergeBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        let size = PixelSize(width: 1920, height: 1440)
        let demo = try DemoPair(calibration: try NominalDevice.load(), size: size)
        let warp = try ConvergenceWarp(rig: demo.calibration.rig)
        let distance = try Distance(metres: 1.2)
        let ours = try Timing.measure(runs: runs) {
            _ = try warp.view(.split, wide: demo.wide.image, tele: demo.tele.image, distance: distance)
        }
        let whole = try Timing.measure(runs: runs) {
            _ = try ConvergenceViews.compose(.split, try warp.register(wide: demo.wide.image, tele: demo.tele.image, distance: distance))
        }
        let reference = try warpPerspectiveReference(demo, distance: distance, runs: runs)
        return BenchmarkResult(
            name: "converge", work: "split view of a \(size) wide/tele pair (visible halves resampled straight into the view)",
            reference: warpPerspectiveLabel(size),
            dualcam: ours, referenceTiming: reference,
            figures: ["pairs per second (dualcam)": 1000 / ours.median,
                      "register whole pair + compose: median ms": whole.median,
                      "register whole pair + compose: ratio to warpPerspective": whole.median / reference.median])
    }

    /// The reference of the convergence benchmarks, in the same run: one plain
    /// OpenCV warpPerspective of the demo's wide image into the tele view
    /// through the homography of the plane at `distance`.
    static func warpPerspectiveReference(_ demo: DemoPair, distance: Distance, runs: Int) throws -> Timing {
        let h = try demo.calibration.rig.homography(from: .wide, to: .tele,
                                                    plane: .frontoParallel(distance: distance, in: .wide))
        let image = demo.wide.image
        return try Timing.measure(runs: runs) {
            _ = try ImageOps.warpPerspective(image, homography: h.rowMajor, width: image.width, height: image.height)
        }
    }

    static func warpPerspectiveLabel(_ size: PixelSize) -> String {
        "one OpenCV warpPerspective of the \(size) wide image (bilinear)"
    }
}
