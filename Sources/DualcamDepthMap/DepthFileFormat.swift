import DualcamImaging
import DualcamSupport
import Foundation

/// The file formats depth maps are written in, chosen by extension.
///
/// - `pfm`: float32 (Middlebury); a float16 request stores the values rounded
///   through Float16 (PFM has no half type), so a reader sees exactly the
///   half-precision values.
/// - `npy`: `<f4` for float32, `<f2` for float16.
/// - `png`: 16-bit, 0 = invalid. `depth` as millimetres (round(Z * 1000),
///   1 mm steps up to 65.535 m); `pixels` as KITTI's round(d_px * 256) (1/256
///   px steps up to 255.996 px). `disparity` (1/m) has no standard PNG
///   convention and is refused (write depth or pixels, or use .pfm/.npy/.exr).
///   Precision does not apply (always uint16). NaN, +-inf, values <= 0 and
///   values outside the code range are stored as 0 and counted.
/// - `exr`: OpenEXR float (32) or half (16), when OpenCV's build can write it.
public enum DepthFileFormat: String, CaseIterable, Sendable {
    case pfm, npy, png, exr

    /// The format of `url`'s extension, or a one-line `.format` error naming the file.
    public static func of(_ url: URL) throws -> DepthFileFormat {
        guard let format = DepthFileFormat(rawValue: url.pathExtension.lowercased()) else {
            let ext = url.pathExtension.isEmpty ? "no extension" : "extension '.\(url.pathExtension)'"
            throw DualcamError.format(
                path: url.path, reason: "\(ext) is not a depth map format (expected .pfm, .npy, .png or .exr)")
        }
        return format
    }

    /// Whether this build can write the format (false only for EXR without an
    /// OpenEXR encoder in OpenCV).
    public var isWritable: Bool { self == .exr ? ImageIO.canWrite(.exr) : true }

    /// How values of `type` at `precision` are stored: "float32", "float16",
    /// "float16_in_float32" (PFM), "uint16_mm" or "uint16_kitti256" (PNG).
    public func encoding(for type: DepthDataType, precision: DepthPrecision) -> String {
        switch self {
        case .png: return type == .pixels ? "uint16_kitti256" : "uint16_mm"
        case .pfm: return precision == .float16 ? "float16_in_float32" : "float32"
        case .npy, .exr: return precision == .float16 ? "float16" : "float32"
        }
    }
}

/// What a depth write stored.
public struct DepthWriteSummary: Equatable, Sendable {
    public var format: DepthFileFormat
    /// See `DepthFileFormat.encoding(for:precision:)`.
    public var encoding: String
    /// Pixels stored as valid values.
    public var valid: Int
    /// Pixels stored as missing (NaN in float files, 0 in PNG).
    public var invalid: Int
    /// PNG only: valid, positive values whose code fell outside 1...65535 (stored as 0).
    public var outOfRange: Int
}

/// Writes `DepthMap`s atomically (nothing is left behind on failure) in the
/// format of the file's extension (see `DepthFileFormat`).
public enum DepthMapWriter {
    @discardableResult
    public static func write(_ map: DepthMap, to url: URL, precision: DepthPrecision = .float32) throws -> DepthWriteSummary {
        let format = try DepthFileFormat.of(url)
        let encoding = format.encoding(for: map.type, precision: precision)
        switch format {
        case .png:
            let convention: DepthPNG.Convention
            switch map.type {
            case .depth: convention = .millimetres
            case .pixels: convention = .kitti256
            case .disparity:
                throw DualcamError.format(
                    path: url.path, reason: "16-bit PNG stores depth (mm) or pixel disparity (x256), not normalized disparity "
                        + "in 1/m (use .pfm, .npy or .exr, or type depth or pixels)")
            }
            let (codes, summary) = try DepthPNG.quantize(map.image(), convention: convention)
            try ImageIO.write(codes, to: url)
            return DepthWriteSummary(format: format, encoding: encoding, valid: summary.valid,
                                     invalid: summary.invalid, outOfRange: summary.outOfRange)
        case .pfm:
            try PFM.write(map.rounded(to: precision).image(), to: url)
        case .npy:
            try NPY.write(map.image(precision: precision), to: url)
        case .exr:
            guard format.isWritable else {
                throw DualcamError.format(path: url.path, reason: "this OpenCV build cannot write OpenEXR files (use .pfm or .npy)")
            }
            try ImageIO.write(map.image(), to: url, parameters: [.exrHalf(precision == .float16)])
        }
        let stored = map.rounded(to: precision)
        let valid = stored.validCount
        return DepthWriteSummary(format: format, encoding: encoding, valid: valid, invalid: map.values.count - valid, outOfRange: 0)
    }

