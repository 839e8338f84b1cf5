import COpenCVShim
import DualcamSupport

/// OpenCV's colour maps and text rendering (cv::applyColorMap, cv::putText,
/// cv::getTextSize with FONT_HERSHEY_SIMPLEX), for previews with legends.
public enum CVDrawing {
    public enum ColorMap: Sendable, CaseIterable {
        /// 0 blue -> cyan -> yellow -> 255 red.
        case jet
        /// A smoother jet-like map (dark blue -> ... -> dark red).
        case turbo

        var code: Int32 { self == .jet ? Int32(DC_COLORMAP_JET) : Int32(DC_COLORMAP_TURBO) }
    }

    /// Maps a uint8 1-channel matrix through `map` into a uint8 BGR matrix.
    public static func applyColorMap(_ src: CVMat, _ map: ColorMap) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("applyColorMap") { dc_apply_color_map(src.handle, map.code, &handle, $0) }
        return try CVMat(adopting: handle!)
    }

    /// A copy of `src` (uint8) with ASCII `text` drawn anti-aliased, the
    /// baseline's left end at (x, y); `color` in the matrix's channel order (BGR).
    public static func putText(
        _ src: CVMat, _ text: String, x: Int, y: Int, scale: Double, thickness: Int, color: [Double]
    ) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("putText") {
            dc_put_text(src.handle, text, Int32(clamping: x), Int32(clamping: y), scale, Int32(clamping: thickness),
                        color, Int32(clamping: color.count), &handle, $0)
        }
        return try CVMat(adopting: handle!)
    }

    /// Width, height above the baseline and depth below it of `text` in pixels.
    public static func textSize(_ text: String, scale: Double, thickness: Int) throws -> (width: Int, height: Int, baseline: Int) {
        var width: Int32 = 0, height: Int32 = 0, baseline: Int32 = 0
        try Shim.call("getTextSize") { dc_text_size(text, scale, Int32(clamping: thickness), &width, &height, &baseline, $0) }
        return (Int(width), Int(height), Int(baseline))
    }
}
