#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import DualcamGeometry
import DualcamImaging

/// How a synthetic camera forms its 8-bit image from the renderer's linear
/// colour, under `CameraConditions` and the scene's light level.
///
/// Per pixel p = (x, y) (OpenCV convention: centres at integer coordinates)
/// and channel c, with L the renderer's linear colour (`RenderedView.linear`,
/// [0, 1], its own Gaussian noise included):
///
///     B      = G_sigma * L                                optical blur, Gaussian PSF, sigma = blurSigmaPixels
///     V(p)   = 1 - s (|p - (cx, cy)| / rCorner)^2         vignetting, s = vignettingCornerFalloff
///     x      = lightLevel * exposure * V(p) * B(p)        raw signal, normalized: 1 = full scale
///     x'     = x + sqrt(shotNoise * max(x, 0) + readNoise^2) * n     n ~ N(0, 1), independent per pixel and channel
///     y      = whiteBalance_c * x' / lightLevel           ISP: white balance, gain that compensates the light level
///     v      = clamp(y, 0, 1)^(1 / gamma)                  tone curve
///     byte   = round(255 v)                                8-bit RGB
///
/// then, when `jpegQuality` is set, a JPEG round trip of the 8-bit image
/// (`ImageIO.jpegRoundTrip`). rCorner is the distance from the principal
/// point to the farthest image corner. On a flat patch of raw level x the
/// noise seen in the bytes is, to first order,
/// sd = 255 * (1 / gamma) * y^(1 / gamma - 1) * whiteBalance_c * sqrt(shotNoise * x + readNoise^2) / lightLevel
/// (plus 1 / sqrt(12) levels of quantization).
///
/// n is hashed from (seed, camera name, x, y, channel) with `NoiseHash`, so
/// the output is a pure function of its inputs whatever the threading. The
/// order follows the light: lens (blur, vignetting), sensor (exposure, noise),
/// ISP (white balance, gain, tone curve), codec.
public enum PhotometricModel {
    /// Rows per parallel work item.
    static let bandRows = 16

    /// The 8-bit RGB image `conditions` form from `linear` (float32, 3
    /// channels, linear colour), for a camera whose principal point at this
    /// image size is (`intrinsics.cx`, `intrinsics.cy`).
    public static func image(fromLinear linear: Image, conditions: CameraConditions, lightLevel: Double = 1,
                             intrinsics: Intrinsics, seed: UInt64, camera: FrameName) throws -> Image {
        try conditions.validate(camera: camera.rawValue)
        guard ConditionParameter.lightLevel.accepts(lightLevel) else {
            throw RenderError.invalidOptions("light level \(lightLevel): \(ConditionParameter.lightLevel.expectation)")
        }
        guard linear.element == .float32, linear.channels == 3 else {
            throw RenderError.invalidOptions("camera conditions need a float32 RGB linear image, got \(linear)")
        }
        let blurred = conditions.blurSigmaPixels > 0
            ? try ImageOps.gaussianBlur(linear, sigma: conditions.blurSigmaPixels) : linear
        let values = try blurred.pixels(as: Float.self)
        let (width, height) = (linear.width, linear.height)
        var bytes = [UInt8](repeating: 0, count: 3 * width * height)
        let formation = Formation(conditions: conditions, lightLevel: lightLevel, intrinsics: intrinsics,
                                  width: width, height: height, seed: seed, camera: camera)
        values.withUnsafeBufferPointer { input in
            bytes.withUnsafeMutableBufferPointer { output in
                let bands = (height + bandRows - 1) / bandRows
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    for y in (band * bandRows)..<min((band + 1) * bandRows, height) {
                        formation.formRow(y, input: input, output: output)
                    }
                }
            }
        }
        let image = try Image(width: width, height: height, channels: 3, pixels: bytes)
        guard let quality = conditions.jpegQuality else { return image }
        return try ImageIO.jpegRoundTrip(image, quality: quality)
    }

    /// Relative illumination V(p) = 1 - s (r / rCorner)^2 at pixel (x, y).
    public static func vignetting(x: Double, y: Double, cornerFalloff s: Double, intrinsics: Intrinsics,
                                  width: Int, height: Int) -> Double {
        let r2 = (x - intrinsics.cx) * (x - intrinsics.cx) + (y - intrinsics.cy) * (y - intrinsics.cy)
        return 1 - s * r2 / cornerRadiusSquared(intrinsics: intrinsics, width: width, height: height)
    }

    /// rCorner^2: the squared distance from the principal point to the
    /// farthest corner pixel centre, (0, 0), (W - 1, 0), (0, H - 1) or (W - 1, H - 1).
    static func cornerRadiusSquared(intrinsics: Intrinsics, width: Int, height: Int) -> Double {
        let dx = max(intrinsics.cx, Double(width - 1) - intrinsics.cx)
        let dy = max(intrinsics.cy, Double(height - 1) - intrinsics.cy)
        return max(dx * dx + dy * dy, 1)
    }
}

