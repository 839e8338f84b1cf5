import DualcamSupport

/// What the values of a `DepthMap` mean (docs/conventions.md, "Depth data").
///
/// - `depth`: distance along the reference camera's optical axis, Z, in metres.
/// - `disparity`: normalized inverse depth D = 1 / Z in 1/m (AVFoundation's
///   "disparity": pixel shift / (f_px * B_m)).
/// - `pixels`: rectified pixel disparity d_px = f_px * B_m / Z = k * D, where
///   k = f_px * B_m is `DepthMap.pixelsPerInverseMetre` at the map's resolution.
///
/// Conversions between the three are reciprocals or products with k (see
/// `DepthMap.converted(to:)`).
public enum DepthDataType: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case depth, disparity, pixels

    /// The unit of the values: "m", "1/m" or "px".
    public var unit: String {
        switch self {
        case .depth: return "m"
        case .disparity: return "1/m"
        case .pixels: return "px"
        }
    }

    public var description: String { rawValue }

    /// Parses `depth`, `disparity` or `pixels` (case-insensitive); the error
    /// names `flag` (e.g. `--type`) and lists the accepted values.
    public init(parsing text: String, flag: String = "--type") throws {
        guard let value = DepthDataType(rawValue: text.lowercased()) else {
            throw DualcamError.invalidValue(
                name: flag, reason: "'\(text)' is not a depth data type (expected depth, disparity or pixels)")
        }
        self = value
    }
}

/// Whether the metric scale of a depth map can be trusted.
///
/// - `relative`: ordering is right but the scale (and, for stereo, a constant
///   disparity offset) may be off: what a dual camera delivers.
/// - `absolute`: physically accurate metres (time of flight, LiDAR, fusion with them).
public enum DepthAccuracy: String, CaseIterable, Codable, Sendable {
    case relative, absolute
}

/// Storage precision of the float values in a file: IEEE half (16) or single (32).
public enum DepthPrecision: Int, CaseIterable, Codable, Sendable {
    case float16 = 16
    case float32 = 32

    /// Parses `16` or `32`; the error names `flag` (e.g. `--precision`).
    public init(parsing text: String, flag: String = "--precision") throws {
        guard let bits = Int(text), let value = DepthPrecision(rawValue: bits) else {
            throw DualcamError.invalidValue(name: flag, reason: "'\(text)' is not a precision (expected 16 or 32)")
        }
        self = value
    }

    /// `value` rounded to this precision (float16 rounds to nearest half,
    /// saturating to +-inf above 65504 as IEEE rounding does; NaN stays NaN).
    @inlinable
    public func rounded(_ value: Float) -> Float {
        self == .float16 ? Float(Float16(value)) : value
    }
}

/// Overall quality of a depth map (AVFoundation): `low` for few features
/// and many holes before filtering, `high` for a well-textured scene.
public enum DepthQuality: String, CaseIterable, Codable, Sendable {
    case low, high
}
