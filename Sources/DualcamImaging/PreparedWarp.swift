import DualcamOpenCV

/// An image copied into OpenCV once and warped many times (a plane sweep
/// warps one level per step): `ImageOps.warpPerspective` copies its source in
/// on every call, which for small warped outputs costs more than the warp.
/// Channels keep their order (no RGB <-> BGR swap; warps treat channels
/// alike); float16 images are processed as float32 and rounded back, as in
/// `ImageOps`. Immutable after creation (warps only read the matrix), so it
/// may be shared between threads.
public final class PreparedWarpSource: @unchecked Sendable {
    private let mat: CVMat
    private let element: PixelElement
    public let width: Int
    public let height: Int

    public init(_ image: Image) throws {
        let widened = image.element == .float16 ? image.converted(to: .float32) : image
        mat = try widened.makeCVMatKeepingChannelOrder()
        element = image.element
        width = image.width
        height = image.height
    }

    /// `ImageOps.warpPerspective` of the prepared image (same conventions).
    public func warpPerspective(homography: [Double], width: Int, height: Int,
                                interpolation: ImageOps.Interpolation = .linear, border: ImageOps.Border = .zero,
                                inverseMap: Bool = false) throws -> Image {
        let result = try CVImgproc.warpPerspective(mat, homography: homography, width: width, height: height,
                                                   interpolation: interpolation, border: border, inverseMap: inverseMap)
        return try Image(keepingChannelOrder: result).converted(to: element)
    }
}
