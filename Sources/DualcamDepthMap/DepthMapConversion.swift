import DualcamGeometry
import DualcamImaging
import DualcamSupport

extension DepthMap {
    /// The map with values of `target` type; the other properties are kept.
    ///
    /// Every conversion goes through normalized disparity D (1/m), computed in
    /// Double and rounded once to Float:
    /// - depth -> D: D = 1 / Z for finite Z > 0; Z = +inf -> D = 0 (a point at
    ///   infinity); Z <= 0 or -inf -> NaN (no depth is 0 or negative).
    /// - D -> depth: Z = 1 / D for finite D > 0; D = 0 -> Z = +inf (explicit:
    ///   zero disparity is a point at infinity); D < 0 or D = +inf -> NaN
    ///   (relative stereo can produce small negative disparities, which have
    ///   no depth).
    /// - pixels <-> D: d_px = k * D and D = d_px / k with
    ///   k = `pixelsPerInverseMetre` (required; its absence is an error).
    /// NaN stays NaN everywhere. Reciprocals are exact up to the final Float
    /// rounding, so a depth -> disparity -> depth round trip returns every
    /// value to within one unit in the last place.
    public func converted(to target: DepthDataType) throws -> DepthMap {
        if target == type { return self }
        let k = try scaleForConversion(from: type, to: target)
        let source = type
        var result = self
        result.type = target
        result.values = values.map { value in
            Float(Self.convert(Double(value), from: source, to: target, pixelsPerInverseMetre: k))
        }
        return result
    }

    /// Converts one value (see `converted(to:)`); `k` is only used with `.pixels`.
    @inlinable
    public static func convert(_ value: Double, from source: DepthDataType, to target: DepthDataType,
                               pixelsPerInverseMetre k: Double) -> Double {
        if source == target || value.isNaN { return value }
        let inverseMetres: Double
        switch source {
        case .depth:
            if value == .infinity { inverseMetres = 0 } else if value > 0 { inverseMetres = 1 / value } else { return .nan }
        case .disparity: inverseMetres = value
        case .pixels: inverseMetres = value / k
        }
        switch target {
        case .disparity: return inverseMetres
        case .pixels: return inverseMetres * k
        case .depth:
            if inverseMetres == 0 { return .infinity }
            return inverseMetres > 0 && inverseMetres.isFinite ? 1 / inverseMetres : .nan
        }
    }

    /// k for a conversion that needs one, else 1 (unused).
    private func scaleForConversion(from source: DepthDataType, to target: DepthDataType) throws -> Double {
        guard source == .pixels || target == .pixels else { return 1 }
        guard let k = pixelsPerInverseMetre else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "cannot convert \(source) to \(target) without pixels per inverse metre (f_px * baseline_m)")
        }
        return k
    }
}

/// How `DepthMap.resized(to:method:)` resamples.
public enum DepthResampling: String, CaseIterable, Sendable {
    /// Each output pixel takes the source pixel under its centre: never
    /// blends, so no value is invented (NaN, +inf and edges stay as they are).
    case nearest
    /// Mean of the *valid* source values under the output pixel's footprint,
    /// weighted by overlap (OpenCV INTER_AREA weights, bilinear weights when
    /// enlarging); NaN when valid values cover less than
    /// `DepthMap.minimumValidAreaFraction` of the weight. Missing values never
    /// enter a mean, but valid neighbours across a depth edge do (a mixed
    /// value at the edge); use `.nearest` where that matters.
    case area
}

extension DepthMap {
    /// Share of an output pixel's weight that valid source values must cover
    /// for `.area` resampling to produce a value (otherwise NaN).
    public static let minimumValidAreaFraction: Float = 0.5

    /// The map resampled to `newSize`, which must have the same aspect ratio
    /// (the height implied by the width within one pixel, as for
    /// `Intrinsics.scaled(to:)`). Intrinsics follow the resampled pixel grid
    /// (`Intrinsics.resampled(to:)`: the grids share their outer edges);
    /// `pixelsPerInverseMetre` and `.pixels` values are multiplied by
    /// newWidth / width (pixel disparities are measured in this map's pixels).
    public func resized(to newSize: PixelSize, method: DepthResampling = .area) throws -> DepthMap {
        if newSize == size { return self }
        let predictedHeight = Double(newSize.width) * Double(size.height) / Double(size.width)
        guard newSize.width > 0, newSize.height > 0, abs(predictedHeight - Double(newSize.height)) <= 1 else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "cannot resize \(size) to \(newSize): the aspect ratio differs")
        }
        let scaleX = Double(newSize.width) / Double(size.width)
        var result = self
        result.size = newSize
        result.intrinsics = try intrinsics.map { try $0.resampled(to: newSize) }
        result.pixelsPerInverseMetre = pixelsPerInverseMetre.map { $0 * scaleX }
        switch method {
        case .nearest:
            let resized = try ImageOps.resize(image(), width: newSize.width, height: newSize.height, interpolation: .nearest)
            result.values = try resized.pixels(as: Float.self)
        case .area:
            result.values = try areaResampled(to: newSize)
        }
        if type == .pixels {
            let factor = Float(scaleX)
            result.values = result.values.map { $0 * factor }
        }
        return result
    }

    /// Mask-normalized area resampling: resize(v * m) / resize(m) where m is 1
    /// for valid values and 0 otherwise, both by OpenCV's INTER_AREA (a
    /// linear operator, so the ratio is the weighted mean of the valid values).
    private func areaResampled(to newSize: PixelSize) throws -> [Float] {
        let type = self.type
        var masked = values
        var mask = [Float](repeating: 0, count: values.count)
        for i in masked.indices {
            if Self.isValid(masked[i], type: type) { mask[i] = 1 } else { masked[i] = 0 }
        }
        let w = size.width, h = size.height
        let sums = try ImageOps.resize(try Image(width: w, height: h, channels: 1, pixels: masked),
                                       width: newSize.width, height: newSize.height, interpolation: .area)
        let weights = try ImageOps.resize(try Image(width: w, height: h, channels: 1, pixels: mask),
                                          width: newSize.width, height: newSize.height, interpolation: .area)
        let s = try sums.pixels(as: Float.self), c = try weights.pixels(as: Float.self)
        let threshold = Self.minimumValidAreaFraction - 1e-5
        var out = [Float](repeating: .nan, count: s.count)
        for i in out.indices where c[i] >= threshold && c[i] > 0 {
            out[i] = s[i] / c[i]
        }
        return out
    }
}
