import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// ARKit's confidence levels for a depth pixel.
public enum ConfidenceLevel: UInt8, CaseIterable, Codable, Sendable, Comparable {
    case low = 0, medium = 1, high = 2

    public static func < (a: ConfidenceLevel, b: ConfidenceLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Per-pixel confidence in [0, 1] aligned with a `DepthMap` (same size,
/// row-major), with ARKit-style levels.
///
/// Levels: c < `mediumThreshold` (0.35) -> low (0); c < `highThreshold` (0.7)
/// -> medium (1); otherwise high (2). NaN counts as 0. The thresholds are a
/// dualcam convention (ARKit does not publish its own), chosen so that "high"
/// means the measurement passed every check with margin and "low" means it is
/// mostly a guess (filled or far from any sample).
///
/// Encodings: float (the values as is), 8-bit (round(255 c), so 0..255), or
/// the level image (uint8 0/1/2).
public struct ConfidenceMap: Equatable, Sendable {
    public static let mediumThreshold: Float = 0.35
    public static let highThreshold: Float = 0.7

    public var size: PixelSize
    /// Values in [0, 1], row-major.
    public var values: [Float]

    /// Values are clamped into [0, 1] (NaN becomes 0); the count must match `size`.
    public init(size: PixelSize, values: [Float]) throws {
        guard size.width > 0, size.height > 0, size.width <= Image.maximumSide, size.height <= Image.maximumSide,
              values.count == size.width * size.height else {
            throw DualcamError.invalidValue(
                name: "confidence map", reason: "\(values.count) values for a \(size) map (expected \(max(0, size.width * size.height)))")
        }
        self.size = size
        self.values = values.map { $0.isNaN ? 0 : min(max($0, 0), 1) }
    }

    /// The level of one confidence value.
    @inlinable
    public static func level(_ confidence: Float) -> ConfidenceLevel {
        if !(confidence >= mediumThreshold) { return .low }
        return confidence < highThreshold ? .medium : .high
    }

    /// The level of every pixel.
    public var levels: [ConfidenceLevel] { values.map(Self.level) }

    /// How many pixels are at each level.
    public var levelCounts: [ConfidenceLevel: Int] {
        var counts: [ConfidenceLevel: Int] = [.low: 0, .medium: 0, .high: 0]
        for value in values { counts[Self.level(value), default: 0] += 1 }
        return counts
    }

    /// How a confidence map is stored in an image.
    public enum Encoding: String, CaseIterable, Sendable {
        /// float32 values in [0, 1].
        case float
        /// uint8 round(255 c).
        case eightBit
        /// uint8 levels 0 (low), 1 (medium), 2 (high).
        case levels
    }

    /// The map as a 1-channel image in `encoding`.
    public func image(_ encoding: Encoding) -> Image {
        let w = size.width, h = size.height
        // The size was validated at init.
        switch encoding {
        case .float: return try! Image(width: w, height: h, channels: 1, pixels: values)
        case .eightBit: return try! Image(width: w, height: h, channels: 1, pixels: values.map { UInt8(($0 * 255).rounded()) })
        case .levels: return try! Image(width: w, height: h, channels: 1, pixels: values.map { Self.level($0).rawValue })
        }
    }

    /// A map read from an image: float32/float16 as values, uint8 as c / 255,
    /// uint16 as c / 65535. (A level image cannot be told from an 8-bit map;
    /// read levels with `levels(from:)`.)
    public init(image: Image) throws {
        guard image.channels == 1 else {
            throw DualcamError.invalidValue(name: "confidence map", reason: "expected a 1-channel image, got a \(image.description)")
        }
        let scale: Double
        switch image.element {
        case .uint8: scale = 1.0 / 255
        case .uint16: scale = 1.0 / 65535
        case .float16, .float32: scale = 1
        }
        let values = image.converted(to: .float32, scale: scale).doubleValues().map { Float($0) }
        try self.init(size: PixelSize(width: image.width, height: image.height), values: values)
    }

    /// The levels of a uint8 level image (values 0, 1, 2; others are an error).
    public static func levels(from image: Image) throws -> [ConfidenceLevel] {
        guard image.channels == 1, image.element == .uint8 else {
            throw DualcamError.invalidValue(name: "confidence levels", reason: "expected a 1-channel uint8 image, got a \(image.description)")
        }
        return try image.pixels(as: UInt8.self).map { code in
            guard let level = ConfidenceLevel(rawValue: code) else {
                throw DualcamError.invalidValue(name: "confidence levels", reason: "value \(code) (expected 0, 1 or 2)")
            }
            return level
        }
    }

    /// Writes the map atomically: `.png` stores `eightBit` (or `levels` when
    /// asked), `.pfm`/`.npy`/`.tiff`/`.exr` store float (or levels as uint8 in
    /// .npy/.tiff). The format follows the extension; an encoding the format
    /// cannot hold is an error naming the file.
    public func write(to url: URL, encoding: Encoding? = nil) throws {
        let format = try ImageFormat.of(url)
        let chosen = encoding ?? (format == .png || format == .jpeg ? .eightBit : .float)
        try ImageIO.write(image(chosen), to: url)
    }

    /// Reads a map written by `write` with the float or 8-bit encoding.
    public static func read(_ url: URL) throws -> ConfidenceMap {
        let image = try ImageIO.read(url)
        do { return try ConfidenceMap(image: image) } catch let error as DualcamError { throw error.located(at: url.path) }
    }
}
