import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open V4L2 video capture node: capability check, format enumeration and
/// negotiation. Streaming (buffers, frames) is in V4L2Device+Streaming.swift.
///
/// Every system call goes through `system` (``LinuxV4L2System`` or a fake) and
/// is retried while it fails with EINTR.
public final class V4L2Device {
    public let path: String
    public let system: V4L2System
    public let capabilities: DeviceCapabilities
    let fd: Int32

    // Streaming state.
    var buffers: [MappedBuffer] = []
    var isStreaming = false
    var negotiated: NegotiatedFormat?
    var lastSequence: UInt32?
    var lastTimestampNs: Int64?
    var pendingError: V4L2Error?
    /// Counters since STREAMON.
    public internal(set) var statistics = StreamStatistics()

    /// Opens `path` and checks it is a single-planar V4L2 capture device with
    /// streaming I/O. Errors: ``V4L2Error/cannotOpen(path:reason:)``,
    /// ``V4L2Error/notV4L2Device(path:)`` (ENOTTY/EINVAL on QUERYCAP, e.g. /dev/null
    /// or a regular file), ``V4L2Error/noCaptureCapability(path:card:detail:)``.
    public init(path: String, system: V4L2System = LinuxV4L2System()) throws {
        self.path = path
        self.system = system
        let fd: Int32
        do {
            fd = try retryingEINTR { try system.open(path) }
        } catch let error as SyscallError {
            throw V4L2Error.cannotOpen(path: path, reason: error.reason)
        }
        var cap = v4l2_capability()
        do {
            try retryingEINTR { try system.ioctl(fd, V4L2Request.querycap, &cap) }
        } catch let error as SyscallError {
            system.close(fd)
            if error.code == ENOTTY || error.code == EINVAL { throw V4L2Error.notV4L2Device(path: path) }
            throw V4L2Error.syscall(path: path, error)
        }
        let caps = DeviceCapabilities(
            driver: cString(tuple: &cap.driver), card: cString(tuple: &cap.card), busInfo: cString(tuple: &cap.bus_info),
            deviceCaps: cap.capabilities & DC_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        )
        guard caps.canCapture, caps.canStream else {
            system.close(fd)
            let detail: String
            if caps.canCaptureMultiplanar {
                detail = "only multi-planar capture, which dualcam does not support"
            } else if caps.canCapture {
                detail = "no streaming I/O"
            } else {
                detail = String(format16: caps.deviceCaps)
            }
            throw V4L2Error.noCaptureCapability(path: path, card: caps.card, detail: detail)
        }
        self.fd = fd
        self.capabilities = caps
    }

    deinit {
        if isStreaming { try? stopStreaming() }
        releaseBuffers()
        system.close(fd)
    }

    // MARK: Enumeration

    /// VIDIOC_ENUM_FMT for video capture, in driver order.
    public func formats() throws -> [FormatDescription] {
        var result: [FormatDescription] = []
        for index in 0..<UInt32(256) {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = DC_BUF_TYPE_VIDEO_CAPTURE
            guard try enumerate({ try system.ioctl(fd, V4L2Request.enumFmt, &desc) }) else { break }
            result.append(FormatDescription(
                pixelFormat: PixelFormat(code: desc.pixelformat), name: cString(tuple: &desc.description),
                isCompressed: desc.flags & DC_FMT_FLAG_COMPRESSED != 0
            ))
        }
        return result
    }

    /// VIDIOC_ENUM_FRAMESIZES for one pixel format (empty discrete list when the
    /// driver does not enumerate sizes).
    public func frameSizes(_ format: PixelFormat) throws -> FrameSizes {
        var sizes: [FrameSize] = []
        for index in 0..<UInt32(256) {
            var e = v4l2_frmsizeenum()
            e.index = index
            e.pixel_format = format.code
            guard try enumerate({ try system.ioctl(fd, V4L2Request.enumFrameSizes, &e) }) else { break }
            if e.type == DC_FRMSIZE_TYPE_DISCRETE {
                sizes.append(FrameSize(width: Int(e.discrete.width), height: Int(e.discrete.height)))
            } else {
                let s = e.stepwise
                return .stepwise(
                    min: FrameSize(width: Int(s.min_width), height: Int(s.min_height)),
                    max: FrameSize(width: Int(s.max_width), height: Int(s.max_height)),
                    stepWidth: Int(s.step_width), stepHeight: Int(s.step_height)
                )
            }
        }
        return .discrete(sizes)
    }

    /// VIDIOC_ENUM_FRAMEINTERVALS for one format and size.
    public func frameIntervals(_ format: PixelFormat, _ size: FrameSize) throws -> FrameIntervals {
        var intervals: [FrameInterval] = []
        for index in 0..<UInt32(256) {
            var e = v4l2_frmivalenum()
            e.index = index
            e.pixel_format = format.code
            e.width = UInt32(size.width)
            e.height = UInt32(size.height)
            guard try enumerate({ try system.ioctl(fd, V4L2Request.enumFrameIntervals, &e) }) else { break }
            if e.type == DC_FRMIVAL_TYPE_DISCRETE {
                intervals.append(FrameInterval(numerator: e.discrete.numerator, denominator: e.discrete.denominator))
            } else {
                let s = e.stepwise
                return .stepwise(
                    min: FrameInterval(numerator: s.min.numerator, denominator: s.min.denominator),
                    max: FrameInterval(numerator: s.max.numerator, denominator: s.max.denominator),
                    step: FrameInterval(numerator: s.step.numerator, denominator: s.step.denominator)
                )
            }
        }
        return .discrete(intervals)
    }

