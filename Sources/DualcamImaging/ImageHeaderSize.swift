import DualcamSupport

/// What an image file for OpenCV's decoders must show before they run:
/// the content of the format its extension names (OpenCV sniffs the content,
/// so a `.jpg` holding a PPM or BMP header reached decoders dualcam never
/// meant to use), and a pixel size within the policy (`InputLimits`), read
/// from the header before the codec allocates. A 300-byte file declared
/// 30000x30000 pixels and made OpenCV allocate 2.9 GB (found by fuzzing).
///
/// Sizes: PNG from IHDR (the first chunk); JPEG from the first start-of-frame
/// marker, walking the segments as libjpeg does (bytes between segments are
/// skipped); TIFF from the first IFD's ImageWidth/ImageLength (the page
/// OpenCV reads); OpenEXR from the `dataWindow` attribute of the header.
enum ImageHeaderSize {
    /// Throws a `.format` error naming `path` when the content is not `format`
    /// or declares a size beyond `InputLimits`.
    static func check(_ bytes: [UInt8], format: ImageFormat, path: String) throws {
        func refuse(_ reason: String) -> DualcamError { .format(path: path, reason: reason) }
        let size: (width: Int, height: Int)?
        switch format {
        case .png:
            guard PNGStructure.hasSignature(bytes) else { throw refuse("not a PNG file: the 8-byte PNG signature is missing") }
            size = bytes.count >= 24 ? (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4)) : nil
        case .jpeg:
            guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw refuse("not a JPEG file: it does not start with FF D8") }
            // libjpeg reads the frame header before any scan; without one it fails
            // anyway, and a frame this walk missed could declare any size.
            guard let frame = jpeg(bytes) else { throw refuse("not a JPEG file dualcam can read: no frame header (SOF) before the scan data") }
            size = frame
        case .tiff:
            guard bytes.count >= 8, (bytes[0] == 0x49 && bytes[1] == 0x49 && bytes[2] == 42 && bytes[3] == 0)
                || (bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0 && bytes[3] == 42) else {
                throw refuse("not a TIFF file: it does not start with II*\\0 or MM\\0*")
            }
            size = tiff(bytes)
        case .exr:
            guard bytes.count >= 8, Array(bytes[0..<4]) == [0x76, 0x2F, 0x31, 0x01] else {
                throw refuse("not an OpenEXR file: the magic number 76 2F 31 01 is missing")
            }
            size = exr(bytes)
        case .pfm, .npy:
            return  // decoded in Swift, which checks its own headers
        }
        if let size, let problem = InputLimits.imageSizeProblem(width: size.width, height: size.height) {
            throw refuse("the image header declares \(problem)")
        }
    }

    /// The first start-of-frame (SOF0-15 except DHT C4, JPG C8, DAC CC):
    /// FF Cn length(2) precision(1) height(2) width(2).
    static func jpeg(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 2
        while offset < b.count {
            while offset < b.count, b[offset] != 0xFF { offset += 1 }  // libjpeg skips stray bytes
            while offset < b.count, b[offset] == 0xFF { offset += 1 }  // and fill bytes
            guard offset < b.count else { return nil }
            let marker = b[offset]
            offset += 1
            // FF 00 is no marker: libjpeg discards the pair and scans on (a
            // fuzzed file hid a 65311-px frame after one; kept in Fuzz/regressions/image).
            if marker == 0x00 { continue }
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image or scan data before any frame
            guard offset + 2 <= b.count else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 7 <= b.count else { return nil }
                return (bigEndian(b, offset + 5, 2), bigEndian(b, offset + 3, 2))
            }
            offset += max(2, bigEndian(b, offset, 2))
        }
        return nil
    }

    /// ImageWidth (256) and ImageLength (257) of the first IFD, SHORT or LONG.
    static func tiff(_ b: [UInt8]) -> (width: Int, height: Int)? {
        let little = b[0] == 0x49
        func read(_ at: Int, _ n: Int) -> Int? {
            guard at >= 0, at + n <= b.count else { return nil }
            return little ? (0..<n).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } : bigEndian(b, at, n)
        }
        guard let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        var width: Int?, height: Int?
        for k in 0..<min(count, 4096) {
            let entry = ifd + 2 + 12 * k
            guard let tag = read(entry, 2), let type = read(entry + 2, 2) else { return nil }
            guard tag == 256 || tag == 257 else { continue }
            let value = type == 3 ? read(entry + 8, 2) : read(entry + 8, 4)  // SHORT or LONG
            if tag == 256 { width = value } else { height = value }
        }
        guard let width, let height else { return nil }
        return (width, height)
    }

    /// The `dataWindow` box2i (xMin, yMin, xMax, yMax as little-endian int32)
    /// among the header's attributes: name\0 type\0 size(4) value.
    static func exr(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 8
        func string() -> String? {
            guard let end = b[offset...].firstIndex(of: 0), end - offset < 256 else { return nil }
            defer { offset = end + 1 }
            return String(decoding: b[offset..<end], as: UTF8.self)
        }
        func int32(_ at: Int) -> Int { Int(Int32(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)) }
        while offset < b.count, b[offset] != 0 {
            guard let name = string(), string() != nil, offset + 4 <= b.count else { return nil }
            let size = int32(offset)
            offset += 4
            guard size >= 0, offset + size <= b.count else { return nil }
            if name == "dataWindow", size == 16 {
                let xMin = int32(offset), yMin = int32(offset + 4), xMax = int32(offset + 8), yMax = int32(offset + 12)
                return (xMax - xMin + 1, yMax - yMin + 1)
            }
            offset += size
        }
        return nil
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ n: Int) -> Int {
        (0..<n).reduce(0) { $0 << 8 | Int(b[at + $1]) }
    }
}
