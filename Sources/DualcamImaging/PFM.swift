import DualcamSupport
import Foundation

/// Portable Float Map, the format of Middlebury's disparity maps.
///
/// Layout: an ASCII header of three whitespace-separated fields, then raw
/// float32 data:
///
///     Pf            (1 channel) or PF (3 channels, RGB)
///     <width> <height>
///     <scale>       non-zero; negative = little-endian data, positive = big-endian
///     <one whitespace byte, normally '\n'>
///     rows of width * channels float32, stored bottom row first
///
/// Values are copied bit-exactly (Middlebury's +inf for unknown disparities and
/// NaN payloads survive). The magnitude of the scale is not used and is written
/// as 1. Reading is strict: the data must be exactly `width * height *
/// channels * 4` bytes; missing and trailing bytes are both errors, since
/// either means the header does not describe the data.
public enum PFM {
    /// Reads a PFM file into a 1- or 3-channel float32 image (top row first).
    public static func read(_ url: URL) throws -> Image {
        let bytes = try FileAccess.readBytes(url)
        return try FileAccess.at(url.path) { try decode(bytes) }
    }

    /// Writes a 1- or 3-channel float32 image atomically.
    public static func write(_ image: Image, to url: URL, byteOrder: ByteOrder = .littleEndian) throws {
        let bytes = try FileAccess.at(url.path) { try encode(image, byteOrder: byteOrder) }
        try AtomicFile.write(Data(bytes), to: url)
    }

    /// Encodes a 1- or 3-channel float32 image.
    public static func encode(_ image: Image, byteOrder: ByteOrder = .littleEndian) throws -> [UInt8] {
        guard image.element == .float32, image.channels == 1 || image.channels == 3 else {
            throw DualcamError.invalidValue(
                name: "PFM", reason: "PFM stores 1- or 3-channel float32 images, not a \(image.description)")
        }
        let magic = image.channels == 1 ? "Pf" : "PF"
        let scale = byteOrder == .littleEndian ? "-1.0" : "1.0"
        var output = Array("\(magic)\n\(image.width) \(image.height)\n\(scale)\n".utf8)
        let headerCount = output.count
        let rowBytes = image.rowByteCount
        output += [UInt8](repeating: 0, count: rowBytes * image.height)
        image.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                for y in 0..<image.height {
                    let fileRow = image.height - 1 - y
                    let start = headerCount + fileRow * rowBytes
                    byteOrder.copy(UnsafeRawBufferPointer(rebasing: source[(y * rowBytes)..<((y + 1) * rowBytes)]),
                                   to: UnsafeMutableRawBufferPointer(rebasing: destination[start..<(start + rowBytes)]),
                                   elementSize: 4)
                }
            }
        }
        return output
    }

    /// Decodes PFM bytes; errors are `.invalidValue(name: "PFM", ...)` (the
    /// file readers turn them into `.format(path:...)`).
    public static func decode(_ bytes: [UInt8]) throws -> Image {
        func bad(_ reason: String) -> DualcamError { .invalidValue(name: "PFM", reason: reason) }
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P"),
              bytes[1] == UInt8(ascii: "f") || bytes[1] == UInt8(ascii: "F") else {
            throw bad("not a PFM file: expected magic 'Pf' or 'PF', found \(HeaderText.quoted(bytes.prefix(2)))")
        }
        let channels = bytes[1] == UInt8(ascii: "F") ? 3 : 1
        var scanner = HeaderText(bytes: bytes, offset: 2)
        guard scanner.skipWhitespace() else { throw bad("PFM magic must be followed by whitespace") }
        let widthToken = try scanner.token(or: bad("PFM header ends before the width"))
        let heightToken = try scanner.token(or: bad("PFM header ends before the height"))
        let scaleToken = try scanner.token(or: bad("PFM header ends before the scale"))
        guard let width = Int(widthToken), let height = Int(heightToken), width > 0, height > 0 else {
            throw bad("PFM header has size '\(widthToken) \(heightToken)', expected two positive integers")
        }
        if let problem = InputLimits.imageSizeProblem(width: width, height: height) { throw bad("PFM header: \(problem)") }
        guard width <= Image.maximumSide, height <= Image.maximumSide,
              width * height * channels <= Image.maximumValueCount else {
            throw bad("PFM header says \(width)x\(height), larger than the supported "
                      + "\(Image.maximumSide)x\(Image.maximumSide) and \(Image.maximumValueCount) values")
        }
        guard let scale = Double(scaleToken), scale.isFinite, scale != 0 else {
            throw bad("PFM header has scale '\(scaleToken)', expected a non-zero number")
        }
        let byteOrder: ByteOrder = scale < 0 ? .littleEndian : .bigEndian
        guard scanner.offset < bytes.count, HeaderText.isWhitespace(bytes[scanner.offset]) else {
            throw bad("PFM scale must be followed by one whitespace byte before the pixel data")
        }
        let dataStart = scanner.offset + 1
        let expected = width * height * channels * 4
        let available = bytes.count - dataStart
        guard available >= expected else {
            throw bad("PFM header says \(width)x\(height) with \(channels) channel\(channels == 1 ? "" : "s") "
                      + "but only \(available) bytes of pixel data follow (expected \(expected))")
        }
        guard available == expected else {
            throw bad("PFM header says \(width)x\(height) with \(channels) channel\(channels == 1 ? "" : "s") "
                      + "but \(available - expected) bytes follow the \(expected) bytes of pixel data")
        }
        var image = try Image(width: width, height: height, channels: channels, element: .float32)
        let rowBytes = image.rowByteCount
        bytes.withUnsafeBytes { source in
            image.withUnsafeMutableBytes { destination in
                for y in 0..<height {
                    let start = dataStart + (height - 1 - y) * rowBytes
                    byteOrder.copy(UnsafeRawBufferPointer(rebasing: source[start..<(start + rowBytes)]),
                                   to: UnsafeMutableRawBufferPointer(rebasing: destination[(y * rowBytes)..<((y + 1) * rowBytes)]),
                                   elementSize: 4)
                }
            }
        }
        return image
    }
}

/// A cursor over an ASCII header (PFM) with short, bounded tokens.
struct HeaderText {
    let bytes: [UInt8]
    var offset: Int

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Skips whitespace; returns whether any was skipped.
    mutating func skipWhitespace() -> Bool {
        let start = offset
        while offset < bytes.count, Self.isWhitespace(bytes[offset]) { offset += 1 }
        return offset > start
    }

    /// The next whitespace-delimited token (at most 40 bytes), or throws `missing`.
    mutating func token(or missing: @autoclosure () -> Error) throws -> String {
        _ = skipWhitespace()
        let start = offset
        while offset < bytes.count, offset - start < 40, !Self.isWhitespace(bytes[offset]) { offset += 1 }
        guard offset > start else { throw missing() }
        return Self.printable(bytes[start..<offset])
    }

    /// Bytes as text with non-printable bytes escaped as \xNN.
    static func printable<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }

    static func quoted<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        "'\(printable(bytes))'"
    }
}
