import DualcamCalibrationFiles
import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// Stereo depth throughput and quality: the built-in room pair (nominal rig)
/// at `input` -> filtered depth at `output` aligned to the tele (estimator
/// built once, as for a sequence; rendering excluded), against OpenCV's
/// StereoSGBM + ximgproc DisparityWLSFilter on the same rectified images with
/// the same search and the same output mapping, measured in the same run in
/// alternating rounds (`Timing.measureAlternating`).
/// Quality of both against the rendered ground truth (tele depth resampled to
/// the output size, nearest): median pixel-disparity error at the output size,
/// mean absolute relative error and the share of pixels off by more than 5 %
/// (at 640x480 a 0.1 px error is ~6 % at 6 m, so the relative figures are
/// dominated by the far wall).
enum DepthBenchmark {
    static func run(name: String, input: PixelSize, output: PixelSize, runs: Int) throws -> BenchmarkResult {
        let demo = try DemoPair(calibration: try NominalDevice.load(), size: input)
        var options = StereoDepthOptions()
        options.outputSize = output
        let estimator = try StereoDepthEstimator(rig: demo.calibration.rig, wideSize: input, teleSize: input, options: options)
        var ours: StereoDepthResult?, wls: StereoDepthResult?
        let (oursTiming, referenceTiming) = try Timing.measureAlternating(runs: runs, dualcam: {
            ours = try estimator.estimate(wide: demo.wide.image, tele: demo.tele.image)
        }, reference: {
            wls = try estimator.estimateSGBMWLS(wide: demo.wide.image, tele: demo.tele.image)
        })
        let truth = try DepthMap(image: demo.tele.depth, type: .depth).resized(to: output, method: .nearest)
        var figures: [String: Double] = [
            "pairs per second (dualcam)": 1000 / oursTiming.median,
            "rectified width": Double(estimator.rectification.size.width),
            "rectified height": Double(estimator.rectification.size.height),
            "disparities searched": Double(estimator.search.count),
        ]
        for (label, result) in [("dualcam", ours!), ("SGBM+WLS", wls!)] {
            let errors = try DepthMetrics.compare(estimate: try result.depthMap(), truth: truth,
                                                  pixelsPerInverseMetre: result.outputPixelsPerInverseMetre)
            figures["\(label) median disparity error (output px)"] = errors.disparity?.medianAbsolutePixels ?? .nan
            figures["\(label) mean abs rel error %"] = 100 * errors.meanAbsoluteRelativeError
            figures["\(label) pixels off by > 5 % (%)"] = 100 * errors.fractionRelativeErrorAbove
            figures["\(label) coverage %"] = 100 * errors.coverage
        }
        return BenchmarkResult(
            name: name,
            work: "filtered depth \(input) wide/tele -> \(output) tele-aligned (rectify, SGBM both views, LR check, refinement, fill)",
            reference: "OpenCV StereoSGBM + DisparityWLSFilter (lambda 8000, sigma 1.5) on the same rectified pair, same output mapping",
            dualcam: oursTiming, referenceTiming: referenceTiming, figures: figures, alternatingRounds: true)
    }
}
