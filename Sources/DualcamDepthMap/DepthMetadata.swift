import DualcamGeometry
import DualcamSupport
import Foundation

/// The JSON sidecar describing a written depth map, like a depth-data object.
///
/// Keys (stable, snake_case; every key is always present, `null` when unknown):
/// - `format_version`: 1.
/// - `type`: "depth" | "disparity" | "pixels"; `units`: "m" | "1/m" | "px".
/// - `precision`: 16 or 32 (bits per stored value); `encoding`: how the file
///   stores it ("float32", "float16", "float16_in_float32", "uint16_mm",
///   "uint16_kitti256"; null when no file format was given).
/// - `accuracy`: "relative" | "absolute"; `filtered`: bool; `quality`: "low" | "high".
/// - `width`, `height`: the map's size in pixels.
/// - `reference_camera`: name of the camera the map is aligned to (e.g. "tele").
/// - `intrinsics`: {`fx`, `fy`, `cx`, `cy`, `skew`} of the reference camera at
///   the map's size, in pixels.
/// - `pixels_per_inverse_metre`: k = f_px * B_m at the map's resolution
///   (pixel disparity = k / depth).
/// - `valid_fraction`: valid pixels / all pixels.
/// - `covered_region`: {`x`, `y`, `width`, `height`}: the pixel rectangle the
///   valid values cover (for a wide-reference map, the tele overlap); null
///   when no pixel is valid.
/// - `value_range`: {`min`, `max`} of the valid values in `units`.
/// - `extra`: free-form object (fit results, timings, ...), `{}` when none.
public struct DepthMetadata: Equatable, Sendable, Codable {
    public struct IntrinsicsAtSize: Equatable, Sendable, Codable {
        public var fx: Double, fy: Double, cx: Double, cy: Double, skew: Double
        public init(fx: Double, fy: Double, cx: Double, cy: Double, skew: Double = 0) {
            self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy; self.skew = skew
        }
    }

    public struct ValueRange: Equatable, Sendable, Codable {
        public var min: Double, max: Double
        public init(min: Double, max: Double) { self.min = min; self.max = max }
    }

    public static let currentFormatVersion = 1

