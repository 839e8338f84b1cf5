import DualcamV4L2
import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The ioctl side of ``FakeV4L2System``: one request on one fake device.
struct FakeDriver {
    static let offsetStride = 1 << 24

    let system: FakeV4L2System
    let device: FakeV4L2System.Device
    let name: String

    func fail(_ code: Int32) -> SyscallError { SyscallError(call: name, code: code) }

    func handle(_ request: UInt, _ arg: UnsafeMutableRawPointer) throws {
        switch request {
        case V4L2Request.querycap: querycap(arg.assumingMemoryBound(to: v4l2_capability.self))
        case V4L2Request.enumFmt: try enumFmt(arg.assumingMemoryBound(to: v4l2_fmtdesc.self))
        case V4L2Request.enumFrameSizes: try enumSizes(arg.assumingMemoryBound(to: v4l2_frmsizeenum.self))
        case V4L2Request.enumFrameIntervals: try enumIntervals(arg.assumingMemoryBound(to: v4l2_frmivalenum.self))
        case V4L2Request.gFmt: writeFormat(arg.assumingMemoryBound(to: v4l2_format.self))
        case V4L2Request.sFmt: try sFmt(arg.assumingMemoryBound(to: v4l2_format.self))
        case V4L2Request.sParm, V4L2Request.gParm:
            try parm(arg.assumingMemoryBound(to: v4l2_streamparm.self), set: request == V4L2Request.sParm)
        case V4L2Request.reqbufs: try reqbufs(arg.assumingMemoryBound(to: v4l2_requestbuffers.self))
        case V4L2Request.querybuf: try querybuf(arg.assumingMemoryBound(to: v4l2_buffer.self))
        case V4L2Request.qbuf: try qbuf(arg.assumingMemoryBound(to: v4l2_buffer.self))
        case V4L2Request.dqbuf: try dqbuf(arg.assumingMemoryBound(to: v4l2_buffer.self))
        case V4L2Request.streamon: try streamon()
        case V4L2Request.streamoff:
            device.streaming = false
            device.queued.removeAll()
        default: throw fail(ENOTTY)
        }
    }

    private func querycap(_ cap: UnsafeMutablePointer<v4l2_capability>) {
        cap.pointee = v4l2_capability()
        copy(device.driver, into: &cap.pointee.driver)
        copy(device.card, into: &cap.pointee.card)
        copy(device.busInfo, into: &cap.pointee.bus_info)
        cap.pointee.device_caps = device.deviceCaps
        cap.pointee.capabilities = device.deviceCaps | DC_CAP_DEVICE_CAPS
    }

    private func enumFmt(_ d: UnsafeMutablePointer<v4l2_fmtdesc>) throws {
        let i = Int(d.pointee.index)
        guard d.pointee.type == DC_BUF_TYPE_VIDEO_CAPTURE, i < device.formats.count else { throw fail(EINVAL) }
        let f = device.formats[i]
        d.pointee.pixelformat = f.pixelFormat.code
        d.pointee.flags = f.pixelFormat.isCompressed ? DC_FMT_FLAG_COMPRESSED : 0
        copy(f.name, into: &d.pointee.description)
    }

    private func format(_ code: UInt32) -> FakeV4L2System.Format? {
        device.formats.first { $0.pixelFormat.code == code }
    }

    private func enumSizes(_ e: UnsafeMutablePointer<v4l2_frmsizeenum>) throws {
        guard let f = format(e.pointee.pixel_format), Int(e.pointee.index) < f.sizes.count else { throw fail(EINVAL) }
        let s = f.sizes[Int(e.pointee.index)].size
        e.pointee.type = DC_FRMSIZE_TYPE_DISCRETE
        e.pointee.discrete.width = UInt32(s.width)
        e.pointee.discrete.height = UInt32(s.height)
    }

    private func enumIntervals(_ e: UnsafeMutablePointer<v4l2_frmivalenum>) throws {
        let size = FrameSize(width: Int(e.pointee.width), height: Int(e.pointee.height))
        guard let f = format(e.pointee.pixel_format), let entry = f.sizes.first(where: { $0.size == size }),
              Int(e.pointee.index) < entry.rates.count else { throw fail(EINVAL) }
        let interval = FrameInterval(framesPerSecond: entry.rates[Int(e.pointee.index)])
        e.pointee.type = DC_FRMIVAL_TYPE_DISCRETE
        e.pointee.discrete.numerator = interval.numerator
        e.pointee.discrete.denominator = interval.denominator
    }

    private func writeFormat(_ f: UnsafeMutablePointer<v4l2_format>) {
        let n = device.format
        f.pointee.fmt.pix.pixelformat = n.pixelFormat.code
        f.pointee.fmt.pix.width = UInt32(n.size.width)
        f.pointee.fmt.pix.height = UInt32(n.size.height)
        f.pointee.fmt.pix.bytesperline = UInt32(n.bytesPerLine)
        f.pointee.fmt.pix.sizeimage = UInt32(n.imageSize)
    }

