import DualcamSupport
import Foundation

/// The image file formats `ImageIO` reads and writes, chosen by extension
/// (case-insensitive), with what each can store.
public enum ImageFormat: String, CaseIterable, Sendable {
    /// 8- or 16-bit, 1/3/4 channels, lossless (OpenCV).
    case png
    /// 8-bit, 1 or 3 channels, lossy (OpenCV).
    case jpeg
    /// 8/16-bit or float32, 1/3/4 channels (OpenCV).
    case tiff
    /// float32, 1/3/4 channels (OpenCV, when its build can write EXR).
    case exr
    /// float32, 1 or 3 channels (pure Swift, see `PFM`).
    case pfm
    /// uint8/uint16/float16/float32, 1/3/4 channels (pure Swift, see `NPY`).
    case npy

    /// The format for a file extension such as "png", "JPG" or "tiff".
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "tif", "tiff": self = .tiff
        case "exr": self = .exr
        case "pfm": self = .pfm
        case "npy": self = .npy
        default: return nil
        }
    }

    /// The format of `url`, or `.format(path:...)` naming the supported extensions.
    public static func of(_ url: URL) throws -> ImageFormat {
        guard let format = ImageFormat(pathExtension: url.pathExtension) else {
            let ext = url.pathExtension.isEmpty ? "no extension" : "extension '.\(url.pathExtension)'"
            throw DualcamError.format(
                path: url.path, reason: "\(ext) is not a supported image format "
                    + "(expected .png, .jpg, .jpeg, .tif, .tiff, .exr, .pfm or .npy)")
        }
        return format
    }

    /// The element types the format can store.
    public var elements: [PixelElement] {
        switch self {
        case .png: return [.uint8, .uint16]
        case .jpeg: return [.uint8]
        case .tiff: return [.uint8, .uint16, .float32]
        case .exr, .pfm: return [.float32]
        case .npy: return PixelElement.allCases
        }
    }

    /// The channel counts the format can store.
    public var channelCounts: [Int] {
        switch self {
        case .jpeg, .pfm: return [1, 3]
        default: return [1, 3, 4]
        }
    }

    /// The conventional name ("PNG", "JPEG", ...).
    public var name: String { rawValue.uppercased() }

    /// The extension handed to OpenCV's encoder.
    var openCVExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// Whether OpenCV does the encoding and decoding.
    var usesOpenCV: Bool { self != .pfm && self != .npy }

    /// Throws `.format(path:...)` unless the format can store `image` as is.
    func checkCanStore(_ image: Image, path: String) throws {
        guard elements.contains(image.element) else {
            let list = elements.map(\.rawValue).joined(separator: ", ")
            throw DualcamError.format(path: path, reason: "\(name) cannot store \(image.element) pixels (expected \(list))")
        }
        guard channelCounts.contains(image.channels) else {
            let list = channelCounts.map(String.init).joined(separator: ", ")
            throw DualcamError.format(
                path: path, reason: "\(name) cannot store \(image.channels)-channel images (expected \(list) channels)")
        }
    }
}
