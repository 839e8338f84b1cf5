import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a frame's timestamp came from.
public enum TimestampSource: String, Sendable, Equatable {
    /// The driver's buffer timestamp on CLOCK_MONOTONIC
    /// (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC; uvcvideo stamps the start of exposure).
    case driverMonotonic = "monotonic"
    /// The driver's clock is unknown or copied from elsewhere
    /// (TIMESTAMP_UNKNOWN / TIMESTAMP_COPY), so it cannot be compared with the
    /// other camera: the frame carries CLOCK_MONOTONIC read at dequeue time instead.
    case dequeueTime = "dequeue"
}

/// One captured frame with its raw bytes, copied out of the mmap buffer.
public struct RawFrame: Sendable {
    public var bytes: [UInt8]
    public var format: NegotiatedFormat
    /// The driver's frame counter (`v4l2_buffer.sequence`).
    public var sequence: UInt32
    /// Monotonic timestamp in nanoseconds (see ``timestampSource``).
    public var timestampNs: Int64
    public var timestampSource: TimestampSource
    /// Frames the driver skipped just before this one (sequence gap).
    public var droppedBefore: Int
}

/// Counters since STREAMON.
public struct StreamStatistics: Equatable, Sendable {
    public var frames = 0
    /// Sum of sequence gaps: frames the driver dropped.
    public var droppedFrames = 0
    /// Buffers the driver marked V4L2_BUF_FLAG_ERROR (discarded).
    public var corruptFrames = 0
    /// Frames whose driver timestamp did not increase (kept, counted).
    public var nonIncreasingTimestamps = 0
    /// Frames stamped at dequeue time because the driver clock is not monotonic.
    public var dequeueTimestamped = 0
    /// System calls retried after EINTR are not counted here (they are invisible
    /// to the stream); see ``V4L2Device`` for the retry rule.
    public init() {}
}

/// One mmap'ed driver buffer.
struct MappedBuffer {
    var address: UnsafeMutableRawPointer
    var length: Int
}

extension V4L2Device {
    /// The negotiated format (after ``setFormat(_:size:)``).
    public var format: NegotiatedFormat? { negotiated }

    /// REQBUFS (mmap), QUERYBUF + mmap each buffer, QBUF all, STREAMON.
    /// ENOSPC at STREAMON becomes ``V4L2Error/noBandwidth(path:mode:detail:)`` with
    /// the estimated bandwidth of `mode` against the USB 2.0 budget.
    public func startStreaming(bufferCount: Int = 4, mode: CaptureMode? = nil) throws {
        precondition(!isStreaming, "startStreaming called twice")
        if negotiated == nil {
            var f = v4l2_format()
            f.type = DC_BUF_TYPE_VIDEO_CAPTURE
            try call { try system.ioctl(fd, V4L2Request.gFmt, &f) }
            negotiated = NegotiatedFormat(
                pixelFormat: PixelFormat(code: f.fmt.pix.pixelformat),
                size: FrameSize(width: Int(f.fmt.pix.width), height: Int(f.fmt.pix.height)),
                bytesPerLine: Int(f.fmt.pix.bytesperline), imageSize: Int(f.fmt.pix.sizeimage))
        }
        var req = v4l2_requestbuffers()
        req.count = UInt32(bufferCount)
        req.type = DC_BUF_TYPE_VIDEO_CAPTURE
        req.memory = DC_MEMORY_MMAP
        try call { try system.ioctl(fd, V4L2Request.reqbufs, &req) }
        guard req.count >= 2 else {
            throw V4L2Error.syscall(path: path, SyscallError(call: "VIDIOC_REQBUFS (got \(req.count) buffers, need 2)", code: ENOMEM))
        }
        do {
            for index in 0..<req.count {
                var b = v4l2_buffer()
                b.index = index
                b.type = DC_BUF_TYPE_VIDEO_CAPTURE
                b.memory = DC_MEMORY_MMAP
                try call { try system.ioctl(fd, V4L2Request.querybuf, &b) }
                let length = Int(b.length), offset = Int(b.m.offset)
                let address: UnsafeMutableRawPointer
                do {
                    address = try retryingEINTR { try system.mmap(fd, length: length, offset: offset) }
                } catch let error as SyscallError {
                    throw mapped(error)
                }
                buffers.append(MappedBuffer(address: address, length: length))
            }
            for index in buffers.indices { try queue(index) }
            var type = Int32(DC_BUF_TYPE_VIDEO_CAPTURE)
            do {
                try retryingEINTR { try system.ioctl(fd, V4L2Request.streamon, &type) }
            } catch let error as SyscallError where error.code == ENOSPC {
                throw V4L2Error.noBandwidth(path: path, mode: mode?.description ?? "\(negotiated!.pixelFormat) \(negotiated!.size)",
                                            detail: mode.map { USBBandwidth.explain([$0]) } ?? USBBandwidth.budgetDescription)
            } catch let error as SyscallError {
                throw mapped(error)
            }
        } catch {
            releaseBuffers()
            throw error
        }
        isStreaming = true
        statistics = StreamStatistics()
        lastSequence = nil
        lastTimestampNs = nil
        pendingError = nil
    }

