import Dispatch
import DualcamGeometry
import DualcamImaging

/// Errors of the synthetic renderer (one line each).
public enum RenderError: Error, Equatable, CustomStringConvertible {
    case invalidScene(String)
    case invalidOptions(String)

    public var description: String {
        switch self {
        case let .invalidScene(m), let .invalidOptions(m): return m
        }
    }
}

/// The part of the image to render.
public typealias RenderRegion = PixelRect

/// How to render.
public struct RenderOptions: Equatable, Sendable {
    /// n: each pixel averages n x n stratified samples at offsets
    /// ((i + 0.5) / n - 0.5, (j + 0.5) / n - 0.5) from its centre (4 spp by default).
    public var samplesPerAxis: Int
    /// Standard deviation of Gaussian sensor noise in 8-bit levels, added per
    /// channel after averaging (0 = none).
    public var noiseSigma: Double
    /// Seed of all per-pixel randomness (noise, jitter).
    public var seed: UInt64
    /// Jittered stratified sampling: offsets ((i + U) / n - 0.5, (j + V) / n - 0.5)
    /// with U, V uniform in [0, 1) hashed from (seed, camera, x, y, sample).
    public var jitter: Bool
    /// Render only these pixels (others stay black, depth NaN, object -1).
    public var region: RenderRegion?
    /// Node spacing of the undistortion grid in pixels (see `UndistortionGrid`).
    public var undistortionGridStep: Double
    /// Also return the colour before quantization (`RenderedView.linear`),
    /// the input of `CaptureConditions` (camera conditions). Off by default: it
    /// costs 12 bytes per pixel and does not change `image`.
    public var keepLinear: Bool

    public init(samplesPerAxis: Int = 2, noiseSigma: Double = 0, seed: UInt64 = 0, jitter: Bool = false,
                region: RenderRegion? = nil, undistortionGridStep: Double = 4, keepLinear: Bool = false) {
        self.samplesPerAxis = samplesPerAxis
        self.noiseSigma = noiseSigma
        self.seed = seed
        self.jitter = jitter
        self.region = region
        self.undistortionGridStep = undistortionGridStep
        self.keepLinear = keepLinear
    }
}

/// One rendered camera view with its ground truth.
public struct RenderedView: Sendable {
    public let camera: FrameName
    /// RGB uint8, the scene's (display-encoded) colour * 255 rounded to nearest
    /// and clamped, or, after `CaptureConditions.apply`, the image those camera
    /// conditions form.
    public let image: Image
    /// With `RenderOptions.keepLinear`: float32 RGB, the value `image` quantizes
    /// before any camera conditions, i.e. the colour in [0, 1] plus the
    /// renderer's Gaussian noise / 255 (not clamped); nil otherwise. "Linear"
    /// as in not yet quantized: the values are display-encoded, and camera
    /// conditions decode them to linear light (`PhotometricModel`).
    public let linear: Image?
    /// Float32, 1 channel: Z (metres, along this camera's optical axis) of the
    /// surface hit by the ray through the pixel centre (undistortion refined to
    /// ~1e-8 px, `CameraRays.refined`); NaN where it hits nothing.
    public let depth: Image
    /// Row-major index into `Scene.objects` of the object hit at the pixel
    /// centre; -1 where nothing is hit.
    public let objectIDs: [Int32]
    public let size: PixelSize

    init(camera: FrameName, image: Image, linear: Image? = nil, depth: Image, objectIDs: [Int32], size: PixelSize) {
        self.camera = camera
        self.image = image
        self.linear = linear
        self.depth = depth
        self.objectIDs = objectIDs
        self.size = size
    }

    /// The same view with another image (its ground truth unchanged).
    func replacingImage(_ image: Image) -> RenderedView {
        RenderedView(camera: camera, image: image, linear: linear, depth: depth, objectIDs: objectIDs, size: size)
    }

    /// The depth values, row-major.
    public func depthValues() -> [Float] {
        // The renderer always builds `depth` from Float values.
        (try? depth.pixels(as: Float.self)) ?? []
    }
}

/// A ray-casting renderer of `Scene`s through a rig's camera models.
///
/// Conventions: world = the rig's reference camera frame in metres; pixel
/// (x, y) is centred at sensor coordinates (x, y) (OpenCV); rays follow
/// `CameraRays` (lens distortion inverted through `UndistortionGrid`). Work is
/// split into bands of rows run with `DispatchQueue.concurrentPerform`; every
/// random number is hashed from (seed, camera name, x, y, sample), so the
/// output is identical for a seed whatever the thread scheduling.
public enum Renderer {
    /// Rows per parallel work item.
    static let bandRows = 8

