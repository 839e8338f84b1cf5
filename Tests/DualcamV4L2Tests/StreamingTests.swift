import CV4L2
import DualcamV4L2
import V4L2TestSupport
import Glibc
import XCTest

/// Buffer cycling, timestamps, sequence gaps and injected errors through the fake device.
final class StreamingTests: XCTestCase {
    private func streaming(_ events: [FakeV4L2System.Event], configure: (FakeV4L2System) -> Void = { _ in }) throws -> (FakeV4L2System, V4L2Device) {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide", events: events))
        configure(sys)
        let device = try V4L2Device(path: "/dev/video0", system: sys)
        try device.setFormat(.yuyv, size: FakeCameras.qvga)
        try device.startStreaming(bufferCount: 4)
        return (sys, device)
    }

    func testBuffersCycleAndFramesKeepTimestampsAndBytes() throws {
        let (sys, device) = try streaming(FakeCameras.frames(20))
        let fake = sys.devices["/dev/video0"]!
        XCTAssertEqual(fake.bufferCount, 4)
        for k in 0..<20 {
            let frame = try XCTUnwrap(device.nextFrame(timeoutMs: 100))
            XCTAssertEqual(frame.sequence, UInt32(k))
            // Microsecond precision of struct timeval.
            XCTAssertEqual(frame.timestampNs, (5_000_000_000 + Int64(k) * 33_333_000) / 1000 * 1000)
            XCTAssertEqual(frame.timestampSource, .driverMonotonic)
            XCTAssertEqual(frame.bytes.count, 320 * 240 * 2)
            XCTAssertEqual(frame.bytes[0], UInt8(k))
            XCTAssertEqual(frame.bytes[1000], UInt8(truncatingIfNeeded: k + 1000))
            XCTAssertEqual(fake.queuedBufferCount, 4, "the buffer goes back to the driver after the copy")
        }
        XCTAssertNil(try device.nextFrame(timeoutMs: 50), "no more frames: timeout")
        XCTAssertEqual(device.statistics.frames, 20)
        XCTAssertEqual(device.statistics.droppedFrames, 0)
        try device.stopStreaming()
        XCTAssertEqual(fake.bufferCount, 0)
        XCTAssertFalse(fake.streaming)
    }

    func testSequenceGapsCountDroppedFrames() throws {
        let (_, device) = try streaming(FakeCameras.frames(6, skipping: [2, 3, 6]))
        var dropped: [Int] = []
        while let f = try device.nextFrame(timeoutMs: 10) { dropped.append(f.droppedBefore) }
        // Sequences 0 1 4 5 7 8: gaps of 2 before 4 and 1 before 7.
        XCTAssertEqual(dropped, [0, 0, 2, 0, 1, 0])
        XCTAssertEqual(device.statistics.droppedFrames, 3)
    }

    func testSequenceCounterWraps() throws {
        let events: [FakeV4L2System.Event] = [
            .frame(timestampNs: 1_000_000_000, sequence: UInt32.max - 1),
            .frame(timestampNs: 1_033_000_000, sequence: UInt32.max),
            .frame(timestampNs: 1_066_000_000, sequence: 1),
        ]
        let (_, device) = try streaming(events)
        var dropped: [Int] = []
        while let f = try device.nextFrame(timeoutMs: 10) { dropped.append(f.droppedBefore) }
        XCTAssertEqual(dropped, [0, 0, 1])
    }

    func testNonMonotonicClocksAreStampedAtDequeue() throws {
        let events: [FakeV4L2System.Event] = [
            .frame(timestampNs: 7_000_000_000, sequence: 0, flags: DC_BUF_FLAG_TIMESTAMP_UNKNOWN),
            .frame(timestampNs: 7_033_000_000, sequence: 1, flags: DC_BUF_FLAG_TIMESTAMP_COPY),
            .frame(timestampNs: 7_066_000_000, sequence: 2, flags: DC_BUF_FLAG_TIMESTAMP_MONOTONIC),
        ]
        let (sys, device) = try streaming(events)
        let a = try XCTUnwrap(device.nextFrame())
        XCTAssertEqual(a.timestampSource, .dequeueTime)
        XCTAssertEqual(a.timestampNs, sys.clockNs, "CLOCK_MONOTONIC read at dequeue")
        let b = try XCTUnwrap(device.nextFrame())
        XCTAssertEqual(b.timestampSource, .dequeueTime)
        let c = try XCTUnwrap(device.nextFrame())
        XCTAssertEqual(c.timestampSource, .driverMonotonic)
        XCTAssertEqual(c.timestampNs, 7_066_000_000)
        XCTAssertEqual(device.statistics.dequeueTimestamped, 2)
    }