    /// The map as a reader gets it back from a `format` file at `precision`:
    /// float16-rounded values, or PNG's quantized codes decoded (dropped
    /// values NaN). Errors as `write` (e.g. normalized disparity as PNG).
    public static func stored(_ map: DepthMap, format: DepthFileFormat, precision: DepthPrecision) throws -> DepthMap {
        guard format == .png else { return map.rounded(to: precision) }
        let convention: DepthPNG.Convention
        switch map.type {
        case .depth: convention = .millimetres
        case .pixels: convention = .kitti256
        case .disparity:
            throw DualcamError.invalidValue(name: "depth map", reason: "16-bit PNG cannot store normalized disparity (1/m)")
        }
        let codes = try DepthPNG.quantize(map.image(), convention: convention).codes
        return try map.with(values: try DepthPNG.dequantize(codes, convention: convention).pixels(as: Float.self))
    }
}

/// Reads depth maps written by `DepthMapWriter` or by other tools in the
/// same formats.
///
/// The file does not say what its values are, so the caller gives `type`
/// (or uses `read(_:)`, which takes it from the metadata sidecar). Values
/// come back as float32 with NaN for missing:
/// - PNG: 0 -> NaN; `depth` from millimetres, `pixels` from x256 codes;
///   `disparity` is refused (no PNG convention).
/// - float files: `depth` values <= 0 become NaN (0 marks a missing sample in
///   sparse depth images), +inf is kept (a point at infinity); for
///   `disparity` and `pixels`, +-inf become NaN (Middlebury's "unknown").
/// Files must hold one channel; other layouts are a one-line error naming the file.
public enum DepthMapReader {
    public static func read(_ url: URL, type: DepthDataType, pixelsPerInverseMetre: Double? = nil) throws -> DepthMap {
        let format = try DepthFileFormat.of(url)
        let image = try ImageIO.read(url)
        var values: [Float]
        switch format {
        case .png:
            guard image.element == .uint16, image.channels == 1 else {
                throw DualcamError.format(path: url.path, reason: "expected a 16-bit single-channel depth PNG, found a \(image.description)")
            }
            switch type {
            case .depth: values = try DepthPNG.dequantize(image, convention: .millimetres).pixels(as: Float.self)
            case .pixels: values = try DepthPNG.dequantize(image, convention: .kitti256).pixels(as: Float.self)
            case .disparity:
                throw DualcamError.format(path: url.path, reason: "16-bit PNG holds depth (mm) or pixel disparity (x256), not normalized disparity in 1/m")
            }
        case .pfm, .npy, .exr:
            guard image.channels == 1, image.element == .float32 || image.element == .float16 else {
                throw DualcamError.format(path: url.path, reason: "expected a 1-channel float depth map, found a \(image.description)")
            }
            values = try image.converted(to: .float32).pixels(as: Float.self)
            if type == .depth {
                for i in values.indices where values[i] <= 0 { values[i] = .nan }
            } else {
                for i in values.indices where values[i].isInfinite { values[i] = .nan }
            }
        }
        do {
            return try DepthMap(size: .init(width: image.width, height: image.height), values: values, type: type,
                                pixelsPerInverseMetre: pixelsPerInverseMetre)
        } catch let error as DualcamError {
            throw error.located(at: url.path)
        }
    }
}
