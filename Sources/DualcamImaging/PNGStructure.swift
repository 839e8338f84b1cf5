import DualcamSupport

/// A structural check of PNG files before OpenCV decodes them.
///
/// libpng reports a truncated file by printing "libpng error: ..." to stderr
/// and OpenCV then returns an empty image; walking the chunk list first gives
/// a precise one-line error instead, and keeps stderr clean. Only the chunk
/// framing and the chunks' CRCs are checked (signature, IHDR first, every
/// chunk complete with a matching CRC-32, IEND present); bytes after IEND are
/// ignored, as libpng does. The compressed data is left to libpng.
enum PNGStructure {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.count >= signature.count && Array(bytes[0..<signature.count]) == signature
    }

    /// Throws `.invalidValue(name: "PNG", ...)` describing the first framing problem.
    static func validate(_ bytes: [UInt8]) throws {
        func bad(_ reason: String) -> DualcamError { .invalidValue(name: "PNG", reason: reason) }
        guard hasSignature(bytes) else {
            throw bad("not a PNG file: the 8-byte PNG signature is missing")
        }
        var offset = signature.count
        var isFirst = true
        while true {
            guard bytes.count - offset >= 8 else {
                throw bad("PNG is truncated: the file ends after \(bytes.count) bytes, before the IEND chunk")
            }
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let type = HeaderText.printable(bytes[(offset + 4)..<(offset + 8)])
            guard length <= Int(Int32.max) else {
                throw bad("PNG is corrupt: chunk '\(type)' at byte \(offset) claims \(length) bytes")
            }
            if isFirst, type != "IHDR" {
                throw bad("PNG is corrupt: the first chunk is '\(type)', expected 'IHDR'")
            }
            let needed = 12 + length
            guard bytes.count - offset >= needed else {
                throw bad("PNG is truncated: chunk '\(type)' at byte \(offset) needs \(needed) bytes "
                          + "but the file ends after \(bytes.count - offset)")
            }
            // A chunk whose CRC does not match made libpng print its own
            // "libpng error" line before ours; it is reported here instead.
            let stored = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + 8 + length + $1]) }
            guard crc32(bytes, from: offset + 4, count: 4 + length) == stored else {
                throw bad("PNG is corrupt: chunk '\(type)' at byte \(offset) fails its CRC check")
            }
            if type == "IEND" { return }
            offset += needed
            isFirst = false
        }
    }

    /// CRC-32 (ISO 3309, the PNG chunk CRC) of `count` bytes from `start`.
    static func crc32(_ bytes: [UInt8], from start: Int, count: Int) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for i in start..<(start + count) {
            crc = crcTable[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
}
