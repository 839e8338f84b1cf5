import DualcamImaging

extension Image {
    /// The image as 3-channel uint8 RGB for compositing: RGB unchanged, grey
    /// replicated into R, G and B, RGBA without its alpha. Other elements are
    /// an error (views composite 8-bit images; convert first).
    func rgb8(_ name: String) throws -> Image {
        guard element == .uint8 else {
            throw ConvergenceError.invalidInput("\(name) image holds \(element) values; views need 8-bit images")
        }
        if channels == 3 { return self }
        let n = width * height, c = channels
        let out = withUnsafeBytes { src in
            [UInt8](unsafeUninitializedCapacity: 3 * n) { dst, count in
                for i in 0..<n {
                    if c == 1 {
                        let v = src[i]
                        dst[3 * i] = v; dst[3 * i + 1] = v; dst[3 * i + 2] = v
                    } else {
                        dst[3 * i] = src[c * i]; dst[3 * i + 1] = src[c * i + 1]; dst[3 * i + 2] = src[c * i + 2]
                    }
                }
                count = 3 * n
            }
        }
        return try Image(width: width, height: height, channels: 3, element: .uint8, bytes: out)
    }

    /// A new 3-channel uint8 image whose bytes `fill` writes (all of them).
    static func rgb8(width: Int, height: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) throws -> Image {
        let count = width * height * 3
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, n in
            fill(buffer)
            n = count
        }
        return try Image(width: width, height: height, channels: 3, element: .uint8, bytes: bytes)
    }
}