    /// Renders `camera` of `rig` at the camera's own size. For another size,
    /// pass a rig whose cameras were scaled (`Rig.resized(width:)`).
    public static func render(_ scene: Scene, camera: FrameName, of rig: Rig,
                              options: RenderOptions = RenderOptions()) throws -> RenderedView {
        try render(SceneRayCaster(scene), rays: CameraRays(rig: rig, camera: camera, gridStep: options.undistortionGridStep),
                   options: options)
    }

    /// Renders several cameras (default: all of the rig's) of one scene.
    public static func render(_ scene: Scene, cameras: [FrameName]? = nil, of rig: Rig,
                              options: RenderOptions = RenderOptions()) throws -> [FrameName: RenderedView] {
        let caster = try SceneRayCaster(scene)
        var views: [FrameName: RenderedView] = [:]
        for name in cameras ?? rig.cameraNames {
            views[name] = try render(caster, rays: CameraRays(rig: rig, camera: name, gridStep: options.undistortionGridStep),
                                     options: options)
        }
        return views
    }

    /// Renders with a compiled scene and precomputed camera rays.
    public static func render(_ caster: SceneRayCaster, rays: CameraRays,
                              options: RenderOptions = RenderOptions()) throws -> RenderedView {
        let size = rays.size
        let n = options.samplesPerAxis
        guard (1...16).contains(n) else {
            throw RenderError.invalidOptions("samplesPerAxis must be in 1...16, got \(n)")
        }
        guard options.noiseSigma.isFinite, options.noiseSigma >= 0 else {
            throw RenderError.invalidOptions("noiseSigma must be a non-negative number of 8-bit levels, got \(options.noiseSigma)")
        }
        let region = options.region ?? RenderRegion(x: 0, y: 0, width: size.width, height: size.height)
        guard region.x >= 0, region.y >= 0, region.width > 0, region.height > 0,
              region.x + region.width <= size.width, region.y + region.height <= size.height else {
            throw RenderError.invalidOptions("render region \(region) is not inside the \(size) image of '\(rays.name)'")
        }
        let count = size.width * size.height
        var rgb = [UInt8](repeating: 0, count: 3 * count)
        var depth = [Float](repeating: .nan, count: count)
        var ids = [Int32](repeating: -1, count: count)
        var linear = [Float](repeating: 0, count: options.keepLinear ? 3 * count : 0)
        let job = RenderJob(rays: rays, options: options, region: region, width: size.width)
        rgb.withUnsafeMutableBufferPointer { rgbOut in
            depth.withUnsafeMutableBufferPointer { depthOut in
                ids.withUnsafeMutableBufferPointer { idOut in
                    linear.withUnsafeMutableBufferPointer { linearOut in
                        let out = RenderOutput(rgb: rgbOut, depth: depthOut, ids: idOut,
                                               linear: options.keepLinear ? linearOut : nil)
                        renderBands(caster, rays: rays, job: job, region: region, out: out)
                    }
                }
            }
        }
        return RenderedView(
            camera: rays.name,
            image: try Image(width: size.width, height: size.height, channels: 3, pixels: rgb),
            linear: options.keepLinear ? try Image(width: size.width, height: size.height, channels: 3, pixels: linear) : nil,
            depth: try Image(width: size.width, height: size.height, channels: 1, pixels: depth),
            objectIDs: ids, size: size)
    }

    /// Runs `job` over the region's rows in parallel bands.
    static func renderBands(_ caster: SceneRayCaster, rays: CameraRays, job: RenderJob, region: RenderRegion,
                            out: RenderOutput) {
        rays.grid.nodes.withUnsafeBufferPointer { nodes in
            caster.translated(by: -rays.center).withBuffers { shapes, appearances, bitmaps in
                let scene = SceneBuffers(shapes: shapes, appearances: appearances, bitmaps: bitmaps,
                                         background: caster.background)
                let grid = rays.grid.view(nodes)
                let bands = (region.height + bandRows - 1) / bandRows
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let y0 = region.y + band * bandRows
                    for y in y0..<min(y0 + bandRows, region.y + region.height) {
                        job.renderRow(y, grid: grid, scene: scene, out: out)
                    }
                }
            }
        }
    }
}

/// Unsafe views of the compiled scene for the per-sample loop.
struct SceneBuffers {
    let shapes: UnsafeBufferPointer<CompiledShape>
    let appearances: UnsafeBufferPointer<CompiledAppearance>
    let bitmaps: UnsafeBufferPointer<Bitmap>
    let background: SIMD3<Double>
}

