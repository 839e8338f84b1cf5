import DualcamSupport
import Foundation

/// Depth or disparity maps stored as single-channel 16-bit PNGs, the
/// convention of most RGB-D and driving datasets. 0 means "no value".
///
/// - `.millimetres`: value = round(depth in metres * 1000), so 1 mm steps up
///   to 65.535 m (TUM RGB-D uses 5000 per metre; this type does not).
/// - `.kitti256`: value = round(x * 256) where x is a disparity in pixels
///   (KITTI disparity maps) or a depth in metres (KITTI depth completion);
///   1/256 steps up to 255.996.
///
/// Writing stores 0 for NaN, infinities, values <= 0 and values whose
/// quantized code falls outside 1...65535 (too small to be non-zero or too
/// large): these are counted, never clamped, because a clamped depth would be
/// a wrong depth that looks valid. Reading returns float32 with 0 -> NaN and
/// code c -> c / 1000 or c / 256 (the quantization error is at most half a step).
public enum DepthPNG {
    public enum Convention: Sendable, CaseIterable {
        case millimetres, kitti256

        /// Codes per unit (1000 per metre, 256 per pixel or metre).
        public var scale: Double {
            switch self {
            case .millimetres: return 1000
            case .kitti256: return 256
            }
        }
    }

    /// How many pixels were written as valid codes and why others became 0.
    public struct WriteSummary: Equatable, Sendable {
        /// Pixels stored with a non-zero code.
        public var valid = 0
        /// NaN, infinite or <= 0 values (stored as 0, the usual "unknown").
        public var invalid = 0
        /// Positive finite values whose code is 0 or above 65535 (stored as 0).
        public var outOfRange = 0
        /// Of `invalid`, the NaNs (already "no value"; the others were values).
        public var notANumber = 0
        /// Values that were not NaN but are stored as 0 (no value): infinities,
        /// values <= 0 and out-of-range values; what a user should be told about.
        public var lostValues: Int { invalid - notANumber + outOfRange }
    }

    /// Writes a 1-channel float32 depth map in metres atomically as a 16-bit PNG.
    @discardableResult
    public static func write(depthMetres image: Image, to url: URL, convention: Convention = .millimetres) throws
        -> WriteSummary {
        try writeQuantized(image, to: url, convention: convention)
    }

    /// Writes a 1-channel float32 disparity map in pixels in KITTI's x256 convention.
    @discardableResult
    public static func write(disparityPixels image: Image, to url: URL) throws -> WriteSummary {
        try writeQuantized(image, to: url, convention: .kitti256)
    }

    /// Reads a 16-bit single-channel PNG into a float32 map (metres for
    /// `.millimetres`; the stored quantity for `.kitti256`), 0 becoming NaN.
    public static func read(_ url: URL, convention: Convention = .millimetres) throws -> Image {
        let stored = try ImageIO.read(url)
        guard stored.element == .uint16, stored.channels == 1 else {
            throw DualcamError.format(
                path: url.path, reason: "expected a 16-bit single-channel depth PNG, found a \(stored.description)")
        }
        return try dequantize(stored, convention: convention)
    }

    /// The uint16 codes for a float32 map, with the summary of what was dropped.
    public static func quantize(_ image: Image, convention: Convention) throws -> (codes: Image, summary: WriteSummary) {
        guard image.element == .float32, image.channels == 1 else {
            throw DualcamError.invalidValue(
                name: "depth map", reason: "expected a 1-channel float32 image, got a \(image.description)")
        }
        let values = try image.pixels(as: Float.self)
        var summary = WriteSummary()
        let scale = convention.scale
        let codes = values.map { value -> UInt16 in
            guard value.isFinite, value > 0 else {
                summary.invalid += 1
                if value.isNaN { summary.notANumber += 1 }
                return 0
            }
            let code = (Double(value) * scale).rounded()
            guard code >= 1, code <= 65535 else {
                summary.outOfRange += 1
                return 0
            }
            summary.valid += 1
            return UInt16(code)
        }
        return (try Image(width: image.width, height: image.height, channels: 1, pixels: codes), summary)
    }

    /// The float32 map for uint16 codes (0 -> NaN).
    public static func dequantize(_ codes: Image, convention: Convention) throws -> Image {
        let scale = convention.scale
        let values = try codes.pixels(as: UInt16.self).map { $0 == 0 ? Float.nan : Float(Double($0) / scale) }
        return try Image(width: codes.width, height: codes.height, channels: 1, pixels: values)
    }

    private static func writeQuantized(_ image: Image, to url: URL, convention: Convention) throws -> WriteSummary {
        guard ImageFormat(pathExtension: url.pathExtension) == .png else {
            throw DualcamError.format(path: url.path, reason: "depth maps are written as .png files")
        }
        let (codes, summary) = try FileAccess.at(url.path) { try quantize(image, convention: convention) }
        try ImageIO.write(codes, to: url)
        return summary
    }
}
