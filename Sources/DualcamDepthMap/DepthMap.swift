import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// A typed depth map as a depth camera delivers it (docs/conventions.md, "Depth data"):
/// `size.width` x `size.height` float values, row-major (row 0 at the top),
/// NaN marking a missing value, aligned to the reference camera's image.
///
/// - `type` says what the values are (metres, 1/m or rectified pixels).
/// - `intrinsics` is the reference camera's K *at this map's size* (nil when
///   unknown, e.g. a bare ground-truth array).
/// - `pixelsPerInverseMetre` is k = f_px * B_m of the rectified pair expressed
///   at this map's resolution (f_px scaled by map width / rectified width), so
///   d_px = k / Z = k * D. Needed to convert to or from `.pixels`.
///
/// The stored values are not validated (a producer may hold negative
/// relative disparities); conversions define how non-positive values map.
/// Equality compares values bitwise (a NaN equals the same NaN), which is
/// what round-trip tests need.
public struct DepthMap: Equatable, Sendable {
    public var size: PixelSize
    /// `size.width * size.height` values, row-major; NaN = missing.
    public var values: [Float]
    public var type: DepthDataType
    public var accuracy: DepthAccuracy
    public var isFiltered: Bool
    public var quality: DepthQuality
    /// The reference camera's intrinsics at `size` (nil when unknown).
    public var intrinsics: Intrinsics?
    /// k = f_px * B_m at this map's resolution (pixel disparity = k / depth).
    public var pixelsPerInverseMetre: Double?
    /// Name of the reference camera the map is aligned to ("wide", "tele", ...).
    public var referenceCamera: String?

