import DualcamCalibrationFiles
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation

/// The scenes fusion is judged on (issue 19), real imagery first:
///
/// - Middlebury Aloe (`MiddleburyAloe`, opencv-doc): the real pair, its
///   8-bit ground-truth disparity turned into depth through the calib.txt
///   (Z = f B / (d + doffs), `DisparityGeometry`; 0 = unknown), and
///   LiDAR-like samples drawn from that depth (`LidarSampling`): 2 % random
///   or a 24x24 grid, 1 % depth noise, 2 % outliers uniform over
///   [0.2 m, the farthest truth], the sensor reaching every known pixel;
/// - the room render exactly as `dualcam synth --scene room` makes it by
///   default (1280x960, 4 rays per pixel, its LiDAR: 2 % random, 1 cm noise,
///   2 % outliers, range 5 m, so the 6 m wall is beyond it), clean or with
///   the `real` camera conditions.
///
/// Each scene keeps the samples' truth (`LidarSample.trueDepth`,
/// `isOutlier`) beside what a user would feed `dualcam fuse`.
public struct FusionYardstick: Sendable {
    public var name: String
    public var wide: Image
    public var tele: Image
    public var rig: Rig
    /// Ground-truth depth in metres at the wide image's size (NaN = unknown).
    public var truthMetres: [Float]
    /// Samples in wide pixels, with their truth.
    public var samples: [LidarSample]
    /// A rectified pair of one size (OpenCV's matchers run on it as given),
    /// with the relation of its pixel disparity to depth.
    public var rectified: DisparityGeometry?

    public var wideSize: PixelSize { PixelSize(width: wide.width, height: wide.height) }

    /// The samples as `dualcam fuse` reads them (wide pixels, with confidence).
    public var depthSamples: [DepthSample] {
        samples.map { DepthSample(x: Double($0.x), y: Double($0.y), depthMetres: $0.depth, confidence: $0.confidence) }
    }

    /// The sample patterns of the acceptance: 2 % random and a 24x24 grid.
    public static let patterns: [(label: String, pattern: LidarSampling.Pattern)] = [
        ("2 %", .random(fraction: 0.02)), ("24x24 grid", .grid(columns: 24, rows: 24)),
    ]

    /// Aloe with samples drawn from its ground truth.
    public static func aloe(_ pattern: LidarSampling.Pattern, seed: UInt64 = 1) throws -> FusionYardstick {
        try MiddleburyAloe.requireAvailable()
        let left = try ImageIO.read(MiddleburyAloe.left), right = try ImageIO.read(MiddleburyAloe.right)
        let rig = try MiddleburyAloe.calibration().rig
        let size = MiddleburyAloe.size
        let geometry = try DisparityGeometry(rectifiedRig: rig, size: size)
        let (truth, _) = try EvaluationMapReader.readGroundTruth(MiddleburyAloe.groundTruth, format: .disparity)
        let depth = truth.values.map { d -> Float in
            guard d.isFinite, d > 0 else { return .nan }
            let z = geometry.depthMetres(disparityPixels: Double(d))
            return z.isFinite && z > 0 ? Float(z) : .nan
        }
        let farthest = Double(depth.lazy.filter(\.isFinite).max() ?? 1)
        var sampling = LidarSampling(pattern: pattern, rangeLimit: farthest * (1 + 1e-9), noiseSigma: 0, outlierFraction: 0.02,
                                     seed: seed)
        sampling.relativeNoiseSigma = 0.01
        let samples = try sampling.sample(try Image(width: size.width, height: size.height, channels: 1, pixels: depth))
        return FusionYardstick(name: "Aloe", wide: left, tele: right, rig: rig, truthMetres: depth, samples: samples,
                               rectified: geometry)
    }

    /// The room as `dualcam synth --scene room` renders it by default
    /// (`conditions`: `--conditions`), its LiDAR samples (5 m range) optionally
    /// redrawn with `pattern`.
    public static func room(conditions: CaptureConditions = .clean, pattern: LidarSampling.Pattern? = nil,
                            size: PixelSize = PixelSize(width: 1280, height: 960)) throws -> FusionYardstick {
        var spec = SynthSpec(sceneName: "room", calibration: try NominalDevice.load(), size: size)
        spec.render.samplesPerAxis = 2
        spec.render.seed = 1
        spec.sceneOptions.seed = 1
        spec.lidar.seed = 1
        if let pattern { spec.lidar.pattern = pattern }
        spec.conditions = conditions
        let dataset = try Synthesizer.make(spec)
        let pair = dataset.pairs[0]
        let name = "room" + (conditions == .clean ? "" : " (real conditions)")
        return FusionYardstick(name: name, wide: pair.wide.image, tele: pair.tele.image, rig: dataset.calibration.rig,
                               truthMetres: try pair.wide.depth.pixels(as: Float.self), samples: pair.lidar, rectified: nil)
    }

    /// The truth on an output grid (the wide image area-resized to `size`,
    /// `PixelGridResampling`): each output pixel takes the truth of the wide
    /// pixel nearest its centre (the centre ray's surface, as the renders'
    /// truth is; unknown stays unknown).
    public func truth(at size: PixelSize) -> [Float] {
        guard size != wideSize else { return truthMetres }
        let grid = PixelGridResampling(from: size, to: wideSize)
        var out = [Float](repeating: .nan, count: size.width * size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = grid.target(x: Double(x), y: Double(y))
                let sx = min(wideSize.width - 1, max(0, Int(p.x.rounded()))), sy = min(wideSize.height - 1, max(0, Int(p.y.rounded())))
                out[y * size.width + x] = truthMetres[sy * wideSize.width + sx]
            }
        }
        return out
    }
}
