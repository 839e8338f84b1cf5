import DualcamOpenCV
import DualcamSupport

/// In-memory encoding, for pipelines that need what a codec does to the
/// pixels without a file (e.g. the synthetic cameras' JPEG compression).
extension ImageIO {
    /// `image` (8-bit, 1 or 3 channels, RGB order) encoded as a JPEG of
    /// `quality` (1...100, libjpeg's scale as OpenCV passes it on: 4:2:0 chroma
    /// subsampling for colour) and decoded again by OpenCV, channel order kept
    /// (RGB in, RGB out; the codec sees BGR, so luma and chroma are those of the
    /// real colours). Deterministic: the same image and quality give the same
    /// pixels, which are what a JPEG file of them would decode to.
    public static func jpegRoundTrip(_ image: Image, quality: Int) throws -> Image {
        try ImageFormat.jpeg.checkCanStore(image, path: "JPEG round trip")
        guard (1...100).contains(quality) else {
            throw DualcamError.invalidValue(name: "JPEG quality \(quality)", reason: "expected 1 to 100")
        }
        let encoded = try CVCodecs.encode(image.makeCVMat(), fileExtension: ImageFormat.jpeg.openCVExtension,
                                          parameters: [.jpegQuality(quality)])
        let mode: CVCodecs.ReadMode = image.channels == 1 ? .grayscale : .color
        return try Image(try CVCodecs.decode(encoded, mode: mode))
    }
}
