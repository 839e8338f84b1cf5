import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// How a ground-truth file stores its values (`dualcam eval --gt-format`).
/// - `disparity`: pixel disparity. PFM/NPY floats with +-inf or NaN unknown
///   (Middlebury's `disp0GT.pfm`); 8- or 16-bit PNG as value / scale with 0
///   unknown (Middlebury's older 8-bit GT such as `aloeGT.png`, scale 1;
///   scale 4 or 8 for quarter-size sets; KITTI's disparity is scale 256).
/// - `kittiDisparity`: KITTI's uint16 PNG, disparity = value / 256, 0 unknown.
/// - `depth`: metres in PFM/NPY (<= 0 or NaN unknown), or millimetres in a
///   16-bit PNG (0 unknown), as dualcam and most depth SDKs write.
/// - `kittiDepth`: KITTI's uint16 PNG, depth = value / 256 m, 0 unknown.
/// - `auto`: a map with a dualcam sidecar (`FILE.json`) is read as the
///   sidecar says; an 8-bit PNG is disparity / scale; a PFM or NPY is
///   depth when its name contains "depth" (`wide.depth.pfm` from `synth`)
///   and disparity when it contains "disp" (`disp0GT.pfm`); anything else,
///   and any 16-bit PNG (mm, KITTI depth or KITTI disparity), is ambiguous
///   and must be named.
public enum GroundTruthFormat: String, CaseIterable, Sendable {
    case auto, disparity, depth
    case kittiDisparity = "kitti-disparity", kittiDepth = "kitti-depth"
}

/// Reads the two sides of an evaluation: ground truth in the formats of
/// `GroundTruthFormat`, and maps to score (anything `dualcam depth` or
/// `fuse` writes, with or without its sidecar, or another tool's disparity).
/// Each result comes with a short description of how the file was read.
public enum EvaluationMapReader {
    public static func readGroundTruth(_ url: URL, format: GroundTruthFormat, disparityScale: Double = 1) throws
        -> (map: EvaluationMap, description: String) {
        guard disparityScale.isFinite, disparityScale > 0 else {
            throw DualcamError.invalidValue(name: "--gt-scale \(disparityScale)", reason: "expected a positive number (stored value / scale = disparity)")
        }
        let fileFormat = try ImageFormat.of(url)
        var format = format
        if format == .auto {
            if FileManager.default.fileExists(atPath: DepthMetadata.sidecarURL(for: url).path) {
                let (map, metadata) = try DepthMapReader.read(url)
                return (try EvaluationMap(map), "dualcam \(metadata.type.rawValue) map (\(metadata.type.unit), from its sidecar)")
            }
        }
        let image = try ImageIO.read(url)
        if format == .auto { format = try guessFormat(url, fileFormat: fileFormat, image: image) }
        guard image.channels == 1 else {
            throw DualcamError.format(path: url.path, reason: "ground truth must have one channel, found a \(image.description)")
        }
        let size = PixelSize(width: image.width, height: image.height)
        switch format {
        case .auto:
            preconditionFailure("resolved above")
        case .disparity, .kittiDisparity:
            let scale = format == .kittiDisparity ? 256 : disparityScale
            if format == .kittiDisparity { try requirePNG16(image, url, "KITTI disparity") }
            let values = try disparityValues(image, scale: scale)
            let isFloat = image.element == .float32 || image.element == .float16
            let how = isFloat ? "pixel disparity (inf/NaN unknown)"
                : "pixel disparity = value / \(formatNumber(scale)) (0 unknown)"
            return (try EvaluationMap(size: size, values: values, kind: .disparityPixels), how)
        case .depth:
            if fileFormat == .png {
                try requirePNG16(image, url, "depth in millimetres")
                let values = try image.pixels(as: UInt16.self).map { $0 == 0 ? Float.nan : Float($0) / 1000 }
                return (try EvaluationMap(size: size, values: values, kind: .depthMetres), "depth = value / 1000 m (0 unknown)")
            }
            let map = try DepthMapReader.read(url, type: .depth)
            return (try EvaluationMap(map), "depth in metres (<= 0 or NaN unknown)")
        case .kittiDepth:
            try requirePNG16(image, url, "KITTI depth")
            let values = try image.pixels(as: UInt16.self).map { $0 == 0 ? Float.nan : Float($0) / 256 }
            return (try EvaluationMap(size: size, values: values, kind: .depthMetres), "depth = value / 256 m (0 unknown)")
        }
    }

    /// A map to score: read with its sidecar when `FILE.json` exists (a
    /// given `type` must then agree with it), else as `type` says (required:
    /// a bare file does not say what it holds). `.png` is uint16, depth in
    /// mm or pixel disparity x256 (KITTI), as `DepthMapReader` reads it.
    public static func readEstimate(_ url: URL, type: DepthDataType?, flag: String = "--map-type") throws
        -> (map: EvaluationMap, description: String) {
        if FileManager.default.fileExists(atPath: DepthMetadata.sidecarURL(for: url).path) {
            let (map, metadata) = try DepthMapReader.read(url)
            if let type, type != metadata.type {
                throw DualcamError.invalidValue(
                    name: "\(flag) \(type.rawValue)", reason: "\(url.lastPathComponent)'s sidecar says it holds \(metadata.type.rawValue)")
            }
            return (try EvaluationMap(map), "dualcam \(metadata.type.rawValue) map, \(metadata.filtered ? "filtered" : "unfiltered")")
        }
        guard let type else {
            throw DualcamError.format(
                path: url.path, reason: "has no sidecar (\(url.lastPathComponent).json) saying what it holds; give \(flag) depth, disparity or pixels")
        }
        return (try EvaluationMap(try DepthMapReader.read(url, type: type)), "\(type.rawValue) (\(type.unit), as \(flag) says)")
    }

    private static func guessFormat(_ url: URL, fileFormat: ImageFormat, image: Image) throws -> GroundTruthFormat {
        let name = url.lastPathComponent.lowercased()
        switch fileFormat {
        case .png where image.element == .uint8:
            return .disparity
        case .png:
            throw DualcamError.format(
                path: url.path, reason: "a 16-bit PNG may hold KITTI disparity, KITTI depth or millimetres; give --gt-format kitti-disparity, kitti-depth or depth")
        case .pfm, .npy, .exr, .tiff:
            if name.contains("depth") { return .depth }
            if name.contains("disp") { return .disparity }
            fallthrough
        default:
            throw DualcamError.format(
                path: url.path, reason: "cannot tell whether this \(fileFormat.name) ground truth holds depth or disparity; give --gt-format depth or disparity")
        }
    }

    private static func disparityValues(_ image: Image, scale: Double) throws -> [Float] {
        switch image.element {
        case .uint8: return try image.pixels(as: UInt8.self).map { $0 == 0 ? .nan : Float(Double($0) / scale) }
        case .uint16: return try image.pixels(as: UInt16.self).map { $0 == 0 ? .nan : Float(Double($0) / scale) }
        case .float32, .float16:
            return try image.converted(to: .float32).pixels(as: Float.self).map { $0.isFinite ? $0 : .nan }
        }
    }

    private static func requirePNG16(_ image: Image, _ url: URL, _ what: String) throws {
        guard image.element == .uint16 else {
            throw DualcamError.format(path: url.path, reason: "\(what) must be a 16-bit PNG, found a \(image.description)")
        }
    }

    private static func formatNumber(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
}
