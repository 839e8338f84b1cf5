import COpenCVShim
import DualcamSupport

/// Camera buffer conversions for V4L2 capture.
public enum CVCapture {
    /// A packed YUYV 4:2:2 buffer (rows `bytesPerLine` apart) as an 8-bit BGR
    /// matrix (cv::cvtColor COLOR_YUV2BGR_YUYV).
    public static func yuyvToBGR(_ bytes: [UInt8], width: Int, height: Int, bytesPerLine: Int) throws -> CVMat {
        var handle: OpaquePointer?
        try bytes.withUnsafeBytes { raw in
            try Shim.call("cvtColor YUYV") {
                dc_yuyv_to_bgr(raw.baseAddress, raw.count, Int32(clamping: width), Int32(clamping: height),
                               Int32(clamping: bytesPerLine), &handle, $0)
            }
        }
        return try CVMat(adopting: handle!)
    }
}
