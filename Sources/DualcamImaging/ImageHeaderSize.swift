import DualcamSupport

/// The pixel size a PNG or JPEG file declares in its header, read before the
/// codec allocates anything, so the size policy (`InputLimits`) applies to a
/// 100 kB file that claims 100000x100000 pixels as it does to a flag.
/// Other formats: nil (PFM and NPY check their headers themselves; TIFF and
/// EXR are left to OpenCV's own limit of 2^30 pixels).
enum ImageHeaderSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if PNGStructure.hasSignature(bytes) {
            // IHDR is the first chunk: length(4) type(4) width(4) height(4), big-endian.
            guard bytes.count >= 24 else { return nil }
            return (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        // JPEG: walk the marker segments to the first start-of-frame (SOF0-15
        // except DHT C4, JPG C8, DAC CC): FF Cn length(2) precision(1) height(2) width(2).
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = bigEndian(bytes, offset + 2, 2)
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 9 <= bytes.count else { return nil }
                return (bigEndian(bytes, offset + 7, 2), bigEndian(bytes, offset + 5, 2))
            }
            if marker == 0xDA || length < 2 { return nil }  // scan data before any frame header
            offset += 2 + length
        }
        return nil
    }

    /// Throws the policy's error (naming `path`) when the header declares a size beyond `InputLimits`.
    static func check(_ bytes: [UInt8], path: String) throws {
        guard let size = of(bytes), let problem = InputLimits.imageSizeProblem(width: size.width, height: size.height) else { return }
        throw DualcamError.format(path: path, reason: "the image header declares \(problem)")
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ n: Int) -> Int {
        (0..<n).reduce(0) { $0 << 8 | Int(b[at + $1]) }
    }
}
