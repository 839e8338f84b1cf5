import COpenCVShim
import DualcamSupport
import Foundation

/// OpenCV's image codecs (cv::imread / imwrite / imdecode / imencode).
///
/// Images are read without applying EXIF orientation; colour images come back
/// in OpenCV's BGR / BGRA order. Failures never produce empty matrices: a
/// missing file is `DualcamError.io(path:reason: "no such file")`, an
/// undecodable one `.format(path:reason:)`.
public enum CVCodecs {
    public enum ReadMode: Sendable {
        /// Keep depth and channels (alpha included).
        case unchanged
        /// 8-bit, 3 channels (BGR).
        case color
        /// 8-bit, 1 channel.
        case grayscale

        var code: Int32 {
            switch self {
            case .unchanged: return Int32(DC_IMREAD_UNCHANGED)
            case .color: return Int32(DC_IMREAD_COLOR)
            case .grayscale: return Int32(DC_IMREAD_GRAYSCALE)
            }
        }
    }

    /// Encoder options passed to OpenCV.
    public enum WriteParameter: Sendable, Equatable {
        /// JPEG quality 0...100 (OpenCV's default is 95).
        case jpegQuality(Int)
        /// PNG zlib level 0...9 (OpenCV's default is 1).
        case pngCompression(Int)
        /// libtiff compression scheme (1 = none, 5 = LZW, 32946 = deflate).
        case tiffCompression(Int)
        /// OpenEXR channel type: half (16-bit) or float (32-bit) storage.
        case exrHalf(Bool)

        var pair: [Int32] {
            switch self {
            case let .jpegQuality(q): return [Int32(DC_IMWRITE_JPEG_QUALITY), Int32(clamping: q)]
            case let .pngCompression(l): return [Int32(DC_IMWRITE_PNG_COMPRESSION), Int32(clamping: l)]
            case let .tiffCompression(c): return [Int32(DC_IMWRITE_TIFF_COMPRESSION), Int32(clamping: c)]
            case let .exrHalf(half):
                return [Int32(DC_IMWRITE_EXR_TYPE),
                        Int32(half ? DC_IMWRITE_EXR_TYPE_HALF : DC_IMWRITE_EXR_TYPE_FLOAT)]
            }
        }
    }

    /// Reads the image file at `path`.
    public static func read(path: String, mode: ReadMode = .unchanged) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("imread", .file(path)) { dc_imread(path, mode.code, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// Decodes an encoded image held in memory.
    public static func decode(_ bytes: [UInt8], mode: ReadMode = .unchanged) throws -> CVMat {
        var handle: OpaquePointer?
        try bytes.withUnsafeBytes { raw in
            try Shim.call("imdecode") { dc_imdecode(raw.baseAddress, raw.count, mode.code, &handle, $0) }
        }
        return try CVMat(adopting: handle!)
    }

    /// Writes `mat` to `path` in the format of its extension. The write is not
    /// atomic by itself; callers wanting atomicity use `encode` + `AtomicFile`.
    public static func write(_ mat: CVMat, path: String, parameters: [WriteParameter] = []) throws {
        let flat = parameters.flatMap(\.pair)
        try Shim.call("imwrite", .file(path)) {
            dc_imwrite(path, mat.handle, flat, Int32(flat.count), $0)
        }
    }

    /// Encodes `mat` in memory in the format of `fileExtension` ("png", ".exr", ...).
    public static func encode(
        _ mat: CVMat, fileExtension: String, parameters: [WriteParameter] = []
    ) throws -> [UInt8] {
        let flat = parameters.flatMap(\.pair)
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        try Shim.call("imencode") {
            dc_imencode(fileExtension, mat.handle, flat, Int32(flat.count), &buffer, &length, $0)
        }
        defer { dc_free_buffer(buffer) }
        guard let buffer else { return [] }
        return [UInt8](UnsafeBufferPointer(start: buffer, count: length))
    }

    /// Whether this OpenCV build can actually encode files with `extension`
    /// ("exr", ".tiff", ...); probes the encoder, so formats compiled in but
    /// disabled at run time report false.
    public static func canWrite(extension fileExtension: String) -> Bool {
        var available: Int32 = 0
        do {
            try Shim.call("haveImageWriter") { dc_have_image_writer(fileExtension, &available, $0) }
        } catch {
            return false
        }
        return available != 0
    }
}
