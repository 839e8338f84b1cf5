/// The V4L2 errors a user sees, each one line naming the device.
public enum V4L2Error: Error, Equatable, CustomStringConvertible {
    /// The path could not be opened.
    case cannotOpen(path: String, reason: String)
    /// QUERYCAP failed with ENOTTY/EINVAL: a regular file, /dev/null, a directory...
    case notV4L2Device(path: String)
    /// A V4L2 device without single-planar video capture or streaming I/O.
    case noCaptureCapability(path: String, card: String, detail: String)
    /// The driver does not offer the requested pixel format.
    case unsupportedFormat(path: String, requested: String, available: [String])
    /// STREAMON failed with ENOSPC: the USB controller has no isochronous
    /// bandwidth left for this stream.
    case noBandwidth(path: String, mode: String, detail: String)
    /// ENODEV/EIO/ENXIO while streaming: the camera was unplugged or failed.
    case deviceLost(path: String, reason: String)
    /// Any other failed system call.
    case syscall(path: String, SyscallError)
    /// No frame arrived within the timeout.
    case timeout(path: String, milliseconds: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "\(path): cannot open: \(reason)"
        case let .notV4L2Device(path):
            return "\(path): not a V4L2 device (VIDIOC_QUERYCAP is not supported; expected a /dev/videoN capture node)"
        case let .noCaptureCapability(path, card, detail):
            return "\(path): '\(card)' is a V4L2 device without video capture (\(detail)); pick the capture node, e.g. another /dev/videoN of the same camera"
        case let .unsupportedFormat(path, requested, available):
            return "\(path): format \(requested) is not supported; the device offers \(available.isEmpty ? "no formats" : available.joined(separator: ", "))"
        case let .noBandwidth(path, mode, detail):
            return "\(path): VIDIOC_STREAMON failed with ENOSPC for \(mode): not enough USB bandwidth (\(detail)); lower the frame size or rate, use MJPEG, put the cameras on separate USB controllers, or pass --fit"
        case let .deviceLost(path, reason):
            return "\(path): device lost while streaming (\(reason)); capture stopped, frames already written are complete"
        case let .syscall(path, error):
            return "\(path): \(error)"
        case let .timeout(path, ms):
            return "\(path): no frame within \(ms) ms (is the camera streaming?)"
        }
    }
}
