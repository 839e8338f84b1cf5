import DualcamCalibrationFiles
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation
import TestSupport

/// A synthetic scene seen by the nominal wide camera at 640x480 (rendered
/// once per test process), reduced to the 320x240 fusion grid, with a
/// simulated stereo relative inverse depth.
///
/// Ground truth at 320x240: the scene rendered again with the rig scaled to
/// 320x240, so each output pixel's truth is the depth along its centre ray.
///
/// Simulated stereo (what a filtered wide-referenced stereo looks like):
/// d = 1.15 / z - 0.02 (relative accuracy: scale and offset wrong) + a slow
/// bias ramp of up to 0.004 1/m across the image + Gaussian noise with
/// sigma 0.006 1/m (about 0.1 px of disparity at full resolution on the
/// nominal 10 mm baseline); within 2 px of depth discontinuities 20 % of the
/// pixels are NaN, and within 1 px 30 % take the other surface's value (edge
/// fattening, gross outliers).
struct FusionScenario {
    static let wideSize = PixelSize(width: 640, height: 480)
    static let size = PixelSize(width: 320, height: 240)

    let name: String
    let wideImage: Image
    let wideDepth: Image
    let guideRGB: [UInt8]
    let truth: [Float]
    let discontinuity: [Bool]
    let stereo: [Float]
    let focalPixels: Double

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: FusionScenario] = [:]

    static func named(_ name: String) throws -> FusionScenario {
        lock.lock()
        defer { lock.unlock() }
        if let hit = cache[name] { return hit }
        let made = try make(name)
        cache[name] = made
        return made
    }

    private static func make(_ name: String) throws -> FusionScenario {
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: wideSize)
        let scene = try SceneLibrary.scene(named: name, options: SceneLibrary.Options())
        let view = try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions(samplesPerAxis: 2))
        let guide = try ImageOps.resize(view.image, width: size.width, height: size.height, interpolation: .area)
        // Ground truth in the fusion grid: the same scene rendered at 320x240
        // (depth along each output pixel's centre ray), with the wide K
        // resampled as the guide's area resize moves the pixel grid
        // (`Intrinsics.resampled(to:)`, what `FusionPipeline` reports).
        let truth = try centreRayDepth(scene, wide: rig, grid: size)
        let (w, h) = (size.width, size.height)
        let discontinuity = Self.band(truth, w, h, radius: 2)
        let edge = Self.band(truth, w, h, radius: 1)
        var rng = SeededGenerator(seed: 7)
        func gaussian() -> Float {
            let u1 = max(Double.random(in: 0..<1, using: &rng), 1e-12), u2 = Double.random(in: 0..<1, using: &rng)
            return Float((-2 * log(u1)).squareRoot() * cos(2 * .pi * u2))
        }
        var stereo = [Float](repeating: .nan, count: w * h)
        for v in 0..<h {
            for u in 0..<w {
                let p = v * w + u
                guard truth[p].isFinite else { continue }
                var inverse = 1 / truth[p]
                if discontinuity[p] {
                    let r = Double.random(in: 0..<1, using: &rng)
                    if r < 0.2 { continue }
                    if r < 0.5 && edge[p] {
                        // The value of the nearest pixel on another surface within 2 px.
                        search: for radius in 1...2 {
                            for (dx, dy) in [(radius, 0), (-radius, 0), (0, radius), (0, -radius)] {
                                let x = u + dx, y = v + dy
                                guard x >= 0, y >= 0, x < w, y < h, truth[y * w + x].isFinite else { continue }
                                if abs(truth[y * w + x] - truth[p]) > 0.05 * truth[p] {
                                    inverse = 1 / truth[y * w + x]
                                    break search
                                }
                            }
                        }
                    }
                }
                let ramp = 0.004 * Float(u) / Float(w)
                stereo[p] = 1.15 * inverse - 0.02 + ramp + 0.006 * gaussian()
            }
        }
        let focal = try rig.camera(.wide).model.intrinsics.fx * Double(size.width) / Double(wideSize.width)
        return FusionScenario(name: name, wideImage: view.image, wideDepth: view.depth, guideRGB: guide.bytes,
                              truth: truth, discontinuity: discontinuity, stereo: stereo, focalPixels: focal)
    }

    /// The scene's depth along the centre rays of the wide image area-resized
    /// from `wide`'s size to `grid` (the wide K resampled as that resize moves
    /// the pixel grid, `Intrinsics.resampled(to:)`).
    static func centreRayDepth(_ scene: Scene, wide rig: Rig, grid: PixelSize) throws -> [Float] {
        var gridRig = try NominalDevice.load().rig
        let wideModel = try rig.camera(.wide).model
        try gridRig.setCamera(RigCamera(name: .wide, model: CameraModel(intrinsics: try wideModel.intrinsics.resampled(to: grid),
                                                                        distortion: wideModel.distortion)))
        return try Renderer.render(scene, camera: .wide, of: gridRig, options: RenderOptions(samplesPerAxis: 1)).depth.pixels(as: Float.self)
    }

    /// Pixels within `radius` of a depth discontinuity (a 4-neighbour whose
    /// depth differs by more than 5 %, or is missing).
    static func band(_ z: [Float], _ w: Int, _ h: Int, radius: Int) -> [Bool] {
        var edge = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let c = z[y * w + x]
                for (dx, dy) in [(1, 0), (0, 1)] {
                    let nx = x + dx, ny = y + dy
                    guard nx < w, ny < h else { continue }
                    let n = z[ny * w + nx]
                    if !c.isFinite || !n.isFinite || abs(n - c) > 0.05 * min(c, n) {
                        edge[y * w + x] = true
                        edge[ny * w + nx] = true
                    }
                }
            }
        }
        var out = edge
        for y in 0..<h {
            for x in 0..<w where edge[y * w + x] {
                for yy in max(0, y - radius)...min(h - 1, y + radius) {
                    for xx in max(0, x - radius)...min(w - 1, x + radius) { out[yy * w + xx] = true }
                }
            }
        }
        return out
    }

    /// The tele view of the same scene at 640x480 (rendered on first use).
    func teleImage() throws -> Image {
        try Self.lock.withLock {
            if let hit = Self.teleCache[name] { return hit }
            let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: Self.wideSize)
            let scene = try SceneLibrary.scene(named: name, options: SceneLibrary.Options())
            let image = try Renderer.render(scene, camera: .tele, of: rig, options: RenderOptions(samplesPerAxis: 2)).image
            Self.teleCache[name] = image
            return image
        }
    }

    nonisolated(unsafe) private static var teleCache: [String: Image] = [:]

    /// LiDAR-like samples drawn at 640x480 (1 cm noise, 2 % outliers), in
    /// fusion-grid coordinates, with their ground truth.
    func samples(_ pattern: LidarSampling.Pattern, seed: UInt64 = 3, rangeLimit: Double = 6.5) throws -> (samples: [MetricSample], truth: [LidarSample]) {
        let sampling = LidarSampling(pattern: pattern, rangeLimit: rangeLimit, noiseSigma: 0.01, outlierFraction: 0.02, seed: seed)
        let drawn = try sampling.sample(wideDepth)
        let scale = Double(Self.size.width) / Double(Self.wideSize.width)
        let samples = drawn.map {
            MetricSample(x: (Double($0.x) + 0.5) * scale - 0.5, y: (Double($0.y) + 0.5) * scale - 0.5,
                         depthMetres: $0.depth, confidence: $0.confidence)
        }
        return (samples, drawn)
    }
}