/// Output buffers; each row is written by exactly one work item.
struct RenderOutput {
    let rgb: UnsafeMutableBufferPointer<UInt8>
    let depth: UnsafeMutableBufferPointer<Float>
    let ids: UnsafeMutableBufferPointer<Int32>
    /// RGB float32, value / 255 before quantization (`RenderOptions.keepLinear`).
    let linear: UnsafeMutableBufferPointer<Float>?
}

/// The per-row work of one render.
struct RenderJob {
    let rays: CameraRays
    let options: RenderOptions
    let region: RenderRegion
    let width: Int
    /// Hash of (seed, camera name): the root of every per-pixel hash.
    let rootHash: UInt64
    /// Regular stratified offsets (i + 0.5) / n - 0.5.
    let offsets: [Double]

    init(rays: CameraRays, options: RenderOptions, region: RenderRegion, width: Int) {
        self.rays = rays
        self.options = options
        self.region = region
        self.width = width
        rootHash = NoiseHash.combine(NoiseHash.mix(options.seed), NoiseHash.string(rays.name.rawValue))
        let n = options.samplesPerAxis
        offsets = (0..<n).map { (Double($0) + 0.5) / Double(n) - 0.5 }
    }

    /// Renders row `y` of the region: per pixel the centre ray (depth, object
    /// id; refined undistortion) and n x n colour samples (interpolated
    /// undistortion), averaged, plus optional Gaussian noise, then
    /// 8-bit = clamp(round(255 * mean + noise), 0, 255).
    func renderRow(_ y: Int, grid: GridView, scene: SceneBuffers, out: RenderOutput) {
        let n = options.samplesPerAxis
        let scale = 255 / Double(n * n)
        // Shapes are translated so that the camera centre is the origin (the
        // subtractions of o fold away); surface coordinates are relative to
        // each shape's centre, so textures do not change.
        let origin = Vector3.zero
        let sigma = options.noiseSigma, jitter = options.jitter
        let fy = Double(y)
        let rowHash = NoiseHash.combine(rootHash, y)
        offsets.withUnsafeBufferPointer { offsets in
            for x in region.x..<(region.x + region.width) {
                let fx = Double(x), index = y * width + x
                let centre = rays.worldDirection(rays.refined(grid, fx, fy))
                let hit = SceneRayCaster.nearest(scene.shapes, origin: origin, direction: centre)
                out.depth[index] = hit.index >= 0 ? Float(hit.t) : .nan
                out.ids[index] = Int32(truncatingIfNeeded: hit.index)

                let pixelHash = NoiseHash.combine(rowHash, x)
                var sum = SIMD3<Double>.zero
                for j in 0..<n {
                    for i in 0..<n {
                        var ox = offsets[i], oy = offsets[j]
                        if jitter {
                            let h = NoiseHash.combine(pixelHash, j * n + i)
                            ox = (Double(i) + NoiseHash.unit(h)) / Double(n) - 0.5
                            oy = (Double(j) + NoiseHash.unit(NoiseHash.mix(h))) / Double(n) - 0.5
                        }
                        let d = rays.worldDirection(grid.normalized(fx + ox, fy + oy).n)
                        sum += SceneRayCaster.trace(scene.shapes, scene.appearances, scene.bitmaps,
                                                    background: scene.background, origin: origin, direction: d)
                    }
                }
                var value = sum * scale
                if sigma > 0 {
                    // Noise stream: sample indices -1...-4 (never used by jitter).
                    let (g0, g1) = NoiseHash.gaussianPair(NoiseHash.combine(pixelHash, -1), NoiseHash.combine(pixelHash, -2))
                    let (g2, _) = NoiseHash.gaussianPair(NoiseHash.combine(pixelHash, -3), NoiseHash.combine(pixelHash, -4))
                    value += SIMD3(g0, g1, g2) * sigma
                }
                if let linear = out.linear {
                    linear[3 * index] = Float(value.x / 255)
                    linear[3 * index + 1] = Float(value.y / 255)
                    linear[3 * index + 2] = Float(value.z / 255)
                }
                out.rgb[3 * index] = Self.byte(value.x)
                out.rgb[3 * index + 1] = Self.byte(value.y)
                out.rgb[3 * index + 2] = Self.byte(value.z)
            }
        }
    }

    /// Round to nearest and clamp to 0...255 (NaN -> 0).
    @inline(__always)
    static func byte(_ v: Double) -> UInt8 {
        guard v > 0 else { return 0 }
        guard v < 255 else { return 255 }
        return UInt8(v + 0.5)
    }
}
