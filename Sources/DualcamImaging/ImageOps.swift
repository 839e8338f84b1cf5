import DualcamOpenCV

/// OpenCV image operations on `Image`s (RGB / RGBA channel order), by way of
/// `CVImgproc` and `CVRegistration`: each copies the image into a `CVMat`,
/// runs the operation and copies the result back, so inputs are untouched.
///
/// Coordinates follow OpenCV: x is the column, y the row, and pixel centres
/// are at integer coordinates (pixel (0, 0) covers [-0.5, 0.5) in x and y).
/// float16 images are processed as float32 and rounded back (OpenCV's
/// resampling has no float16 path); the other elements are processed as they are.
/// Failures are `DualcamError.openCV(operation:message:)`.
public enum ImageOps {
    public typealias Interpolation = CVInterpolation
    public typealias Border = CVBorder
    public typealias Window = CVRegistration.Window
    public typealias Subpixel = CVRegistration.Subpixel

    /// Warps `image` with the 3x3 row-major homography `homography` into a
    /// `width` x `height` image of the same element and channels.
    ///
    /// With `inverseMap` false, `homography` maps source pixels to destination
    /// pixels: dst(x) = src(H⁻¹ x) (a singular H is an error). With
    /// `inverseMap` true it maps destination pixels to source pixels:
    /// dst(x) = src(H x). So the translation [1 0 tx; 0 1 ty; 0 0 1] moves the
    /// content by (+tx, +ty) when `inverseMap` is false. Destination pixels
    /// whose source lies outside `image` come from `border`; use
    /// `.constant(value: .nan)` to mark them in float images. Source positions
    /// are quantized to 1/32 pixel.
    public static func warpPerspective(
        _ image: Image, homography: [Double], width: Int, height: Int,
        interpolation: Interpolation = .linear, border: Border = .zero, inverseMap: Bool = false
    ) throws -> Image {
        try processed(image) {
            try CVImgproc.warpPerspective($0, homography: homography, width: width, height: height,
                                          interpolation: interpolation, border: border, inverseMap: inverseMap)
        }
    }

    /// dst(x, y) = src(mapX(x, y), mapY(x, y)): `mapX` and `mapY` are float32
    /// 1-channel images of equal size (the size of the result) holding source
    /// coordinates. Positions are quantized to 1/32 pixel.
    public static func remap(
        _ image: Image, mapX: Image, mapY: Image,
        interpolation: Interpolation = .linear, border: Border = .zero
    ) throws -> Image {
        let x = try mapX.makeCVMat(), y = try mapY.makeCVMat()
        return try processed(image) {
            try CVImgproc.remap($0, mapX: x, mapY: y, interpolation: interpolation, border: border)
        }
    }

    /// Resizes `image` to `width` x `height`; `.area` suits shrinking.
    /// Pixel centres map as x_src = (x_dst + 0.5) * (src width / dst width) - 0.5.
    public static func resize(
        _ image: Image, width: Int, height: Int, interpolation: Interpolation = .linear
    ) throws -> Image {
        // Resampling treats channels alike: no RGB <-> BGR swaps (two
        // byte-wise passes that cost more than the resize of a 640x480 image).
        let widened = image.element == .float16 ? image.converted(to: .float32) : image
        let resized = try CVImgproc.resize(try widened.makeCVMatKeepingChannelOrder(), width: width, height: height,
                                           interpolation: interpolation)
        return try Image(keepingChannelOrder: resized).converted(to: image.element)
    }

    /// The luma of an RGB or RGBA image (Y = 0.299 R + 0.587 G + 0.114 B,
    /// alpha ignored) as a 1-channel image of the same element; a 1-channel
    /// image is returned unchanged.
    public static func convertToGray(_ image: Image) throws -> Image {
        if image.channels == 1 { return image }
        return try Image(keepingChannelOrder: try grayCVMat(image)).converted(to: image.element)
    }

    /// `convertToGray` as an OpenCV matrix (float16 as float32), for a caller
    /// that goes on in OpenCV: the pixels are copied once, in the image's
    /// RGB order (OpenCV converts from it; no BGR copy first).
    public static func grayCVMat(_ image: Image) throws -> CVMat {
        let widened = image.element == .float16 ? image.converted(to: .float32) : image
        return try CVImgproc.convertToGray(try widened.makeCVMatKeepingChannelOrder(), rgbOrder: true)
    }

    /// Gaussian blur with standard deviation `sigma` (> 0) pixels; borders reflect.
    public static func gaussianBlur(_ image: Image, sigma: Double) throws -> Image {
        try processed(image) { try CVImgproc.gaussianBlur($0, sigma: sigma) }
    }

    /// Phase correlation of two 1-channel images of the same size (any
    /// element, computed in float64); see `CVRegistration.phaseCorrelate`
    /// for the estimators and their accuracy.
    ///
    /// Sign convention: `shift` is the displacement of `b` relative to `a`. If
    /// b(x, y) = a(x - dx, y - dy), i.e. `b` shows `a`'s content moved by
    /// (+dx, +dy) pixels (right and down, as `warpPerspective` with the
    /// translation [1 0 dx; 0 1 dy; 0 0 1] does), the result is (dx, dy).
    /// `response` is near 1 for a clean shift and near 0 for unrelated images.
    /// The Hanning window (default) suppresses the image edges, which
    /// otherwise pull the estimate unless the content wraps around.
    public static func phaseCorrelate(
        _ a: Image, _ b: Image, window: Window = .hanning, subpixel: Subpixel = .upsampled
    ) throws -> (shift: (dx: Double, dy: Double), response: Double) {
        try CVRegistration.phaseCorrelate(try a.makeCVMat(), try b.makeCVMat(), window: window, subpixel: subpixel)
    }

    /// Sub-pixel translation of `b` relative to `a` (1-channel, same size) by
    /// ECC maximisation; see `CVRegistration.eccTranslation`. Prefer it to
    /// phase correlation for measuring small misregistrations between a
    /// resampled view and a rendered or captured one.
    public static func eccTranslation(
        _ a: Image, _ b: Image, gaussianSize: Int = 5
    ) throws -> (shift: (dx: Double, dy: Double), correlation: Double) {
        try CVRegistration.eccTranslation(try a.makeCVMat(), try b.makeCVMat(), gaussianSize: gaussianSize)
    }

    /// Runs `operation` on `image` as a CVMat (float16 as float32) and copies
    /// the result back with `image`'s element.
    static func processed(_ image: Image, _ operation: (CVMat) throws -> CVMat) throws -> Image {
        let widened = image.element == .float16 ? image.converted(to: .float32) : image
        let result = try Image(try operation(try widened.makeCVMat()))
        return result.converted(to: image.element)
    }
}

extension Image {
    /// The values mapped through v * scale + offset and stored as `element`;
    /// integer elements round to nearest and saturate (NaN becomes 0), as in
    /// `init(width:height:channels:element:values:)`. For example a uint8
    /// image `converted(to: .float32, scale: 1.0 / 255)` spans 0...1.
    /// `converted(to:)` is the case scale 1, offset 0.
    public func converted(to element: PixelElement, scale: Double, offset: Double = 0) -> Image {
        if scale == 1, offset == 0 { return converted(to: element) }
        // The size was valid for `self`, so it is valid for the new element too.
        return try! Image(width: width, height: height, channels: channels, element: element,
                          values: doubleValues().map { $0 * scale + offset })
    }
}
