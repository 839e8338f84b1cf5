#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import DualcamGeometry
import DualcamImaging

/// How a synthetic camera forms its 8-bit image from the renderer's colour
/// values, under `CameraConditions` and the scene's light level.
///
/// The renderer's values R (`RenderedView.linear`: [0, 1] before
/// quantization, its own Gaussian noise included; the clean image is
/// round(255 R)) are display-encoded: scene colours and textures are designed
/// as they look on screen, like an sRGB image, not as linear light. The model
/// decodes them with the reference gamma `renderEncodingGamma` (2.2) to linear
/// light L, where the lens, the sensor and the ISP's gains act, and encodes
/// the result with the camera's own tone curve. Per pixel p = (x, y) (OpenCV
/// convention: centres at integer coordinates) and channel c:
///
///     L      = max(R, 0)^2.2                              linear light (renderEncodingGamma)
///     B      = G_sigma * L                                optical blur, Gaussian PSF, sigma = blurSigmaPixels
///     V(p)   = 1 - s (|p - (cx, cy)| / rCorner)^2         vignetting, s = vignettingCornerFalloff
///     x      = lightLevel * exposure * V(p) * B(p)        raw signal, normalized: 1 = full scale
///     x'     = x + sqrt(shotNoise * max(x, 0) + readNoise^2) * n     n ~ N(0, 1), independent per pixel and channel
///     y      = whiteBalance_c * x' / lightLevel           ISP: white balance, gain that compensates the light level
///     v      = clamp(y, 0, 1)^(1 / gamma)                  the camera's tone curve
///     byte   = round(255 v)                                8-bit RGB
///
/// then, when `jpegQuality` is set, a JPEG round trip of the 8-bit image
/// (`ImageIO.jpegRoundTrip`). rCorner is the distance from the principal
/// point to the farthest image corner. A camera of gamma 2.2 whose other
/// settings are neutral gives back round(255 R), the render's own tonality;
/// another gamma changes the midtones (2.0 darker, 1 = linear light, much
/// darker), not black or white. On a flat patch of linear light L the raw
/// level is x = lightLevel * exposure * V * L, and the noise seen in the
/// bytes is, to first order,
/// sd = 255 * (1 / gamma) * y^(1 / gamma - 1) * whiteBalance_c * sqrt(shotNoise * x + readNoise^2) / lightLevel
/// with y = whiteBalance_c * x / lightLevel (plus 1 / sqrt(12) levels of quantization).
///
/// n is hashed from (seed, camera name, x, y, channel) with `NoiseHash`, so
/// the output is a pure function of its inputs whatever the threading. The
/// order follows the light: lens (blur, vignetting), sensor (exposure, noise),
/// ISP (white balance, gain, tone curve), codec.
public enum PhotometricModel {
    /// The gamma the renderer's colour values are encoded with: linear light
    /// L = R^renderEncodingGamma. 2.2, a plain power close to sRGB's curve, as
    /// for an 8-bit image viewed on a display. A camera tone curve of this
    /// gamma reproduces the render (`CameraConditions.clean`).
    public static let renderEncodingGamma = 2.2

    /// Rows per parallel work item.
    static let bandRows = 16

    /// The 8-bit RGB image `conditions` form from `linear`, the renderer's
    /// colour values (float32, 3 channels, display-encoded, see above), for
    /// a camera whose principal point at this image size is
    /// (`intrinsics.cx`, `intrinsics.cy`).
    public static func image(fromLinear linear: Image, conditions: CameraConditions, lightLevel: Double = 1,
                             intrinsics: Intrinsics, seed: UInt64, camera: FrameName) throws -> Image {
        try conditions.validate(camera: camera.rawValue)
        guard ConditionParameter.lightLevel.accepts(lightLevel) else {
            throw RenderError.invalidOptions("light level \(lightLevel): \(ConditionParameter.lightLevel.expectation)")
        }
        guard linear.element == .float32, linear.channels == 3 else {
            throw RenderError.invalidOptions("camera conditions need the renderer's float32 RGB values, got \(linear)")
        }
        let (width, height) = (linear.width, linear.height)
        let encoded = try linear.pixels(as: Float.self)
        // Without blur the rows decode their own values (in double precision);
        // blur acts on linear light, so decode the whole image first.
        let blurred = conditions.blurSigmaPixels > 0
        let values = blurred
            ? try ImageOps.gaussianBlur(try Image(width: width, height: height, channels: 3, pixels: decoded(encoded)),
                                        sigma: conditions.blurSigmaPixels).pixels(as: Float.self)
            : encoded
        var bytes = [UInt8](repeating: 0, count: 3 * width * height)
        let formation = Formation(conditions: conditions, lightLevel: lightLevel, intrinsics: intrinsics,
                                  width: width, height: height, seed: seed, camera: camera, decodesInput: !blurred)
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

    /// Linear light L = max(R, 0)^renderEncodingGamma of a display-encoded value R.
    @inline(__always)
    static func decode(_ r: Double) -> Double { r > 0 ? pow(r, renderEncodingGamma) : 0 }

    /// `decode` of every value (float32 in and out).
    static func decoded(_ values: [Float]) -> [Float] {
        var result = [Float](repeating: 0, count: values.count)
        let chunk = 1 << 16
        values.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { output in
                DispatchQueue.concurrentPerform(iterations: (values.count + chunk - 1) / chunk) { k in
                    for i in (k * chunk)..<min((k + 1) * chunk, values.count) {
                        output[i] = Float(decode(Double(input[i])))
                    }
                }
            }
        }
        return result
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
    /// Whether the input is the renderer's display-encoded values (decoded
    /// here) rather than linear light (decoded and blurred before).
    let decodesInput: Bool

    init(conditions c: CameraConditions, lightLevel: Double, intrinsics: Intrinsics, width: Int, height: Int,
         seed: UInt64, camera: FrameName, decodesInput: Bool) {
        self.decodesInput = decodesInput
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

    /// Forms row `y`: input is float32 RGB, display-encoded (`decodesInput`) or
    /// linear light after blur; output 8-bit RGB.
    func formRow(_ y: Int, input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<UInt8>) {
        let rowHash = NoiseHash.combine(rootHash, y)
        let dy2 = (Double(y) - cy) * (Double(y) - cy)
        for x in 0..<width {
            let i = 3 * (y * width + x)
            let dx = Double(x) - cx
            let scale = lightLevel * exposure * (1 - falloffPerR2 * (dx * dx + dy2))
            var light = SIMD3(Double(input[i]), Double(input[i + 1]), Double(input[i + 2]))
            if decodesInput {
                light = SIMD3(PhotometricModel.decode(light.x), PhotometricModel.decode(light.y),
                              PhotometricModel.decode(light.z))
            }
            var raw = light * scale
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
