import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import Foundation

/// Stereo depth on real images: Middlebury Aloe (`MiddleburyAloe`) at its
/// full 1282x1110, dualcam's unfiltered and filtered pixel disparity
/// (reference: the left camera, estimator built once) beside OpenCV's
/// SGBM_3WAY and SGBM_3WAY + WLS with the settings of `OpenCVStereoBaseline`
/// on the colour JPEGs, all timed in the same run and scored by
/// `StereoEvaluation` in disparity space over `MiddleburyAloe.region`
/// (coverage, bad2 with missing pixels counted bad, bad2 of the valid
/// pixels, avgerr over the valid pixels).
enum DepthRealBenchmark {
    struct Method {
        var label: String
        var run: () throws -> EvaluationMap
    }

    static func run(runs: Int) throws -> BenchmarkResult {
        try MiddleburyAloe.requireAvailable()
        let left = try ImageIO.read(MiddleburyAloe.left), right = try ImageIO.read(MiddleburyAloe.right)
        let (truth, _) = try EvaluationMapReader.readGroundTruth(MiddleburyAloe.groundTruth, format: .disparity)
        let rig = try MiddleburyAloe.calibration().rig
        let size = MiddleburyAloe.size
        func estimator(filtered: Bool) throws -> StereoDepthEstimator {
            var options = StereoDepthOptions()
            options.filtered = filtered
            options.outputSize = size
            options.minDepthMetres = MiddleburyAloe.minimumDepthMetres
            return try StereoDepthEstimator(rig: rig, wideSize: size, teleSize: size, options: options)
        }
        let unfiltered = try estimator(filtered: false), filtered = try estimator(filtered: true)
        func opencv(_ baseline: OpenCVStereoBaseline) -> Method {
            Method(label: baseline.label) {
                try EvaluationMap(size: size, values: try baseline.disparity(left: left, right: right, numDisparities: MiddleburyAloe.numDisparities),
                                  kind: .disparityPixels)
            }
        }
        let methods = [
            Method(label: "dualcam unfiltered") { try EvaluationMap(try unfiltered.estimate(wide: left, tele: right).depthMap(type: .pixels)) },
            Method(label: "dualcam filtered") { try EvaluationMap(try filtered.estimate(wide: left, tele: right).depthMap(type: .pixels)) },
            opencv(.sgbm),
            opencv(.sgbmWLS),
        ]
        var options = EvaluationOptions(space: .disparity)
        options.region = MiddleburyAloe.region
        var timings: [Timing] = [], reports: [EvaluationReport] = []
        for method in methods {
            var output: EvaluationMap?
            timings.append(try Timing.measure(runs: runs) { output = try method.run() })
            reports.append(try StereoEvaluation(estimate: output!, truth: truth, options: options).report)
        }
        var figures: [String: Double] = [:]
        var table = ["| method | coverage | bad2 % | bad2 of valid % | avgerr px | ms |", "| --- | --- | --- | --- | --- | --- |"]
        for (i, method) in methods.enumerated() {
            let all = reports[i].all, bad2 = all.disparity?.bad(2)
            figures["\(method.label) coverage"] = all.coverage
            figures["\(method.label) bad2 %"] = 100 * (bad2?.fraction ?? .nan)
            figures["\(method.label) avgerr px"] = all.disparity?.averageErrorPixels ?? .nan
            table.append(String(format: "| %@ | %.3f | %.2f | %.2f | %.3f | %.0f |", method.label, all.coverage,
                                100 * (bad2?.fraction ?? .nan), 100 * (bad2?.fractionOfValid ?? .nan),
                                all.disparity?.averageErrorPixels ?? .nan, timings[i].median))
        }
        return BenchmarkResult(
            name: "depth-real",
            work: "stereo disparity on Middlebury Aloe 1282x1110 (real images, opencv-doc), scored x >= 224 against aloeGT.png",
            reference: "OpenCV StereoSGBM_3WAY + right matcher + DisparityWLSFilter (lambda 8000, sigma 1.5), colour JPEGs",
            dualcam: timings[1], referenceTiming: timings[3], figures: figures, table: table.joined(separator: "\n"))
    }
}