/// The per-pixel part of `PhotometricModel` with its constants folded.
struct Formation {
    let exposure: Double
    let lightLevel: Double
    let gains: SIMD3<Double>
    let inverseGamma: Double
    let falloffPerR2: Double
    let cx: Double
    let cy: Double
    let shotNoise: Double
    let readVariance: Double
    let noisy: Bool
    let width: Int
    let rootHash: UInt64

    init(conditions c: CameraConditions, lightLevel: Double, intrinsics: Intrinsics, width: Int, height: Int,
         seed: UInt64, camera: FrameName) {
        exposure = c.exposure
        self.lightLevel = lightLevel
        gains = SIMD3(c.whiteBalance.r, c.whiteBalance.g, c.whiteBalance.b)
        inverseGamma = 1 / c.gamma
        falloffPerR2 = c.vignettingCornerFalloff
            / PhotometricModel.cornerRadiusSquared(intrinsics: intrinsics, width: width, height: height)
        cx = intrinsics.cx
        cy = intrinsics.cy
        shotNoise = c.shotNoise
        readVariance = c.readNoise * c.readNoise
        noisy = c.shotNoise > 0 || c.readNoise > 0
        self.width = width
        // A stream of its own: the renderer's noise hashes (seed, camera) without this tag.
        rootHash = NoiseHash.combine(NoiseHash.combine(NoiseHash.mix(seed), NoiseHash.string(camera.rawValue)),
                                     NoiseHash.string("camera conditions"))
    }

    /// Forms row `y`: input is float32 RGB (after blur), output 8-bit RGB.
    func formRow(_ y: Int, input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<UInt8>) {
        let rowHash = NoiseHash.combine(rootHash, y)
        let dy2 = (Double(y) - cy) * (Double(y) - cy)
        for x in 0..<width {
            let i = 3 * (y * width + x)
            let dx = Double(x) - cx
            let scale = lightLevel * exposure * (1 - falloffPerR2 * (dx * dx + dy2))
            var raw = SIMD3(Double(input[i]), Double(input[i + 1]), Double(input[i + 2])) * scale
            if noisy {
                let h = NoiseHash.combine(rowHash, x)
                let (n0, n1) = NoiseHash.gaussianPair(NoiseHash.combine(h, 1), NoiseHash.combine(h, 2))
                let (n2, _) = NoiseHash.gaussianPair(NoiseHash.combine(h, 3), NoiseHash.combine(h, 4))
                let sigma = SIMD3(sd(raw.x), sd(raw.y), sd(raw.z))
                raw += sigma * SIMD3(n0, n1, n2)
            }
            let encoded = raw * gains / lightLevel
            output[i] = tone(encoded.x)
            output[i + 1] = tone(encoded.y)
            output[i + 2] = tone(encoded.z)
        }
    }

    /// sqrt(shotNoise * max(x, 0) + readNoise^2).
    @inline(__always)
    func sd(_ x: Double) -> Double { (shotNoise * max(x, 0) + readVariance).squareRoot() }

    /// round(255 * clamp(y, 0, 1)^(1 / gamma)).
    @inline(__always)
    func tone(_ y: Double) -> UInt8 {
        guard y > 0 else { return 0 }
        guard y < 1 else { return 255 }
        let v = inverseGamma == 1 ? y : pow(y, inverseGamma)
        return UInt8(255 * v + 0.5)
    }
}

extension CaptureConditions {
    /// `view` as its camera forms it under these conditions: the image is
    /// replaced (`PhotometricModel`), the ground truth (depth, object ids) and
    /// `linear` are unchanged. A camera whose conditions are clean at light
    /// level 1 keeps the renderer's image exactly. Needs `view.linear`
    /// (`RenderOptions.keepLinear`) otherwise. `rig` gives the principal point
    /// (its camera must have the view's size); `seed` the noise.
    public func apply(to view: RenderedView, rig: Rig, seed: UInt64) throws -> RenderedView {
        let camera = self[view.camera]
        if camera.isClean, lightLevel == 1 { return view }
        guard let linear = view.linear else {
            throw RenderError.invalidOptions(
                "camera conditions for '\(view.camera)' need the linear render (RenderOptions.keepLinear)")
        }
        let intrinsics = try rig.camera(view.camera).model.intrinsics
        guard intrinsics.referenceSize == view.size else {
            throw RenderError.invalidOptions(
                "rendered view of '\(view.camera)' is \(view.size) but the rig's camera is \(intrinsics.referenceSize)")
        }
        return view.replacingImage(try PhotometricModel.image(
            fromLinear: linear, conditions: camera, lightLevel: lightLevel, intrinsics: intrinsics,
            seed: seed, camera: view.camera))
    }
}

extension Renderer {
    /// Renders `camera` and forms its image under `conditions` (the linear
    /// render is kept in the result; the noise seed is `options.seed`).
    public static func render(_ scene: Scene, camera: FrameName, of rig: Rig, options: RenderOptions = RenderOptions(),
                              conditions: CaptureConditions) throws -> RenderedView {
        var options = options
        options.keepLinear = options.keepLinear || !conditions.isClean
        let view = try render(scene, camera: camera, of: rig, options: options)
        return try conditions.apply(to: view, rig: rig, seed: options.seed)
    }
}
