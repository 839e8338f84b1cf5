import DualcamGeometry
import DualcamSupport
import DualcamSynthetic

/// The project's benchmarks, run by `dualcam bench [NAME]`. Each runs its
/// work several times on generated input and measures the reference it is
/// compared with (plain OpenCV doing the same job) in the same run, so the
/// ratio survives a noisy machine.
public enum Benchmarks {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        let run: @Sendable (Int) throws -> BenchmarkResult
    }

    public static let all: [Entry] = [
        Entry(name: "batch", summary: "dualcam batch run on one unit (30 pairs, 640x480 -> 320x240 filtered depth) vs the plain dualcam depth on the same pairs, both as processes") { runs in
            try BatchBenchmark.run(runs: runs)
        },
        Entry(name: "calibrate", summary: "calibrate OpenCV's 13-pair sample stereo set (detection + dualcam calibrate) vs plain calibrateCamera x2 + stereoCalibrate") { runs in
            try CalibrateBenchmark.run(runs: runs)
        },
        Entry(name: "converge", summary: "register + compose a 1920x1440 wide/tele pair on the convergence plane") { runs in
            try ConvergeBenchmark.run(runs: runs)
        },
        Entry(name: "converge-views", summary: "convergence step by step at 1920x1440 per canvas: remap tables, registration, each view, vs one warpPerspective") { runs in
            try ConvergeViewsBenchmark.run(runs: runs)
        },
        Entry(name: "converge-auto", summary: "automatic convergence distance of a 1920x1440 pair: tap (96-px window) and whole overlap, vs one warpPerspective") { runs in
            try ConvergeAutoBenchmark.run(runs: runs)
        },
        Entry(name: "fuse", summary: "fuse a 640x480 wide image, 2 % LiDAR samples and a stereo disparity into 320x240 absolute depth") { runs in
            try FuseBenchmark.run(runs: runs)
        },
        Entry(name: "fuse-real", summary: "fusion accuracy on Middlebury Aloe (real, samples from its ground truth) and synth's default room, one-step --tele, with nearest-sample and aligned-stereo baselines") { runs in
            try FuseRealBenchmark.run(runs: runs)
        },
        Entry(name: "depth", summary: "filtered stereo depth, 640x480 wide/tele -> 320x240, vs OpenCV SGBM + WLS; quality vs ground truth") { runs in
            try DepthBenchmark.run(name: "depth", input: PixelSize(width: 640, height: 480),
                                   output: PixelSize(width: 320, height: 240), runs: runs)
        },
        Entry(name: "depth-photo", summary: "filtered stereo depth, 1920x1440 wide/tele -> 768x576, vs OpenCV SGBM + WLS; quality vs ground truth") { runs in
            try DepthBenchmark.run(name: "depth-photo", input: PixelSize(width: 1920, height: 1440),
                                   output: PixelSize(width: 768, height: 576), runs: runs)
        },
        Entry(name: "depth-real", summary: "stereo disparity on Middlebury Aloe (real, opencv-doc): dualcam unfiltered and filtered vs OpenCV SGBM_3WAY and SGBM_3WAY + WLS, scored against its ground truth") { runs in
            try DepthRealBenchmark.run(runs: runs)
        },
        Entry(name: "render", summary: "ray-cast the room scene, wide + tele at 1920x1440, 4 samples per pixel") { runs in
            try RenderBenchmark.run(name: "render", scene: SceneLibrary.room(.init()),
                                    size: PixelSize(width: 1920, height: 1440), samplesPerAxis: 2, runs: runs)
        },
        Entry(name: "render-plane", summary: "ray-cast the plane scene, wide + tele at 1920x1440, 1 sample per pixel (the reference's job exactly)") { runs in
            var options = SceneLibrary.Options()
            options.planeDistance = 1.2
            return try RenderBenchmark.run(name: "render-plane", scene: SceneLibrary.plane(options),
                                           size: PixelSize(width: 1920, height: 1440), samplesPerAxis: 1, runs: runs)
        },
    ]

    public static var names: [String] { all.map(\.name) }

    /// Runs the named benchmarks (all when `names` is empty).
    public static func run(_ names: [String], runs: Int) throws -> [BenchmarkResult] {
        let chosen = names.isEmpty ? all : try names.map { name in
            guard let entry = all.first(where: { $0.name == name }) else {
                throw DualcamError.invalidValue(
                    name: "benchmark '\(name)'", reason: "unknown; expected one of \(Benchmarks.names.joined(separator: ", "))")
            }
            return entry
        }
        return try chosen.map { try $0.run(runs) }
    }
}
