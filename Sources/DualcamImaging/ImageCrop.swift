import DualcamSupport

extension Image {
    /// The `width` x `height` region whose top-left pixel is (x, y); it must lie inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws -> Image {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw DualcamError.invalidValue(
                name: "crop", reason: "region \(width)x\(height) at (\(x), \(y)) is outside the \(self.width)x\(self.height) image")
        }
        let pixelBytes = channels * element.byteCount
        var out = [UInt8](repeating: 0, count: width * height * pixelBytes)
        withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for row in 0..<height {
                    let from = ((y + row) * self.width + x) * pixelBytes
                    let to = row * width * pixelBytes
                    dst.baseAddress!.advanced(by: to)
                        .copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: width * pixelBytes)
                }
            }
        }
        return try Image(width: width, height: height, channels: channels, element: element, bytes: out)
    }
}