    func testCorruptBuffersAreDiscarded() throws {
        let events: [FakeV4L2System.Event] = [
            .frame(timestampNs: 1_000_000_000, sequence: 0),
            .frame(timestampNs: 1_033_000_000, sequence: 1, corrupt: true),
            .frame(timestampNs: 1_066_000_000, sequence: 2),
        ]
        let (_, device) = try streaming(events)
        XCTAssertEqual(try device.nextFrame()?.sequence, 0)
        XCTAssertEqual(try device.nextFrame()?.sequence, 2)
        XCTAssertEqual(device.statistics.corruptFrames, 1)
    }

    func testEINTRIsRetried() throws {
        let (sys, device) = try streaming(FakeCameras.frames(3)) { sys in
            sys.inject(EINTR, on: "VIDIOC_QUERYCAP")
            sys.inject(EINTR, on: "VIDIOC_STREAMON", times: 2)
            sys.inject(EINTR, on: "poll", times: 2)
            sys.inject(EINTR, on: "VIDIOC_DQBUF", times: 3)
            sys.inject(EINTR, on: "VIDIOC_QBUF", times: 1)
        }
        var sequences: [UInt32] = []
        while let f = try device.nextFrame(timeoutMs: 10) { sequences.append(f.sequence) }
        XCTAssertEqual(sequences, [0, 1, 2])
        XCTAssertEqual(sys.log.filter { $0.hasSuffix("VIDIOC_QUERYCAP") }.count, 2)
        XCTAssertEqual(sys.log.filter { $0.hasSuffix("VIDIOC_STREAMON") }.count, 3)
        XCTAssertTrue(sys.injections.allSatisfy { $0.times == 0 }, "every injected EINTR was hit")
    }

    func testENOSPCAtStreamOnExplainsTheBudget() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide"))
        sys.inject(ENOSPC, on: "VIDIOC_STREAMON")
        sys.enforcesBandwidth = false
        let device = try V4L2Device(path: "/dev/video0", system: sys)
        let mode = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 30)
        _ = try device.configure(mode)
        XCTAssertThrowsError(try device.startStreaming(mode: mode)) { error in
            guard case .noBandwidth? = error as? V4L2Error else { return XCTFail("\(error)") }
            let text = "\(error)"
            XCTAssertTrue(text.contains("ENOSPC"), text)
            XCTAssertTrue(text.contains("YUYV 1280x720 @ 30 fps needs 55.3 MB/s"), text)
            XCTAssertTrue(text.contains("--fit"), text)
        }
        XCTAssertEqual(sys.devices["/dev/video0"]!.bufferCount, 0, "buffers released after the failure")
        // The injected failure is gone: the same device streams now.
        try device.startStreaming(mode: mode)
    }

    func testTwoCamerasOnOneBusRunOutOfBandwidth() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide"))
        sys.add("/dev/video2", FakeCameras.webcam("Tele"))
        let mode = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.vga, framesPerSecond: 30)
        let wide = try V4L2Device(path: "/dev/video0", system: sys)
        let tele = try V4L2Device(path: "/dev/video2", system: sys)
        _ = try wide.configure(mode)
        _ = try tele.configure(CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 15))
        try wide.startStreaming()
        // 18.4 + 27.6 MB/s fits 48 MB/s but 27.6 > 24.6 MB/s per endpoint.
        XCTAssertThrowsError(try tele.startStreaming()) { XCTAssertTrue("\($0)".contains("ENOSPC"), "\($0)") }
        _ = try tele.configure(mode)
        try tele.startStreaming()
    }

    func testDeviceLossMidStream() throws {
        for code in [ENODEV, EIO] {
            let (sys, device) = try streaming(FakeCameras.frames(3) + [.fail(code)])
            for k in 0..<3 { XCTAssertEqual(try device.nextFrame()?.sequence, UInt32(k)) }
            XCTAssertThrowsError(try device.nextFrame()) { error in
                guard case .deviceLost(let path, _)? = error as? V4L2Error else { return XCTFail("\(error)") }
                XCTAssertEqual(path, "/dev/video0")
                XCTAssertTrue("\(error)".contains("device lost while streaming"))
            }
            // It stays lost; stopping is clean.
            XCTAssertThrowsError(try device.nextFrame())
            XCTAssertNoThrow(try device.stopStreaming())
            XCTAssertTrue(sys.devices["/dev/video0"]!.gone)
        }
    }

    func testWaitingOnTwoDevices() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide", events: FakeCameras.frames(2)))
        sys.add("/dev/video2", FakeCameras.webcam("Tele"))
        sys.enforcesBandwidth = false
        let wide = try V4L2Device(path: "/dev/video0", system: sys)
        let tele = try V4L2Device(path: "/dev/video2", system: sys)
        try wide.startStreaming()
        try tele.startStreaming()
        XCTAssertEqual(try V4L2Device.wait([wide, tele], timeoutMs: 10), [0])
        sys.devices["/dev/video2"]!.events = [.fail(ENODEV)]
        XCTAssertEqual(try V4L2Device.wait([wide, tele], timeoutMs: 10), [0, 1])
    }
}
