import DualcamV4L2
import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fake kernel for tests: V4L2 devices answered by reading and writing the
/// real v4l2 structs, with scripted frames and injected errors. It behaves like
/// a driver where tests need it: S_FMT adjusts to the nearest supported size
/// (and falls back to the first format), S_PARM picks the nearest rate, buffers
/// cycle through QBUF/DQBUF in FIFO order, a scripted frame becomes ready when
/// the fake clock reaches its timestamp (poll moves the clock forward to the
/// next one), DQBUF returns EAGAIN when no frame is ready, and STREAMON fails with ENOSPC when the streams on one fake USB bus
/// exceed ``USBBandwidth`` (cost >= 1).
public final class FakeV4L2System: V4L2System {
    /// One pixel format: sizes with their frame rates.
    public struct Format {
        public var pixelFormat: PixelFormat
        public var name: String
        public var sizes: [(size: FrameSize, rates: [Double])]

        public init(_ pixelFormat: PixelFormat, name: String? = nil, sizes: [(FrameSize, [Double])]) {
            self.pixelFormat = pixelFormat
            self.name = name ?? pixelFormat.fourcc
            self.sizes = sizes.map { (size: $0.0, rates: $0.1) }
        }
    }

    /// What the next DQBUF returns.
    public enum Event {
        /// A frame. `flags` defaults to a monotonic timestamp; `payload` to a
        /// pattern filling the buffer (nil). `corrupt` sets V4L2_BUF_FLAG_ERROR.
        case frame(timestampNs: Int64, sequence: UInt32, flags: UInt32 = DC_BUF_FLAG_TIMESTAMP_MONOTONIC,
                   payload: [UInt8]? = nil, corrupt: Bool = false)
        /// DQBUF fails with this errno; ENODEV/EIO also make the device gone for good.
        case fail(Int32)
    }

    public final class Device {
        public var driver = "fake"
        public var card: String
        public var busInfo: String
        /// `device_caps` (V4L2_CAP_DEVICE_CAPS is always set in `capabilities`).
        public var deviceCaps: UInt32 = DC_CAP_VIDEO_CAPTURE | DC_CAP_STREAMING
        public var formats: [Format]
        public var supportsFrameRate = true
        /// The fake USB controller this device is on (for the bandwidth check).
        public var bus = 0
        public var events: [Event]
        /// Payload for frames scripted without one.
        public var makePayload: ((UInt32, NegotiatedFormat) -> [UInt8])?

        // Driver state.
        public internal(set) var format: NegotiatedFormat
        public internal(set) var framesPerSecond: Double
        public internal(set) var streaming = false
        public internal(set) var gone = false
        var memory: [UnsafeMutableRawBufferPointer] = []
        var queued: [Int] = []
        var delivered: Set<Int> = []

        public init(card: String, formats: [Format], events: [Event] = []) {
            self.card = card
            self.busInfo = "usb-fake-\(card)"
            self.formats = formats
            self.events = events
            let first = formats.first?.sizes.first
            let pf = formats.first?.pixelFormat ?? .yuyv
            format = FakeV4L2System.negotiated(pf, first?.size ?? FrameSize(width: 640, height: 480))
            framesPerSecond = first?.rates.first ?? 30
        }

        deinit {
            for m in memory { m.deallocate() }
        }

        public var mode: CaptureMode { CaptureMode(pixelFormat: format.pixelFormat, size: format.size, framesPerSecond: framesPerSecond) }
        /// Buffers currently queued to the driver.
        public var queuedBufferCount: Int { queued.count }
        public var bufferCount: Int { memory.count }
    }

    /// One injected failure: the next `times` calls named `call` (e.g.
    /// "VIDIOC_STREAMON", "VIDIOC_DQBUF", "poll", "open") on `path` (any when nil)
    /// fail with `code`.
    public struct Injection {
        public var call: String
        public var code: Int32
        public var path: String?
        public var times: Int
    }

    public var devices: [String: Device] = [:]
    /// Paths that open but answer every ioctl with ENOTTY (regular files, /dev/null).
    public var plainFiles: Set<String> = []
    public var injections: [Injection] = []
    /// Bandwidth check at STREAMON (set false to accept any stream).
    public var enforcesBandwidth = true
    /// The fake CLOCK_MONOTONIC; poll moves it to the next frame, a delivered
    /// frame to its timestamp + 1 ms at least.
    public var clockNs: Int64 = 1_000_000_000
    /// Every call made, as "path CALL" (for tests of call order and retries).
    public private(set) var log: [String] = []