    /// Every (format, size, rate) the device enumerates, formats in driver order,
    /// sizes largest first, rates highest first.
    public func modes() throws -> [CaptureMode] {
        var modes: [CaptureMode] = []
        for format in try formats() {
            for size in try frameSizes(format.pixelFormat).candidates {
                for fps in try frameIntervals(format.pixelFormat, size).candidateRates {
                    modes.append(CaptureMode(pixelFormat: format.pixelFormat, size: size, framesPerSecond: fps))
                }
            }
        }
        return modes
    }

    // MARK: Negotiation

    /// VIDIOC_S_FMT. Drivers adjust a request to what they support; this returns
    /// what the driver chose, and fails with ``V4L2Error/unsupportedFormat(path:requested:available:)``
    /// when the driver picked another pixel format.
    @discardableResult
    public func setFormat(_ format: PixelFormat, size: FrameSize) throws -> NegotiatedFormat {
        var f = v4l2_format()
        f.type = DC_BUF_TYPE_VIDEO_CAPTURE
        f.fmt.pix.width = UInt32(size.width)
        f.fmt.pix.height = UInt32(size.height)
        f.fmt.pix.pixelformat = format.code
        f.fmt.pix.field = DC_FIELD_ANY
        try call { try system.ioctl(fd, V4L2Request.sFmt, &f) }
        let chosen = NegotiatedFormat(
            pixelFormat: PixelFormat(code: f.fmt.pix.pixelformat),
            size: FrameSize(width: Int(f.fmt.pix.width), height: Int(f.fmt.pix.height)),
            bytesPerLine: Int(f.fmt.pix.bytesperline), imageSize: Int(f.fmt.pix.sizeimage)
        )
        guard chosen.pixelFormat == format else {
            throw V4L2Error.unsupportedFormat(
                path: path, requested: format.fourcc, available: (try? formats())?.map(\.pixelFormat.fourcc) ?? [])
        }
        negotiated = chosen
        return chosen
    }

    /// VIDIOC_S_PARM with the interval for `framesPerSecond`. Returns the rate the
    /// driver chose, or nil when it cannot set the rate (no V4L2_CAP_TIMEPERFRAME).
    @discardableResult
    public func setFrameRate(_ framesPerSecond: Double) throws -> Double? {
        var p = v4l2_streamparm()
        p.type = DC_BUF_TYPE_VIDEO_CAPTURE
        let interval = FrameInterval(framesPerSecond: framesPerSecond)
        p.parm.capture.timeperframe.numerator = interval.numerator
        p.parm.capture.timeperframe.denominator = interval.denominator
        do {
            try retryingEINTR { try system.ioctl(fd, V4L2Request.sParm, &p) }
        } catch let error as SyscallError where error.code == ENOTTY || error.code == EINVAL {
            return nil
        } catch let error as SyscallError {
            throw V4L2Error.syscall(path: path, error)
        }
        guard p.parm.capture.capability & DC_CAP_TIMEPERFRAME != 0 else { return nil }
        let t = p.parm.capture.timeperframe
        return FrameInterval(numerator: t.numerator, denominator: t.denominator).framesPerSecond
    }

    /// Sets format, size and rate; returns the negotiated format and rate.
    public func configure(_ mode: CaptureMode) throws -> (format: NegotiatedFormat, framesPerSecond: Double?) {
        let format = try setFormat(mode.pixelFormat, size: mode.size)
        return (format, try setFrameRate(mode.framesPerSecond))
    }

    // MARK: Helpers

    /// Runs an enumeration ioctl: true for an entry, false at the end (EINVAL).
    func enumerate(_ body: () throws -> Void) throws -> Bool {
        do {
            try retryingEINTR(body)
            return true
        } catch let error as SyscallError where error.code == EINVAL || error.code == ENOTTY {
            return false
        } catch let error as SyscallError {
            throw mapped(error)
        }
    }

    /// Runs a call, retrying EINTR, mapping failures to ``V4L2Error``.
    func call(_ body: () throws -> Void) throws {
        do {
            try retryingEINTR(body)
        } catch let error as SyscallError {
            throw mapped(error)
        }
    }

    func mapped(_ error: SyscallError) -> V4L2Error {
        if error.code == ENODEV || error.code == EIO || error.code == ENXIO {
            return .deviceLost(path: path, reason: "\(error.call): \(error.reason)")
        }
        return .syscall(path: path, error)
    }
}

/// Retries a system call while it fails with EINTR (a signal interrupted it).
/// Gives up after 1000 consecutive interruptions, reporting the last one.
func retryingEINTR<T>(_ body: () throws -> T) throws -> T {
    var attempts = 0
    while true {
        do {
            return try body()
        } catch let error as SyscallError where error.code == EINTR && attempts < 1000 {
            attempts += 1
        }
    }
}

/// A NUL-terminated C char array (imported as a tuple) as a String.
func cString<T>(tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    init(format16 caps: UInt32) {
        self = "capabilities 0x" + String(caps, radix: 16)
    }
}
