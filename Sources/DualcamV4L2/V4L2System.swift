import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call: which call and the `errno` it left.
public struct SyscallError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `strerror(code)`, e.g. "No space left on device".
    public var reason: String { errnoDescription(code) }
    public var description: String { "\(call): \(reason) (errno \(code))" }
}

/// The text of an errno value.
public func errnoDescription(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

/// One file descriptor to wait on and what `poll` reported for it.
public struct PollResult: Equatable, Sendable {
    /// POLLIN: a buffer can be dequeued.
    public var readable: Bool
    /// POLLERR/POLLHUP/POLLNVAL: the device failed (a DQBUF will say why).
    public var failed: Bool

    public init(readable: Bool, failed: Bool) {
        self.readable = readable
        self.failed = failed
    }

    public var isReady: Bool { readable || failed }
}

/// Every system call the V4L2 code makes, behind one small interface so a fake
/// device (``FakeV4L2System``) can stand in for the kernel in tests. Calls do
/// not retry on EINTR; ``V4L2Device`` does (and tests inject EINTR to check).
public protocol V4L2System: AnyObject {
    /// `open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)`; returns the descriptor.
    func open(_ path: String) throws -> Int32
    func close(_ fd: Int32)
    /// `ioctl(fd, request, arg)` where `arg` points at the request's v4l2 struct.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) throws
    /// `mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`.
    func mmap(_ fd: Int32, length: Int, offset: Int) throws -> UnsafeMutableRawPointer
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// `poll` on several descriptors for POLLIN; returns one result per descriptor
    /// (all not ready on timeout).
    func poll(_ fds: [Int32], timeoutMs: Int32) throws -> [PollResult]
    /// CLOCK_MONOTONIC now, in nanoseconds.
    func monotonicNanoseconds() -> Int64
}

extension V4L2System {
    /// Runs an ioctl on a typed struct.
    func ioctl<T>(_ fd: Int32, _ request: UInt, _ value: inout T) throws {
        try withUnsafeMutableBytes(of: &value) { raw in
            try ioctl(fd, request, raw.baseAddress!)
        }
    }
}

/// The real Linux system calls.
public final class LinuxV4L2System: V4L2System {
    public init() {}

    public func open(_ path: String) throws -> Int32 {
        let fd = dc_open(path, dc_open_flags_rdwr_nonblock())
        if fd < 0 { throw SyscallError(call: "open", code: dc_errno()) }
        return fd
    }

    public func close(_ fd: Int32) { _ = dc_close(fd) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) throws {
        if dc_ioctl(fd, request, arg) < 0 {
            throw SyscallError(call: V4L2Request.name(request), code: dc_errno())
        }
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws -> UnsafeMutableRawPointer {
        guard let p = dc_mmap(fd, length, offset), dc_mmap_failed(p) == 0 else {
            throw SyscallError(call: "mmap", code: dc_errno())
        }
        return p
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = dc_munmap(address, length) }

    public func poll(_ fds: [Int32], timeoutMs: Int32) throws -> [PollResult] {
        var entries = fds.map { pollfd(fd: $0, events: dc_poll_in(), revents: 0) }
        let n = entries.withUnsafeMutableBufferPointer { dc_poll($0.baseAddress, UInt($0.count), timeoutMs) }
        if n < 0 { throw SyscallError(call: "poll", code: dc_errno()) }
        return entries.map {
            PollResult(readable: $0.revents & dc_poll_in() != 0, failed: $0.revents & dc_poll_error_mask() != 0)
        }
    }

    public func monotonicNanoseconds() -> Int64 { Int64(dc_monotonic_ns()) }
}

/// The ioctl request codes dualcam uses, with names for messages.
public enum V4L2Request {
    public static let querycap = UInt(DC_VIDIOC_QUERYCAP)
    public static let enumFmt = UInt(DC_VIDIOC_ENUM_FMT)
    public static let enumFrameSizes = UInt(DC_VIDIOC_ENUM_FRAMESIZES)
    public static let enumFrameIntervals = UInt(DC_VIDIOC_ENUM_FRAMEINTERVALS)
    public static let gFmt = UInt(DC_VIDIOC_G_FMT)
    public static let sFmt = UInt(DC_VIDIOC_S_FMT)
    public static let gParm = UInt(DC_VIDIOC_G_PARM)
    public static let sParm = UInt(DC_VIDIOC_S_PARM)
    public static let reqbufs = UInt(DC_VIDIOC_REQBUFS)
    public static let querybuf = UInt(DC_VIDIOC_QUERYBUF)
    public static let qbuf = UInt(DC_VIDIOC_QBUF)
    public static let dqbuf = UInt(DC_VIDIOC_DQBUF)
    public static let streamon = UInt(DC_VIDIOC_STREAMON)
    public static let streamoff = UInt(DC_VIDIOC_STREAMOFF)

    public static func name(_ request: UInt) -> String {
        switch request {
        case querycap: return "VIDIOC_QUERYCAP"
        case enumFmt: return "VIDIOC_ENUM_FMT"
        case enumFrameSizes: return "VIDIOC_ENUM_FRAMESIZES"
        case enumFrameIntervals: return "VIDIOC_ENUM_FRAMEINTERVALS"
        case gFmt: return "VIDIOC_G_FMT"
        case sFmt: return "VIDIOC_S_FMT"
        case gParm: return "VIDIOC_G_PARM"
        case sParm: return "VIDIOC_S_PARM"
        case reqbufs: return "VIDIOC_REQBUFS"
        case querybuf: return "VIDIOC_QUERYBUF"
        case qbuf: return "VIDIOC_QBUF"
        case dqbuf: return "VIDIOC_DQBUF"
        case streamon: return "VIDIOC_STREAMON"
        case streamoff: return "VIDIOC_STREAMOFF"
        default: return "ioctl 0x" + String(request, radix: 16)
        }
    }
}
