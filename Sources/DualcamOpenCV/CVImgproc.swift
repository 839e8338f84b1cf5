import COpenCVShim
import DualcamSupport

/// How resampling operations interpolate between source pixels.
public enum CVInterpolation: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case nearest, linear, cubic
    /// Pixel-area averaging: `CVImgproc.resize` only (warps and remaps reject it).
    case area
    /// Lanczos over 8x8 neighbours.
    case lanczos4

    var code: Int32 {
        switch self {
        case .nearest: return Int32(DC_INTER_NEAREST)
        case .linear: return Int32(DC_INTER_LINEAR)
        case .cubic: return Int32(DC_INTER_CUBIC)
        case .area: return Int32(DC_INTER_AREA)
        case .lanczos4: return Int32(DC_INTER_LANCZOS4)
        }
    }

    public var description: String {
        switch self {
        case .nearest: return "nearest"
        case .linear: return "linear"
        case .cubic: return "cubic"
        case .area: return "area"
        case .lanczos4: return "lanczos4"
        }
    }
}

/// What resampling operations read outside the source image.
public enum CVBorder: Sendable, Equatable {
    /// `value` in every channel, saturated to the element type (0 is black).
    /// NaN (or an infinity) is allowed for float images only and marks
    /// "no data". With linear or higher interpolation it also reaches every
    /// destination pixel whose kernel touches a pixel outside the source, even
    /// with weight 0 (NaN * 0 is NaN): an identity remap makes the last column
    /// and row NaN. Use `.nearest` where that matters.
    case constant(value: Double)
    /// The nearest edge pixel.
    case replicate

    /// The usual border: constant 0.
    public static let zero = CVBorder.constant(value: 0)

    var code: Int32 {
        switch self {
        case .constant: return Int32(DC_BORDER_CONSTANT)
        case .replicate: return Int32(DC_BORDER_REPLICATE)
        }
    }

    var value: Double {
        if case let .constant(value) = self { return value }
        return 0
    }
}

/// OpenCV image processing on `CVMat`s (channels in OpenCV's BGR / BGRA order).
///
/// Coordinates follow OpenCV: x is the column, y the row, and pixel centres
/// are at integer coordinates, so pixel (0, 0) covers [-0.5, 0.5) in x and y.
/// Every function returns a new matrix and leaves its inputs untouched; failures
/// (including OpenCV exceptions) are `DualcamError.openCV(operation:message:)`.
public enum CVImgproc {
    /// Warps `src` with the homography `homography` (3x3, row-major, 9 values)
    /// into a `width` x `height` matrix of the same type.
    ///
    /// Convention: with `inverseMap` false, `homography` maps source pixel
    /// coordinates to destination pixel coordinates, (x', y', w')ᵀ = H (x, y, 1)ᵀ,
    /// so dst(x) = src(H⁻¹ x) (OpenCV's default; a singular H is an error).
    /// With `inverseMap` true, `homography` maps destination to source,
    /// dst(x) = src(H x) (OpenCV's WARP_INVERSE_MAP); warping with H equals
    /// warping with H⁻¹ and `inverseMap` true. A pure translation
    /// H = [1 0 tx; 0 1 ty; 0 0 1] therefore moves the content by (+tx, +ty).
    /// Source positions are quantized to 1/32 pixel before interpolating.
    public static func warpPerspective(
        _ src: CVMat, homography: [Double], width: Int, height: Int,
        interpolation: CVInterpolation = .linear, border: CVBorder = .zero, inverseMap: Bool = false
    ) throws -> CVMat {
        let (cols, rows) = try size(width, height, "warpPerspective")
        var handle: OpaquePointer?
        try Shim.call("warpPerspective") {
            dc_warp_perspective(src.handle, homography, Int32(clamping: homography.count), cols, rows,
                                interpolation.code, border.code, border.value, inverseMap ? 1 : 0, &handle, $0)
        }
        return try CVMat(adopting: handle!)
    }

    /// Resamples `src` through per-pixel maps: dst(x, y) = src(mapX(x, y), mapY(x, y)).
    /// The maps are float32, 1 channel, of equal size, which is the size of the
    /// result; they hold source coordinates (pixel centres at integers).
    /// Positions are quantized to 1/32 pixel before interpolating.
    public static func remap(
        _ src: CVMat, mapX: CVMat, mapY: CVMat,
        interpolation: CVInterpolation = .linear, border: CVBorder = .zero
    ) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("remap") {
            dc_remap(src.handle, mapX.handle, mapY.handle, interpolation.code, border.code, border.value,
                     &handle, $0)
        }
        return try CVMat(adopting: handle!)
    }

    /// Resizes `src` to `width` x `height` (cv::resize). `.area` is the right
    /// choice for shrinking; pixel centres map as x_src = (x_dst + 0.5) * scale - 0.5.
    public static func resize(
        _ src: CVMat, width: Int, height: Int, interpolation: CVInterpolation = .linear
    ) throws -> CVMat {
        let (cols, rows) = try size(width, height, "resize")
        var handle: OpaquePointer?
        try Shim.call("resize") { dc_resize(src.handle, cols, rows, interpolation.code, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// Converts a BGR or BGRA matrix (RGB or RGBA with `rgbOrder`) to one
    /// channel (Y = 0.299 R + 0.587 G + 0.114 B, cv::cvtColor), keeping the
    /// depth (uint8, uint16 or float32); a 1-channel matrix is copied.
    public static func convertToGray(_ src: CVMat, rgbOrder: Bool = false) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("cvtColor") { dc_convert_to_gray(src.handle, rgbOrder ? 1 : 0, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// The values as `depth`: dst = src * scale + offset, integer results
    /// rounded to nearest and saturated (cv::Mat::convertTo); channels kept.
    public static func convert(
        _ src: CVMat, to depth: CVMat.Depth, scale: Double = 1, offset: Double = 0
    ) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("convertTo") { dc_convert_depth(src.handle, depth.rawValue, scale, offset, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// Gaussian blur with standard deviation `sigma` (> 0) pixels in x and y;
    /// the kernel size follows from sigma and borders are reflected.
    public static func gaussianBlur(_ src: CVMat, sigma: Double) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("GaussianBlur") { dc_gaussian_blur(src.handle, sigma, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// The size as C ints, or `.openCV(operation:message:)` when it does not fit.
    static func size(_ width: Int, _ height: Int, _ operation: String) throws -> (Int32, Int32) {
        guard let cols = Int32(exactly: width), let rows = Int32(exactly: height) else {
            throw DualcamError.openCV(operation: operation, message: "output size \(width)x\(height) is too large")
        }
        return (cols, rows)
    }
}