    /// A map over `values`; throws `.invalidValue` when the count does not
    /// match `size`, the size is empty, `intrinsics` are not for `size`, or
    /// `pixelsPerInverseMetre` is not a positive finite number.
    public init(
        size: PixelSize, values: [Float], type: DepthDataType,
        accuracy: DepthAccuracy = .relative, isFiltered: Bool = false, quality: DepthQuality = .high,
        intrinsics: Intrinsics? = nil, pixelsPerInverseMetre: Double? = nil, referenceCamera: String? = nil
    ) throws {
        guard size.width > 0, size.height > 0, size.width <= Image.maximumSide, size.height <= Image.maximumSide else {
            throw DualcamError.invalidValue(name: "depth map", reason: "size \(size) (expected 1...\(Image.maximumSide) per side)")
        }
        guard values.count == size.width * size.height else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "\(values.count) values for a \(size) map (expected \(size.width * size.height))")
        }
        if let intrinsics, intrinsics.referenceSize != size {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "intrinsics are for \(intrinsics.referenceSize), the map is \(size)")
        }
        if let k = pixelsPerInverseMetre, !(k.isFinite && k > 0) {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "pixels per inverse metre is \(k) (expected a positive number, f_px * baseline_m)")
        }
        self.size = size
        self.values = values
        self.type = type
        self.accuracy = accuracy
        self.isFiltered = isFiltered
        self.quality = quality
        self.intrinsics = intrinsics
        self.pixelsPerInverseMetre = pixelsPerInverseMetre
        self.referenceCamera = referenceCamera
    }

    /// A map of `size` filled with `value` (NaN by default) and the other properties given.
    public init(
        size: PixelSize, filledWith value: Float = .nan, type: DepthDataType,
        accuracy: DepthAccuracy = .relative, isFiltered: Bool = false, quality: DepthQuality = .high,
        intrinsics: Intrinsics? = nil, pixelsPerInverseMetre: Double? = nil, referenceCamera: String? = nil
    ) throws {
        try self.init(size: size, values: [Float](repeating: value, count: max(0, size.width * size.height)), type: type,
                      accuracy: accuracy, isFiltered: isFiltered, quality: quality, intrinsics: intrinsics,
                      pixelsPerInverseMetre: pixelsPerInverseMetre, referenceCamera: referenceCamera)
    }

    public static func == (a: DepthMap, b: DepthMap) -> Bool {
        a.size == b.size && a.type == b.type && a.accuracy == b.accuracy && a.isFiltered == b.isFiltered
            && a.quality == b.quality && a.intrinsics == b.intrinsics && a.pixelsPerInverseMetre == b.pixelsPerInverseMetre
            && a.referenceCamera == b.referenceCamera && a.values.count == b.values.count
            && zip(a.values, b.values).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    public var width: Int { size.width }
    public var height: Int { size.height }

    /// The value at column `x`, row `y` (traps outside the map, like an array index).
    public subscript(x: Int, y: Int) -> Float {
        get {
            precondition(x >= 0 && x < size.width && y >= 0 && y < size.height, "(\(x), \(y)) is outside the \(size) map")
            return values[y * size.width + x]
        }
        set {
            precondition(x >= 0 && x < size.width && y >= 0 && y < size.height, "(\(x), \(y)) is outside the \(size) map")
            values[y * size.width + x] = newValue
        }
    }

    /// Whether a stored value counts as valid: finite and, for `depth`,
    /// positive (0 is "missing" in every depth file convention); disparities
    /// of either kind may be any finite number (relative stereo can hold
    /// small negative values).
    @inlinable
    public static func isValid(_ value: Float, type: DepthDataType) -> Bool {
        type == .depth ? (value.isFinite && value > 0) : value.isFinite
    }

    /// Number of valid values (see `isValid(_:type:)`).
    public var validCount: Int {
        let type = self.type
        return values.reduce(0) { $0 + (Self.isValid($1, type: type) ? 1 : 0) }
    }

    /// Valid values / all values.
    public var validFraction: Double { Double(validCount) / Double(values.count) }

    /// The smallest rectangle holding every valid value, nil when none is valid
    /// (for a wide-reference map: the region the tele overlap covers).
    public var validBoundingBox: PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let w = size.width, type = self.type
        values.withUnsafeBufferPointer { v in
            for y in 0..<size.height {
                let row = y * w
                for x in 0..<w where Self.isValid(v[row + x], type: type) {
                    if x < minX { minX = x }
                    if x > maxX { maxX = x }
                    if y < minY { minY = y }
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The same map with other values (same size and properties).
    public func with(values newValues: [Float]) throws -> DepthMap {
        var copy = self
        guard newValues.count == values.count else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "\(newValues.count) values for a \(size) map (expected \(values.count))")
        }
        copy.values = newValues
        return copy
    }

    // MARK: Images

    /// A map over a 1-channel float32 or float16 `Image` (values as stored,
    /// NaN = missing); other elements or channel counts are an error.
    public init(
        image: Image, type: DepthDataType, accuracy: DepthAccuracy = .relative, isFiltered: Bool = false,
        quality: DepthQuality = .high, intrinsics: Intrinsics? = nil, pixelsPerInverseMetre: Double? = nil,
        referenceCamera: String? = nil
    ) throws {
        guard image.channels == 1, image.element == .float32 || image.element == .float16 else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "expected a 1-channel float32 or float16 image, got a \(image.description)")
        }
        try self.init(size: PixelSize(width: image.width, height: image.height),
                      values: try image.converted(to: .float32).pixels(as: Float.self), type: type,
                      accuracy: accuracy, isFiltered: isFiltered, quality: quality, intrinsics: intrinsics,
                      pixelsPerInverseMetre: pixelsPerInverseMetre, referenceCamera: referenceCamera)
    }

    /// The values as a 1-channel image: float32, or float16 (each value
    /// rounded to the nearest half; above 65504 becomes +inf).
    public func image(precision: DepthPrecision = .float32) -> Image {
        // The size was validated at init, so the image cannot be rejected.
        switch precision {
        case .float32: return try! Image(width: size.width, height: size.height, channels: 1, pixels: values)
        case .float16: return try! Image(width: size.width, height: size.height, channels: 1, pixels: values.map { Float16($0) })
        }
    }

    /// The values rounded through `precision` (identity for float32): what a
    /// reader gets back from a file of that precision.
    public func rounded(to precision: DepthPrecision) -> DepthMap {
        guard precision == .float16 else { return self }
        var copy = self
        copy.values = values.map { Float(Float16($0)) }
        return copy
    }
}