    /// Like a driver: unknown format -> the first one; size -> the nearest offered.
    private func sFmt(_ f: UnsafeMutablePointer<v4l2_format>) throws {
        guard f.pointee.type == DC_BUF_TYPE_VIDEO_CAPTURE, let first = device.formats.first else { throw fail(EINVAL) }
        if device.streaming || !device.memory.isEmpty { throw fail(EBUSY) }
        let chosen = format(f.pointee.fmt.pix.pixelformat) ?? first
        let want = (Int(f.pointee.fmt.pix.width), Int(f.pointee.fmt.pix.height))
        let entry = chosen.sizes.min { abs($0.size.width - want.0) + abs($0.size.height - want.1) < abs($1.size.width - want.0) + abs($1.size.height - want.1) }!
        device.format = FakeV4L2System.negotiated(chosen.pixelFormat, entry.size)
        if !entry.rates.contains(device.framesPerSecond) { device.framesPerSecond = entry.rates.first ?? 30 }
        writeFormat(f)
    }

    private func parm(_ p: UnsafeMutablePointer<v4l2_streamparm>, set: Bool) throws {
        guard p.pointee.type == DC_BUF_TYPE_VIDEO_CAPTURE else { throw fail(EINVAL) }
        guard device.supportsFrameRate else {
            p.pointee.parm.capture.capability = 0
            return
        }
        if set {
            if device.streaming { throw fail(EBUSY) }
            let t = p.pointee.parm.capture.timeperframe
            let want = FrameInterval(numerator: t.numerator, denominator: t.denominator).framesPerSecond
            let rates = format(device.format.pixelFormat.code)?.sizes.first { $0.size == device.format.size }?.rates ?? []
            if let best = rates.min(by: { abs($0 - want) < abs($1 - want) }) { device.framesPerSecond = best }
        }
        let interval = FrameInterval(framesPerSecond: device.framesPerSecond)
        p.pointee.parm.capture.capability = DC_CAP_TIMEPERFRAME
        p.pointee.parm.capture.timeperframe.numerator = interval.numerator
        p.pointee.parm.capture.timeperframe.denominator = interval.denominator
    }

    private func reqbufs(_ r: UnsafeMutablePointer<v4l2_requestbuffers>) throws {
        guard r.pointee.type == DC_BUF_TYPE_VIDEO_CAPTURE, r.pointee.memory == DC_MEMORY_MMAP else { throw fail(EINVAL) }
        if device.streaming { throw fail(EBUSY) }
        for m in device.memory { m.deallocate() }
        device.memory.removeAll()
        device.queued.removeAll()
        let count = r.pointee.count == 0 ? 0 : min(max(Int(r.pointee.count), 2), 8)
        for _ in 0..<count {
            let m = UnsafeMutableRawBufferPointer.allocate(byteCount: device.format.imageSize, alignment: 16)
            m.initializeMemory(as: UInt8.self, repeating: 0)
            device.memory.append(m)
        }
        r.pointee.count = UInt32(count)
    }

    private func querybuf(_ b: UnsafeMutablePointer<v4l2_buffer>) throws {
        let i = Int(b.pointee.index)
        guard i < device.memory.count else { throw fail(EINVAL) }
        b.pointee.length = UInt32(device.memory[i].count)
        b.pointee.m.offset = UInt32(i * FakeDriver.offsetStride)
    }

    private func qbuf(_ b: UnsafeMutablePointer<v4l2_buffer>) throws {
        let i = Int(b.pointee.index)
        guard i < device.memory.count, !device.queued.contains(i) else { throw fail(EINVAL) }
        device.queued.append(i)
    }

    private func streamon() throws {
        guard device.memory.count > 0 else { throw fail(EINVAL) }
        guard system.fits(device.mode, bus: device.bus, except: device) else { throw fail(ENOSPC) }
        device.streaming = true
    }

    private func dqbuf(_ b: UnsafeMutablePointer<v4l2_buffer>) throws {
        guard device.streaming else { throw fail(EINVAL) }
        guard let event = device.events.first else { throw fail(EAGAIN) }
        switch event {
        case let .fail(code):
            device.events.removeFirst()
            if code == ENODEV || code == EIO { device.gone = true }
            throw fail(code)
        case let .frame(timestampNs, sequence, flags, payload, corrupt):
            guard !device.queued.isEmpty, timestampNs <= system.clockNs else { throw fail(EAGAIN) }
            device.events.removeFirst()
            let index = device.queued.removeFirst()
            let memory = device.memory[index]
            let bytes = payload ?? device.makePayload?(sequence, device.format) ?? pattern(sequence, count: memory.count)
            let used = min(bytes.count, memory.count)
            bytes.withUnsafeBytes { memory.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: used) }
            b.pointee.index = UInt32(index)
            b.pointee.bytesused = UInt32(used)
            b.pointee.flags = flags | (corrupt ? DC_BUF_FLAG_ERROR : 0)
            b.pointee.sequence = sequence
            b.pointee.timestamp.tv_sec = Int(timestampNs / 1_000_000_000)
            b.pointee.timestamp.tv_usec = Int((timestampNs % 1_000_000_000) / 1000)
            b.pointee.length = UInt32(memory.count)
            system.clockNs = max(system.clockNs, timestampNs + 1_000_000)
        }
    }

    private func pattern(_ sequence: UInt32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { p in
            for i in 0..<count { p[i] = UInt8(truncatingIfNeeded: Int(sequence) &+ i) }
        }
        return bytes
    }
}

private func copy<T>(_ text: String, into tuple: inout T) {
    withUnsafeMutableBytes(of: &tuple) { raw in
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
}