    private var openFiles: [Int32: String] = [:]
    private var nextFD: Int32 = 10

    public init() {}

    public func add(_ path: String, _ device: Device) { devices[path] = device }

    public func inject(_ code: Int32, on call: String, path: String? = nil, times: Int = 1) {
        injections.append(Injection(call: call, code: code, path: path, times: times))
    }

    static func negotiated(_ pf: PixelFormat, _ size: FrameSize) -> NegotiatedFormat {
        let compressed = pf.isCompressed
        let bpl = compressed ? 0 : Int(Double(size.width) * USBBandwidth.bytesPerPixel(pf))
        return NegotiatedFormat(pixelFormat: pf, size: size, bytesPerLine: bpl,
                                imageSize: compressed ? size.pixels : bpl * size.height)
    }

    private func injected(_ call: String, _ path: String) throws {
        if let i = injections.firstIndex(where: { $0.call == call && $0.times > 0 && ($0.path == nil || $0.path == path) }) {
            injections[i].times -= 1
            throw SyscallError(call: call, code: injections[i].code)
        }
    }

    // MARK: V4L2System

    public func open(_ path: String) throws -> Int32 {
        log.append("\(path) open")
        try injected("open", path)
        guard devices[path] != nil || plainFiles.contains(path) else { throw SyscallError(call: "open", code: ENOENT) }
        let fd = nextFD
        nextFD += 1
        openFiles[fd] = path
        return fd
    }

    public func close(_ fd: Int32) {
        if let path = openFiles.removeValue(forKey: fd) { log.append("\(path) close") }
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer) throws {
        let name = V4L2Request.name(request)
        guard let path = openFiles[fd] else { throw SyscallError(call: name, code: EBADF) }
        log.append("\(path) \(name)")
        try injected(name, path)
        guard let device = devices[path] else { throw SyscallError(call: name, code: ENOTTY) }
        if device.gone { throw SyscallError(call: name, code: ENODEV) }
        try FakeDriver(system: self, device: device, name: name).handle(request, arg)
    }

    public func mmap(_ fd: Int32, length: Int, offset: Int) throws -> UnsafeMutableRawPointer {
        guard let path = openFiles[fd], let device = devices[path] else { throw SyscallError(call: "mmap", code: ENODEV) }
        log.append("\(path) mmap")
        try injected("mmap", path)
        let index = offset / FakeDriver.offsetStride
        guard index < device.memory.count, device.memory[index].count == length else { throw SyscallError(call: "mmap", code: EINVAL) }
        return device.memory[index].baseAddress!
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {}

    public func poll(_ fds: [Int32], timeoutMs: Int32) throws -> [PollResult] {
        try injected("poll", fds.compactMap { openFiles[$0] }.first ?? "")
        let polled = fds.map { fd in openFiles[fd].flatMap { devices[$0] } }
        // Time passes until the earliest scripted frame when nothing is ready
        // yet (a real camera delivers it then); with no frames left, until the timeout.
        if !polled.contains(where: { $0.map(isReady) ?? true }) {
            let upcoming = polled.compactMap { d -> Int64? in
                guard let d, d.streaming, !d.queued.isEmpty, case let .frame(t, _, _, _, _)? = d.events.first else { return nil }
                return t
            }
            if let t = upcoming.min() { clockNs = max(clockNs, t) } else { clockNs += Int64(max(timeoutMs, 0)) * 1_000_000 }
        }
        return polled.map { d -> PollResult in
            guard let d, d.streaming, !d.gone else { return PollResult(readable: false, failed: true) }
            switch d.events.first {
            case .fail?: return PollResult(readable: false, failed: true)
            case .frame?: return PollResult(readable: isReady(d), failed: false)
            case nil: return PollResult(readable: false, failed: false)
            }
        }
    }

    /// A frame is ready once the clock reached its timestamp (and a buffer is queued).
    func isReady(_ d: Device) -> Bool {
        guard d.streaming, !d.gone else { return true }
        switch d.events.first {
        case .fail?: return true
        case let .frame(t, _, _, _, _)?: return !d.queued.isEmpty && t <= clockNs
        case nil: return false
        }
    }

    public func monotonicNanoseconds() -> Int64 { clockNs }

    /// True when streams on `bus` plus `mode` fit the USB budget.
    func fits(_ mode: CaptureMode, bus: Int, except device: Device) -> Bool {
        guard enforcesBandwidth else { return true }
        let others = devices.values.filter { $0 !== device && $0.streaming && $0.bus == bus }.map(\.mode)
        return USBBandwidth.cost(others + [mode]) < 1
    }
}
