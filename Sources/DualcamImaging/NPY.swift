import DualcamSupport
import Foundation

/// NumPy's .npy array files, for images.
///
/// Layout: magic `\x93NUMPY`, version bytes (1.0: little-endian uint16 header
/// length; 2.0 and 3.0: uint32), the header dictionary (see `NPYHeader`)
/// padded with spaces and ended by '\n' so that the data starts at a multiple
/// of 64 bytes, then the values in C (row-major) order.
///
/// Supported: dtypes `|u1` (uint8), `<u2` (uint16), `<f2` (float16), `<f4`
/// (float32); shapes (height, width) for 1 channel and (height, width, C)
/// with C = 1, 3 or 4. Channels are stored in the image's order (RGB / RGBA).
/// Rejected with a message: Fortran order, big-endian dtypes, other dtypes or
/// shapes, and data shorter or longer than the shape requires. Files are
/// written as version 1.0 with shape (H, W) for 1 channel.
public enum NPY {
    static let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)

    /// Reads an .npy file into an image.
    public static func read(_ url: URL) throws -> Image {
        let bytes = try FileAccess.readBytes(url)
        return try FileAccess.at(url.path) { try decode(bytes) }
    }

    /// Writes an image as a version 1.0 .npy file, atomically.
    public static func write(_ image: Image, to url: URL) throws {
        try AtomicFile.write(Data(encode(image)), to: url)
    }

    /// The dtype string of an element type.
    static func descr(_ element: PixelElement) -> String {
        switch element {
        case .uint8: return "|u1"
        case .uint16: return "<u2"
        case .float16: return "<f2"
        case .float32: return "<f4"
        }
    }

    public static func encode(_ image: Image) -> [UInt8] {
        let shape = image.channels == 1 ? [image.height, image.width] : [image.height, image.width, image.channels]
        let literal = NPYHeader(descr: descr(image.element), fortranOrder: false, shape: shape).literal
        let unpadded = magic.count + 2 + 2 + literal.utf8.count + 1
        let padding = (64 - unpadded % 64) % 64
        let header = Array(literal.utf8) + [UInt8](repeating: 0x20, count: padding) + [0x0A]
        var output = magic + [1, 0, UInt8(header.count & 0xFF), UInt8(header.count >> 8)] + header
        let dataStart = output.count
        output += [UInt8](repeating: 0, count: image.bytes.count)
        image.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                ByteOrder.littleEndian.copy(source, to: UnsafeMutableRawBufferPointer(rebasing: destination[dataStart...]),
                                            elementSize: image.element.byteCount)
            }
        }
        return output
    }

    /// Decodes .npy bytes; errors are `.invalidValue(name: "NPY", ...)`.
    public static func decode(_ bytes: [UInt8]) throws -> Image {
        func bad(_ reason: String) -> DualcamError { .invalidValue(name: "NPY", reason: reason) }
        guard bytes.count >= 8, Array(bytes[0..<6]) == magic else {
            throw bad("not an NPY file: expected magic '\\x93NUMPY', found \(HeaderText.quoted(bytes.prefix(6)))")
        }
        let major = bytes[6], minor = bytes[7]
        let lengthBytes: Int
        switch (major, minor) {
        case (1, 0): lengthBytes = 2
        case (2, 0), (3, 0): lengthBytes = 4
        default: throw bad("NPY version \(major).\(minor) is not supported (expected 1.0, 2.0 or 3.0)")
        }
        guard bytes.count >= 8 + lengthBytes else { throw bad("NPY file ends inside its header length") }
        let headerLength = (0..<lengthBytes).reduce(0) { $0 | Int(bytes[8 + $1]) << (8 * $1) }
        let headerStart = 8 + lengthBytes
        guard headerLength <= bytes.count - headerStart else {
            throw bad("NPY header length \(headerLength) exceeds the \(bytes.count - headerStart) bytes that follow")
        }
        let headerBytes = bytes[headerStart..<(headerStart + headerLength)]
        guard let text = major == 3 ? String(validating: headerBytes, as: UTF8.self)
                                    : String(validating: headerBytes, as: Unicode.ASCII.self) else {
            throw bad("NPY header is not \(major == 3 ? "UTF-8" : "ASCII") text")
        }
        let header = try NPYHeader.parse(text)
        guard !header.fortranOrder else {
            throw bad("NPY array is in Fortran (column-major) order; only C order is supported")
        }
        let element: PixelElement
        switch header.descr {
        case "|u1", "<u1": element = .uint8
        case "<u2": element = .uint16
        case "<f2": element = .float16
        case "<f4": element = .float32
        case let d where d.hasPrefix(">"):
            throw bad("NPY dtype '\(d)' is big-endian; only little-endian '<' dtypes are supported")
        default:
            throw bad("NPY dtype '\(header.descr)' is not supported (expected |u1, <u2, <f2 or <f4)")
        }
        let shape = header.shape
        guard shape.count == 2 || (shape.count == 3 && [1, 3, 4].contains(shape[2])) else {
            let text = "(" + shape.map(String.init).joined(separator: ", ") + (shape.count == 1 ? ",)" : ")")
            throw bad("NPY shape \(text) is not an image (expected (height, width) or (height, width, 1|3|4))")
        }
        let height = shape[0], width = shape[1], channels = shape.count == 3 ? shape[2] : 1
        if let problem = InputLimits.imageSizeProblem(width: width, height: height) { throw bad("NPY shape: \(problem)") }
        var image: Image
        do {
            image = try Image(width: width, height: height, channels: channels, element: element)
        } catch {
            throw bad("NPY shape \(height)x\(width)x\(channels) is outside the supported image sizes "
                      + "(1...\(Image.maximumSide) per side, at most \(Image.maximumValueCount) values)")
        }
        let dataStart = headerStart + headerLength
        let expected = image.bytes.count, available = bytes.count - dataStart
        guard available == expected else {
            throw bad("NPY header says \(header.descr) \(height)x\(width)x\(channels) (\(expected) bytes) "
                      + "but \(available) bytes of data follow")
        }
        bytes.withUnsafeBytes { source in
            image.withUnsafeMutableBytes { destination in
                ByteOrder.littleEndian.copy(UnsafeRawBufferPointer(rebasing: source[dataStart...]), to: destination,
                                            elementSize: element.byteCount)
            }
        }
        return image
    }
}
