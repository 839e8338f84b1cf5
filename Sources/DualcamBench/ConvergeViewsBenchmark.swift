import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// The steps of convergence one by one at 1920x1440 (nominal rig, wide with
/// distortion), for each canvas: building the remap tables, registering a pair
/// with cached tables (the tables themselves timed on a fresh warp
/// each run), and composing each view from a registered pair. The
/// reference is one plain OpenCV warpPerspective of the wide image, measured in
/// the same run; the headline timing is registration on the tele canvas (the
/// default). Each step's median is a figure of its own, in ms.
enum ConvergeViewsBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        let size = PixelSize(width: 1920, height: 1440)
        let demo = try DemoPair(calibration: try NominalDevice.load(), size: size)
        let distance = try Distance(metres: 1.2)
        var figures: [String: Double] = [:]
        let headline = try measure(.tele, demo, size: size, distance: distance, runs: runs, into: &figures)
        for canvas in ConvergenceCanvas.allCases where canvas != .tele {
            _ = try measure(canvas, demo, size: size, distance: distance, runs: runs, into: &figures)
        }
        let reference = try ConvergeBenchmark.warpPerspectiveReference(demo, distance: distance, runs: runs)
        return BenchmarkResult(
            name: "converge-views",
            work: "convergence step by step at \(size): tables, registration (cached tables), each view, per canvas; headline: tele-canvas registration",
            reference: ConvergeBenchmark.warpPerspectiveLabel(size),
            dualcam: headline, referenceTiming: reference, figures: figures)
    }

    /// Times one canvas's steps into `figures`; returns the registration timing.
    private static func measure(_ canvas: ConvergenceCanvas, _ demo: DemoPair, size: PixelSize, distance: Distance,
                                runs: Int, into figures: inout [String: Double]) throws -> Timing {
        let tables = try Timing.measure(runs: runs) {  // a fresh warp each run: no cached tables
            let fresh = try ConvergenceWarp(rig: demo.calibration.rig, canvas: canvas)
            _ = try fresh.maps(try fresh.geometry(wideSize: size, teleSize: size), distance: distance)
        }
        let warp = try ConvergenceWarp(rig: demo.calibration.rig, canvas: canvas)
        var pair = try warp.register(wide: demo.wide.image, tele: demo.tele.image, distance: distance)
        let register = try Timing.measure(runs: runs) {
            pair = try warp.register(wide: demo.wide.image, tele: demo.tele.image, distance: distance)
        }
        figures["\(canvas.rawValue) canvas: tables median ms"] = tables.median
        figures["\(canvas.rawValue) canvas: register median ms"] = register.median
        for view in ConvergenceView.allCases {
            let compose = try Timing.measure(runs: runs) { _ = try ConvergenceViews.compose(view, pair) }
            figures["\(canvas.rawValue) canvas: \(view.rawValue) view median ms"] = compose.median
        }
        return register
    }
}
