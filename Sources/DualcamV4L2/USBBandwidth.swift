/// Estimated USB bandwidth of V4L2 streams: the Linux analog of a multi-camera
/// hardware cost (docs/conventions.md, "USB bandwidth").
///
/// Budget (USB 2.0 high speed, 8000 microframes of 125 us per second):
/// - one isochronous endpoint moves at most 3 x 1024 bytes per microframe
///   = 24 576 000 bytes/s, so one UVC stream can never need more than that;
/// - periodic (isochronous + interrupt) transfers may use at most 80 % of each
///   microframe (USB 2.0 spec 5.6.4): 0.8 x 7500 bytes x 8000 = 48 000 000 bytes/s
///   shared by every camera on the controller.
/// Stream estimates:
/// - uncompressed: width x height x bytes per pixel x fps (YUYV/UYVY 2, RGB24 3,
///   NV12 1.5, GREY 1);
/// - MJPEG/JPEG: an estimate, since the compressed size depends on the scene and
///   quality: 0.25 bytes (2 bits) per pixel, i.e. 1/8 of YUYV, a typical
///   high-quality webcam JPEG. Many UVC cameras reserve more than they send for
///   MJPEG (the driver asks the camera), so a pair near the budget may still fail.
public enum USBBandwidth {
    public static let microframesPerSecond = 8000.0
    /// 3 x 1024 bytes per microframe for one high-bandwidth isochronous endpoint.
    public static let endpointBytesPerSecond = 3.0 * 1024.0 * microframesPerSecond
    /// 80 % of the 7500-byte microframe for periodic transfers.
    public static let busBytesPerSecond = 0.8 * 7500.0 * microframesPerSecond
    /// Bytes per pixel assumed for a compressed (MJPEG) frame.
    public static let mjpegBytesPerPixel = 0.25

    /// Bytes per pixel of a frame in `format` (the MJPEG estimate for compressed formats).
    public static func bytesPerPixel(_ format: PixelFormat) -> Double {
        switch format {
        case .mjpeg, .jpeg: return mjpegBytesPerPixel
        case .rgb24: return 3
        case .nv12: return 1.5
        case .grey: return 1
        default: return 2  // YUYV, UYVY and other packed 4:2:2
        }
    }

    /// Estimated bytes per second of one stream.
    public static func bytesPerSecond(_ mode: CaptureMode) -> Double {
        Double(mode.size.pixels) * bytesPerPixel(mode.pixelFormat) * mode.framesPerSecond
    }

    /// The cost of streams sharing one controller: the larger of (sum / bus
    /// budget) and (each stream / endpoint limit). Below 1 the estimate says the
    /// streams fit; at or above 1 STREAMON is expected to fail with ENOSPC.
    public static func cost(_ modes: [CaptureMode]) -> Double {
        let rates = modes.map(bytesPerSecond)
        let bus = rates.reduce(0, +) / busBytesPerSecond
        let endpoint = (rates.max() ?? 0) / endpointBytesPerSecond
        return max(bus, endpoint)
    }

    public static var budgetDescription: String {
        "USB 2.0 high speed: \(megabytes(busBytesPerSecond)) for all isochronous streams on one controller, at most \(megabytes(endpointBytesPerSecond)) per camera"
    }

    /// "YUYV 1280x720 @ 30 fps needs 55.3 MB/s + ... = cost 2.30 of USB 2.0 high speed: ..."
    public static func explain(_ modes: [CaptureMode]) -> String {
        let parts = modes.map { "\($0) needs \(megabytes(bytesPerSecond($0)))" }
        let total = modes.map(bytesPerSecond).reduce(0, +)
        let sum = modes.count > 1 ? " (total \(megabytes(total)))" : ""
        return parts.joined(separator: ", ") + sum + "; estimated cost " + fixed2(cost(modes)) + " of the " + budgetDescription
    }

    static func megabytes(_ bytesPerSecond: Double) -> String {
        let tenths = Int((bytesPerSecond / 1e5).rounded())
        return "\(tenths / 10).\(tenths % 10) MB/s"
    }

    static func fixed2(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}
