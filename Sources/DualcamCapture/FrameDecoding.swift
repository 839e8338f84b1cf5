import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import DualcamV4L2

/// Raw V4L2 buffers to 8-bit RGB images: YUYV through cv::cvtColor, MJPEG/JPEG
/// through cv::imdecode, GREY and RGB24 copied.
public enum FrameDecoding {
    /// Formats this module can decode.
    public static let supported: [PixelFormat] = [.yuyv, .mjpeg, .jpeg, .grey, .rgb24]

    public static func image(_ frame: RawFrame, device: String) throws -> Image {
        let f = frame.format
        let w = f.size.width, h = f.size.height
        do {
            switch f.pixelFormat {
            case .yuyv:
                let bpl = f.bytesPerLine > 0 ? f.bytesPerLine : 2 * w
                return try Image(CVCapture.yuyvToBGR(frame.bytes, width: w, height: h, bytesPerLine: bpl))
            case .mjpeg, .jpeg:
                let image = try Image(CVCodecs.decode(frame.bytes, mode: .color))
                guard image.width == w, image.height == h else {
                    throw DualcamError.format(path: device, reason: "JPEG frame is \(image.width)x\(image.height), the stream is \(w)x\(h)")
                }
                return image
            case .grey, .rgb24:
                let channels = f.pixelFormat == .grey ? 1 : 3
                let bpl = f.bytesPerLine > 0 ? f.bytesPerLine : w * channels
                guard frame.bytes.count >= bpl * (h - 1) + w * channels else {
                    throw DualcamError.format(path: device, reason: "frame of \(frame.bytes.count) bytes is too short for \(w)x\(h)")
                }
                var packed = [UInt8](repeating: 0, count: w * h * channels)
                for y in 0..<h {
                    packed.replaceSubrange(y * w * channels..<(y + 1) * w * channels,
                                           with: frame.bytes[y * bpl..<y * bpl + w * channels])
                }
                return try Image(width: w, height: h, channels: channels, element: .uint8, bytes: packed)
            default:
                throw DualcamError.format(path: device, reason: "cannot decode \(f.pixelFormat) frames (dualcam decodes \(supported.map(\.fourcc).joined(separator: ", ")))")
            }
        } catch let error as DualcamError {
            if case .format = error { throw error }
            throw DualcamError.format(path: device, reason: "frame \(frame.sequence) (\(f.pixelFormat)) cannot be decoded: \(error)")
        }
    }
}
