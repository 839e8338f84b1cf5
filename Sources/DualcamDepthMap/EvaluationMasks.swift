import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// Masks selecting the pixels a depth evaluation looks at (for `DepthMetrics`).
public enum EvaluationMasks {
    /// true where a 1-channel image is non-zero (e.g. `synth`'s
    /// `wide.covisible.png`, 255 = seen by both cameras).
    public static func mask(from image: Image) throws -> [Bool] {
        guard image.channels == 1 else {
            throw DualcamError.invalidValue(name: "mask", reason: "expected a 1-channel image, got a \(image.description)")
        }
        return image.doubleValues().map { $0 != 0 && !$0.isNaN }
    }

    /// The mask resampled to `size` by nearest neighbour (same rule as
    /// `DepthResampling.nearest`), e.g. a full-size co-visibility mask for a
    /// 320x240 depth map.
    public static func resized(_ mask: [Bool], from source: PixelSize, to size: PixelSize) throws -> [Bool] {
        guard mask.count == source.width * source.height else {
            throw DualcamError.invalidValue(name: "mask", reason: "\(mask.count) values for a \(source) mask")
        }
        if source == size { return mask }
        let image = try Image(width: source.width, height: source.height, channels: 1, pixels: mask.map { $0 ? UInt8(1) : 0 })
        return try ImageOps.resize(image, width: size.width, height: size.height, interpolation: .nearest)
            .pixels(as: UInt8.self).map { $0 != 0 }
    }

    /// Textured pixels: true where the standard deviation of the grey level
    /// (luma of RGB, values as stored, e.g. 0...255 for uint8) over the
    /// (2 radius + 1)^2 window around the pixel (clipped at the borders) is at
    /// least `minimumStandardDeviation`. Stereo matching cannot be judged on
    /// textureless pixels, so matching metrics are reported on this mask.
    /// Computed with integral images of the values and their squares (O(N)).
    public static func textured(_ image: Image, radius: Int = 3, minimumStandardDeviation: Double = 2) throws -> [Bool] {
        guard radius >= 1 else {
            throw DualcamError.invalidValue(name: "texture mask", reason: "radius \(radius) (expected >= 1)")
        }
        let grey = try ImageOps.convertToGray(image).doubleValues()
        let w = image.width, h = image.height, stride = w + 1
        // Integral images with a zero first row and column.
        var sum = [Double](repeating: 0, count: stride * (h + 1)), squares = sum
        for y in 0..<h {
            var rowSum = 0.0, rowSquares = 0.0
            for x in 0..<w {
                let v = grey[y * w + x]
                rowSum += v
                rowSquares += v * v
                sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + rowSum
                squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares
            }
        }
        let threshold = minimumStandardDeviation * minimumStandardDeviation
        var mask = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
            for x in 0..<w {
                let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
                let n = Double((y1 - y0) * (x1 - x0))
                let s = sum[y1 * stride + x1] - sum[y0 * stride + x1] - sum[y1 * stride + x0] + sum[y0 * stride + x0]
                let q = squares[y1 * stride + x1] - squares[y0 * stride + x1] - squares[y1 * stride + x0] + squares[y0 * stride + x0]
                let mean = s / n
                mask[y * w + x] = q / n - mean * mean >= threshold
            }
        }
        return mask
    }
}

extension EvaluationMasks {
    /// Which pixels of a Middlebury-style mask to keep: `nonOccluded` (255)
    /// or `all` known pixels (255 and the occluded 128).
    public enum MaskSelection: String, CaseIterable, Sendable {
        case nonOccluded = "nonocc", all
    }

    /// A Middlebury `mask0nocc.png`-style mask (1-channel, 8-bit: 255
    /// non-occluded, 128 occluded, 0 invalid; other levels go to the nearest
    /// of the three) as a pixel selection.
    public static func middleburyMask(_ image: Image, selection: MaskSelection) throws -> [Bool] {
        guard image.channels == 1, image.element == .uint8 else {
            throw DualcamError.invalidValue(
                name: "mask", reason: "expected an 8-bit 1-channel image (255 non-occluded, 128 occluded, 0 invalid), got a \(image.description)")
        }
        let lowest: UInt8 = selection == .nonOccluded ? 192 : 64
        return try image.pixels(as: UInt8.self).map { $0 >= lowest }
    }
}
