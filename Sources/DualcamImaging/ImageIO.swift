import DualcamOpenCV
import DualcamSupport
import Foundation

/// Reads and writes image files, choosing the codec from the extension (see
/// `ImageFormat`): PNG, JPEG, TIFF and EXR through OpenCV, PFM and NPY in Swift.
///
/// - Images are always RGB / RGBA in memory (OpenCV's BGR is converted).
/// - Reading keeps depth and alpha and ignores EXIF orientation. PNG chunk
///   framing is checked first, so a truncated PNG is reported precisely.
/// - TIFF float32 images are written LZW-compressed (lossless; OpenCV's
///   default for 3-channel float would be lossy SGILOG) unless a
///   `.tiffCompression` parameter says otherwise.
/// - Writing never converts silently: an image the format cannot store
///   exactly (e.g. float32 to PNG, 4 channels to JPEG) is an error, raised
///   before any file is created. Writes are atomic (temporary file + rename),
///   so a failed write leaves nothing behind.
/// - Every error is a `DualcamError` whose description is one line starting
///   with the file's path; a missing file is `.io(path:reason: "no such file")`.
public enum ImageIO {
    /// Reads the image at `url`.
    public static func read(_ url: URL) throws -> Image {
        let format = try ImageFormat.of(url)
        switch format {
        case .pfm: return try PFM.read(url)
        case .npy: return try NPY.read(url)
        default:
            let bytes = try FileAccess.readBytes(url)
            return try FileAccess.at(url.path) {
                if !bytes.isEmpty { try ImageHeaderSize.check(bytes, format: format, path: url.path) }
                if PNGStructure.hasSignature(bytes) { try PNGStructure.validate(bytes) }
                let mat: CVMat
                do {
                    mat = try CVCodecs.decode(bytes, mode: .unchanged)
                } catch DualcamError.openCV(_, let message) {
                    throw DualcamError.format(path: url.path, reason: "cannot read as \(format.name): \(message)")
                }
                return try Image(mat)
            }
        }
    }

    /// Writes `image` to `url` atomically in the format of its extension.
    public static func write(_ image: Image, to url: URL, parameters: [CVCodecs.WriteParameter] = []) throws {
        let format = try ImageFormat.of(url)
        try format.checkCanStore(image, path: url.path)
        switch format {
        case .pfm: try PFM.write(image, to: url)
        case .npy: try NPY.write(image, to: url)
        default:
            if format == .exr, !CVCodecs.canWrite(extension: "exr") {
                throw DualcamError.format(path: url.path, reason: "this OpenCV build cannot write OpenEXR files")
            }
            var parameters = parameters
            let choseCompression = parameters.contains { if case .tiffCompression = $0 { return true } else { return false } }
            if format == .tiff, image.element == .float32, !choseCompression {
                // OpenCV picks lossy SGILOG for 3-channel float TIFFs unless told otherwise.
                parameters.append(.tiffCompression(5))
            }
            let encoded = try FileAccess.at(url.path) {
                try CVCodecs.encode(image.makeCVMat(), fileExtension: format.openCVExtension, parameters: parameters)
            }
            try AtomicFile.write(Data(encoded), to: url)
        }
    }

    /// Whether `write` can store images of `format` in this build (false only
    /// for EXR when OpenCV lacks a working OpenEXR encoder).
    public static func canWrite(_ format: ImageFormat) -> Bool {
        format.usesOpenCV ? CVCodecs.canWrite(extension: format.openCVExtension) : true
    }
}