    /// STREAMOFF and release the buffers. Errors from a lost device are ignored
    /// (there is nothing left to stop).
    public func stopStreaming() throws {
        guard isStreaming else { return }
        isStreaming = false
        var type = Int32(DC_BUF_TYPE_VIDEO_CAPTURE)
        defer { releaseBuffers() }
        do {
            try retryingEINTR { try system.ioctl(fd, V4L2Request.streamoff, &type) }
        } catch let error as SyscallError where error.code == ENODEV || error.code == EIO || error.code == ENXIO {
            return
        } catch let error as SyscallError {
            throw V4L2Error.syscall(path: path, error)
        }
    }

    func releaseBuffers() {
        guard !buffers.isEmpty else { return }
        for b in buffers { system.munmap(b.address, length: b.length) }
        buffers.removeAll()
        var req = v4l2_requestbuffers()
        req.count = 0
        req.type = DC_BUF_TYPE_VIDEO_CAPTURE
        req.memory = DC_MEMORY_MMAP
        try? retryingEINTR { try system.ioctl(fd, V4L2Request.reqbufs, &req) }
    }

    func queue(_ index: Int) throws {
        var b = v4l2_buffer()
        b.index = UInt32(index)
        b.type = DC_BUF_TYPE_VIDEO_CAPTURE
        b.memory = DC_MEMORY_MMAP
        try call { try system.ioctl(fd, V4L2Request.qbuf, &b) }
    }

    /// Dequeues one ready buffer without waiting: nil when none is ready (EAGAIN).
    /// Throws ``V4L2Error/deviceLost(path:reason:)`` on ENODEV/EIO/ENXIO.
    public func dequeue() throws -> RawFrame? {
        precondition(isStreaming, "dequeue before startStreaming")
        if let error = pendingError { throw error }
        while true {
            var b = v4l2_buffer()
            b.type = DC_BUF_TYPE_VIDEO_CAPTURE
            b.memory = DC_MEMORY_MMAP
            do {
                try retryingEINTR { try system.ioctl(fd, V4L2Request.dqbuf, &b) }
            } catch let error as SyscallError where error.code == EAGAIN {
                return nil
            } catch let error as SyscallError {
                let mappedError = mapped(error)
                if case .deviceLost = mappedError { pendingError = mappedError }
                throw mappedError
            }
            let index = Int(b.index)
            guard index < buffers.count else {
                throw V4L2Error.syscall(path: path, SyscallError(call: "VIDIOC_DQBUF (buffer index \(index) out of range)", code: EINVAL))
            }
            if b.flags & DC_BUF_FLAG_ERROR != 0 {
                statistics.corruptFrames += 1
                try requeue(index)
                continue
            }
            let used = min(Int(b.bytesused), buffers[index].length)
            let bytes = [UInt8](UnsafeRawBufferPointer(start: buffers[index].address, count: used))
            let frame = stamp(b, bytes: bytes)
            do {
                try requeue(index)
            } catch let error as V4L2Error {
                pendingError = error  // deliver this frame; the next call reports the loss
            }
            return frame
        }
    }

    private func requeue(_ index: Int) throws { try queue(index) }

    /// Timestamp and sequence bookkeeping for one dequeued buffer.
    private func stamp(_ b: v4l2_buffer, bytes: [UInt8]) -> RawFrame {
        let timestampNs: Int64
        let source: TimestampSource
        if b.flags & DC_BUF_FLAG_TIMESTAMP_MASK == DC_BUF_FLAG_TIMESTAMP_MONOTONIC {
            timestampNs = Int64(b.timestamp.tv_sec) * 1_000_000_000 + Int64(b.timestamp.tv_usec) * 1000
            source = .driverMonotonic
        } else {
            timestampNs = system.monotonicNanoseconds()
            source = .dequeueTime
            statistics.dequeueTimestamped += 1
        }
        if let last = lastTimestampNs, timestampNs <= last { statistics.nonIncreasingTimestamps += 1 }
        lastTimestampNs = timestampNs
        var dropped = 0
        if let last = lastSequence {
            // Wrapping difference: sequence is a free-running 32-bit counter.
            let gap = Int(b.sequence &- last) - 1
            if gap > 0 && gap < Int(Int32.max) { dropped = gap }
        }
        lastSequence = b.sequence
        statistics.frames += 1
        statistics.droppedFrames += dropped
        return RawFrame(bytes: bytes, format: negotiated!, sequence: b.sequence, timestampNs: timestampNs,
                        timestampSource: source, droppedBefore: dropped)
    }

    /// Waits until a frame can be dequeued (or the device failed), then dequeues it.
    /// Returns nil when `timeoutMs` passes without a frame.
    public func nextFrame(timeoutMs: Int32 = 2000) throws -> RawFrame? {
        let deadline = system.monotonicNanoseconds() + Int64(timeoutMs) * 1_000_000
        while true {
            if let frame = try dequeue() { return frame }
            let left = (deadline - system.monotonicNanoseconds()) / 1_000_000
            if left <= 0 { return nil }
            _ = try V4L2Device.wait([self], timeoutMs: Int32(left))
        }
    }

    /// `poll` on several streaming devices (which must share one ``V4L2System``):
    /// the indices of the devices with a frame ready or an error pending.
    public static func wait(_ devices: [V4L2Device], timeoutMs: Int32) throws -> [Int] {
        guard let system = devices.first?.system else { return [] }
        do {
            let results = try retryingEINTR { try system.poll(devices.map(\.fd), timeoutMs: timeoutMs) }
            return results.indices.filter { results[$0].isReady }
        } catch let error as SyscallError {
            throw V4L2Error.syscall(path: devices.map(\.path).joined(separator: ", "), error)
        }
    }
}
