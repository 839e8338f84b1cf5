import COpenCVShim
import DualcamSupport

/// Remap maps prepared once for `CVImgproc.remap`-style resampling of many
/// images: the float32 maps are converted (cv::convertMaps) to OpenCV's
/// fixed-point form, 16-bit integer positions plus 1/32-pixel fractions, and
/// kept on the OpenCV side, so applying the table copies no maps.
///
/// Precision: positions are quantized to 1/32 pixel, which `cv::remap` does
/// anyway when it interpolates from float maps, so `apply` matches
/// `CVImgproc.remap` for linear, cubic and lanczos4 interpolation. Nearest
/// is rejected (fixed-point positions would truncate instead of rounding).
/// Immutable after creation; `apply` may run concurrently.
public final class CVRemapTable: @unchecked Sendable {
    let handle: OpaquePointer
    /// Size of every result.
    public let rows: Int, cols: Int

    /// Prepares float32 1-channel maps of equal size holding source coordinates.
    public init(mapX: CVMat, mapY: CVMat) throws {
        var handle: OpaquePointer?
        try Shim.call("convertMaps") { dc_remap_table_create(mapX.handle, mapY.handle, &handle, $0) }
        self.handle = handle!
        rows = mapX.rows
        cols = mapX.cols
    }

    deinit { dc_remap_table_free(handle) }

    /// dst(x, y) = src(mapX(x, y), mapY(x, y)), `border` outside `src`.
    public func apply(
        _ src: CVMat, interpolation: CVInterpolation = .linear, border: CVBorder = .zero
    ) throws -> CVMat {
        var result: OpaquePointer?
        try Shim.call("remap") {
            dc_remap_table_apply(handle, src.handle, interpolation.code, border.code, border.value, &result, $0)
        }
        return try CVMat(adopting: result!)
    }
}
