import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// The automatic convergence distance at 1920x1440 (the demo room, nominal
/// rig): tap-to-converge on the near box (tele pixel 1662, 1146: 96-px
/// window) as the timed work, the whole overlap as a figure, against one
/// plain cv::warpPerspective of the wide image into the tele view measured
/// in the same run. Figures: both distances, their NCC and candidates.
enum ConvergeAutoBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        let size = PixelSize(width: 1920, height: 1440)
        let demo = try DemoPair(calibration: try NominalDevice.load(), size: size)
        let warp = try ConvergenceWarp(rig: demo.calibration.rig)
        let tap = AutoConvergenceOptions(tap: TapPoint(.tele, Vector2(1662, 1146)))
        var tapped: AutoConvergenceResult?
        let ours = try Timing.measure(runs: runs) {
            tapped = try warp.autoDistance(wide: demo.wide.image, tele: demo.tele.image, options: tap)
        }
        var whole: AutoConvergenceResult?
        let overlap = try Timing.measure(runs: runs) {
            whole = try warp.autoDistance(wide: demo.wide.image, tele: demo.tele.image)
        }
        let reference = try ConvergeBenchmark.warpPerspectiveReference(demo, distance: try Distance(metres: 1.2), runs: runs)
        return BenchmarkResult(
            name: "converge-auto",
            work: "automatic distance of a \(size) wide/tele pair, tap on the near box (96-px window)",
            reference: ConvergeBenchmark.warpPerspectiveLabel(size),
            dualcam: ours, referenceTiming: reference,
            figures: ["tap: distance m": tapped!.distance.metres, "tap: NCC": tapped!.score,
                      "tap: candidates": Double(tapped!.candidates.count),
                      "whole overlap: median ms": overlap.median, "whole overlap: ratio to warpPerspective": overlap.median / reference.median,
                      "whole overlap: distance m": whole!.distance.metres, "whole overlap: NCC": whole!.score])
    }
}
