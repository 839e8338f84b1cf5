import DualcamCalibrationFiles
import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// `dualcam bench fuse`: a 640x480 wide image + 2 % LiDAR-like samples + a
/// stereo disparity map aligned to wide -> 320x240 filtered absolute depth
/// (the whole `FusionPipeline`: resampling, robust fit, verification, fills,
/// confidence). Reference: OpenCV's guided filter doing a normalized fill of
/// the same samples into the same grid, guided by the same image.
enum FuseBenchmark {
    static func run(runs: Int) throws -> BenchmarkResult {
        let wideSize = PixelSize(width: 640, height: 480), out = PixelSize(width: 320, height: 240)
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: wideSize)
        let view = try Renderer.render(SceneLibrary.room(.init()), camera: .wide, of: rig, options: RenderOptions(samplesPerAxis: 1))
        let lidar = try LidarSampling(pattern: .random(fraction: 0.02), rangeLimit: 6.5).sample(view.depth)
        let samples = lidar.map { DepthSample(x: Double($0.x), y: Double($0.y), depthMetres: $0.depth, confidence: $0.confidence) }
        // Stereo stand-in: pixel disparity d = f B / Z for the nominal 10 mm
        // baseline, offset by 0.3 px (relative accuracy), NaN where no surface.
        let k = try rig.camera(.wide).model.intrinsics
        let fB = k.fx * 0.01
        let disparity = try view.depth.pixels(as: Float.self).map { $0.isFinite && $0 > 0 ? Float(fB) / $0 + 0.3 : .nan }
        let stereo = try DepthMap(size: wideSize, values: disparity, type: .disparity)
        let request = FusionRequest(wide: view.image, wideIntrinsics: k, samples: samples, stereo: stereo, outputSize: out)
        var coverage = 0.0
        var stages: [String: Double] = [:]
        let ours = try Timing.measure(runs: runs) {
            let outcome = try FusionPipeline.run(request)
            coverage = Double(outcome.result.filteredDepth.lazy.filter(\.isFinite).count) / Double(out.width * out.height)
            let t = outcome.result.timings
            stages = ["stage ms (last run): prepare": outcome.prepareMilliseconds, "stage ms (last run): align": t.alignMilliseconds,
                      "stage ms (last run): verify": t.verifyMilliseconds, "stage ms (last run): complete": t.completeMilliseconds,
                      "stage ms (last run): confidence + edges": t.confidenceMilliseconds]
        }
        let reference = try Timing.measure(runs: runs) {
            let guide = try ImageOps.resize(view.image, width: out.width, height: out.height, interpolation: .area)
            let scaled = samples.map { MetricSample(x: $0.x / 2, y: $0.y / 2, depthMetres: $0.depthMetres) }
            _ = try GuidedFilterFill.fill(size: out, guideRGB: guide.bytes, samples: scaled)
        }
        return BenchmarkResult(
            name: "fuse",
            work: "640x480 wide + \(samples.count) samples (2 %) + stereo disparity -> 320x240 filtered absolute depth",
            reference: "OpenCV guidedFilter normalized fill of the same samples at 320x240 (area resize of the guide included)",
            dualcam: ours, referenceTiming: reference,
            figures: stages.merging(["filtered coverage": coverage, "target ms (2 cores)": 15]) { a, _ in a })
    }
}