    public var formatVersion: Int
    public var type: DepthDataType
    public var units: String
    public var precision: DepthPrecision
    public var encoding: String?
    public var accuracy: DepthAccuracy
    public var filtered: Bool
    public var quality: DepthQuality
    public var width: Int
    public var height: Int
    public var referenceCamera: String?
    public var intrinsics: IntrinsicsAtSize?
    public var pixelsPerInverseMetre: Double?
    public var validFraction: Double
    public var coveredRegion: PixelRect?
    public var valueRange: ValueRange?
    public var extra: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version", type, units, precision, encoding, accuracy, filtered, quality,
             width, height, referenceCamera = "reference_camera", intrinsics,
             pixelsPerInverseMetre = "pixels_per_inverse_metre", validFraction = "valid_fraction",
             coveredRegion = "covered_region", valueRange = "value_range", extra
    }

    /// The metadata of `map` as stored at `precision` in `format` (nil: no
    /// file). `coveredRegion` defaults to the valid values' bounding box.
    public init(map: DepthMap, precision: DepthPrecision, format: DepthFileFormat? = nil,
                coveredRegion: PixelRect?? = .none, extra: [String: JSONValue] = [:]) {
        formatVersion = Self.currentFormatVersion
        type = map.type
        units = map.type.unit
        self.precision = format == .png ? .float16 : precision  // PNG codes are 16-bit
        encoding = format?.encoding(for: map.type, precision: precision)
        accuracy = map.accuracy
        filtered = map.isFiltered
        quality = map.quality
        width = map.width
        height = map.height
        referenceCamera = map.referenceCamera
        intrinsics = map.intrinsics.map { IntrinsicsAtSize(fx: $0.fx, fy: $0.fy, cx: $0.cx, cy: $0.cy, skew: $0.skew) }
        pixelsPerInverseMetre = map.pixelsPerInverseMetre
        let valid = map.values.filter { DepthMap.isValid($0, type: map.type) }
        validFraction = Double(valid.count) / Double(map.values.count)
        self.coveredRegion = coveredRegion ?? map.validBoundingBox
        valueRange = valid.isEmpty ? nil : ValueRange(min: Double(valid.min()!), max: Double(valid.max()!))
        self.extra = extra
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        type = try c.decode(DepthDataType.self, forKey: .type)
        units = try c.decode(String.self, forKey: .units)
        precision = try c.decode(DepthPrecision.self, forKey: .precision)
        encoding = try c.decodeIfPresent(String.self, forKey: .encoding)
        accuracy = try c.decode(DepthAccuracy.self, forKey: .accuracy)
        filtered = try c.decode(Bool.self, forKey: .filtered)
        quality = try c.decode(DepthQuality.self, forKey: .quality)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        referenceCamera = try c.decodeIfPresent(String.self, forKey: .referenceCamera)
        intrinsics = try c.decodeIfPresent(IntrinsicsAtSize.self, forKey: .intrinsics)
        pixelsPerInverseMetre = try c.decodeIfPresent(Double.self, forKey: .pixelsPerInverseMetre)
        validFraction = try c.decode(Double.self, forKey: .validFraction)
        coveredRegion = try c.decodeIfPresent(PixelRect.self, forKey: .coveredRegion)
        valueRange = try c.decodeIfPresent(ValueRange.self, forKey: .valueRange)
        extra = try c.decodeIfPresent([String: JSONValue].self, forKey: .extra) ?? [:]
    }

    public func encode(to encoder: Encoder) throws {
        // `encode` (not `encodeIfPresent`) so that absent values appear as null.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(formatVersion, forKey: .formatVersion)
        try c.encode(type, forKey: .type)
        try c.encode(units, forKey: .units)
        try c.encode(precision, forKey: .precision)
        try c.encode(encoding, forKey: .encoding)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encode(filtered, forKey: .filtered)
        try c.encode(quality, forKey: .quality)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(referenceCamera, forKey: .referenceCamera)
        try c.encode(intrinsics, forKey: .intrinsics)
        try c.encode(pixelsPerInverseMetre.flatMap { $0.isFinite ? $0 : nil }, forKey: .pixelsPerInverseMetre)
        try c.encode(validFraction.isFinite ? validFraction : 0, forKey: .validFraction)
        try c.encode(coveredRegion, forKey: .coveredRegion)
        try c.encode(valueRange.flatMap { $0.min.isFinite && $0.max.isFinite ? $0 : nil }, forKey: .valueRange)
        try c.encode(extra, forKey: .extra)
    }

    /// The intrinsics as `Intrinsics` at (width, height), nil when absent.
    public var referenceIntrinsics: Intrinsics? {
        intrinsics.flatMap { try? Intrinsics(fx: $0.fx, fy: $0.fy, skew: $0.skew, cx: $0.cx, cy: $0.cy,
                                            referenceSize: PixelSize(width: width, height: height)) }
    }

    /// Pretty-printed JSON with sorted keys, ending in a newline.
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Writes the JSON atomically.
    public func write(to url: URL) throws {
        try AtomicFile.write(try jsonString(), to: url)
    }

    /// Reads a sidecar; malformed JSON or missing keys are a one-line `.format` error.
    public static func read(_ url: URL) throws -> DepthMetadata {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw DualcamError.io(path: url.path, reason: "no such file")
        }
        let data = try FileContents.read(url)
        do {
            return try JSONDecoder().decode(DepthMetadata.self, from: data)
        } catch let error as DecodingError {
            throw DualcamError.format(path: url.path, reason: "not a depth metadata JSON: \(Self.describe(error))")
        } catch {
            throw DualcamError.format(path: url.path, reason: "not a depth metadata JSON: \(error.localizedDescription)")
        }
    }

    /// The sidecar path for a depth file: the file name with ".json" appended
    /// (`depth.pfm` -> `depth.pfm.json`), so maps of one name in several formats do not collide.
    public static func sidecarURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".json")
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .keyNotFound(key, _): return "missing key '\(key.stringValue)'"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "bad value at '\(path)'"
        @unknown default: return "\(error)"
        }
    }
}
