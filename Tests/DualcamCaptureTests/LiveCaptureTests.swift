import CV4L2
import DualcamCapture
import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import DualcamV4L2
import Foundation
import Glibc
import TestSupport
import V4L2TestSupport
import XCTest

/// Live capture through the fake V4L2 device: negotiation, decoding, pairing,
/// recording, device loss and the --fit search.
final class LiveCaptureTests: XCTestCase {
    static let qvga = FrameSize(width: 320, height: 240)
    static let vga = FrameSize(width: 640, height: 480)
    static let hd = FrameSize(width: 1280, height: 720)

    static func camera(_ card: String, mjpeg: Bool = false, sizes: [FrameSize] = [qvga], events: [FakeV4L2System.Event]) -> FakeV4L2System.Device {
        var formats = [FakeV4L2System.Format(.yuyv, sizes: sizes.map { ($0, [30, 15]) })]
        if mjpeg { formats.append(FakeV4L2System.Format(.mjpeg, sizes: sizes.map { ($0, [30, 15]) })) }
        let d = FakeV4L2System.Device(card: card, formats: formats, events: events)
        // Uniform YUYV grey: Y = 16 + 8 * (sequence % 20), U = V = 128.
        d.makePayload = { seq, format in
            guard format.pixelFormat == .yuyv else { return [] }
            var bytes = [UInt8](repeating: 128, count: format.imageSize)
            let y = UInt8(16 + 8 * Int(seq % 20))
            for i in stride(from: 0, to: bytes.count, by: 2) { bytes[i] = y }
            return bytes
        }
        return d
    }

    /// Frames at 30 fps from `start`, each shifted by `offsets[k]` ns, skipping `lost`.
    static func events(_ count: Int, start: Int64, offsets: (Int) -> Int64 = { _ in 0 }, lost: Set<Int> = []) -> [FakeV4L2System.Event] {
        (0..<count).filter { !lost.contains($0) }.map {
            .frame(timestampNs: start + Int64($0) * 33_333_000 + offsets($0), sequence: UInt32($0))
        }
    }

    func testTwoCamerasArePairedAndDecoded() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", Self.camera("Wide", events: Self.events(50, start: 10_000_000_000, lost: [5, 6])))
        sys.add("/dev/video2", Self.camera("Tele", events: Self.events(50, start: 10_004_000_000, offsets: { ($0 % 3 == 0) ? 2_000_000 : -1_000_000 }, lost: [20])))
        let source = try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2")), system: sys)
        XCTAssertEqual(source.modes, [CaptureMode(pixelFormat: .yuyv, size: Self.qvga, framesPerSecond: 30)] + [CaptureMode(pixelFormat: .yuyv, size: Self.qvga, framesPerSecond: 30)])
        XCTAssertEqual(source.maxSkewNs, 16_666_666)
        var pairs: [(Int, Int)] = []
        // The cameras never end: take the pairs of the first 40 moments.
        while let p = try source.nextPair(), p.wide.sequence < 40 {
            pairs.append((p.wide.sequence, p.tele.sequence))
            XCTAssertEqual(p.wide.image.width, 320)
            XCTAssertEqual(p.wide.image.channels, 3)
            // Y = 16 + 8 k with neutral chroma decodes to grey 1.164 (Y - 16) (BT.601 video range).
            let expected = 1.164 * Double(8 * (p.wide.sequence % 20))
            XCTAssertEqual(p.wide.image[x: 10, y: 10, channel: 1], expected, accuracy: 2)
        }
        XCTAssertEqual(source.stopReason, nil)
        // Every moment both cameras delivered pairs by sequence number.
        let expected = (0..<40).filter { ![5, 6, 20].contains($0) }
        XCTAssertEqual(pairs.map(\.0), expected)
        XCTAssertEqual(pairs.map(\.1), expected)
        let s = source.statistics
        XCTAssertEqual(s.droppedByDeviceWide, 2)
        XCTAssertEqual(s.droppedByDeviceTele, 1)
        XCTAssertEqual(s.unpairedWide, 1, "wide 20 has no tele partner")
        XCTAssertEqual(s.unpairedTele, 2, "tele 5 and 6 have no wide partner")
        XCTAssertEqual(s.maxSkewNs, 6_000_000)
    }

    func testRecordingStopsCleanlyWhenADeviceIsLost() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", Self.camera("Wide", events: Self.events(30, start: 1_000_000_000)))
        sys.add("/dev/video2", Self.camera("Tele", events: Self.events(12, start: 1_003_000_000) + [.fail(ENODEV)]))
        let source = try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2")), system: sys)
        let tmp = try TemporaryDirectory()
        let dir = tmp.url.appendingPathComponent("cap")
        let recorder = try CaptureRecorder(directory: dir)
        let n = try recordPairs(from: source, to: recorder, limit: CaptureLimit())
        XCTAssertEqual(n, 12, "every pair completed before the loss is kept")
        guard case .deviceLost(let path, _)? = source.stopReason else { return XCTFail("expected a device loss, got \(String(describing: source.stopReason))") }
        XCTAssertEqual(path, "/dev/video2")
        let csv = try String(contentsOf: dir.appendingPathComponent("pairs.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(csv.first.map(String.init), CaptureRecorder.pairsHeader)
        XCTAssertEqual(csv.count, 13)
        for row in csv.dropFirst() {
            let f = row.split(separator: ",").map(String.init)
            let wide = try ImageIO.read(dir.appendingPathComponent(f[1])), tele = try ImageIO.read(dir.appendingPathComponent(f[2]))
            XCTAssertEqual(wide.width, 320)
            XCTAssertEqual(tele.width, 320)
            XCTAssertEqual(Int64(f[5]), 3_000_000)
        }
        // The recorded directory pair replays through the file sources with the same pairs.
        let replay = try FilePairs.open(wide: dir.appendingPathComponent("wide").path, tele: dir.appendingPathComponent("tele").path, nominalFPS: 30, maxSkewNs: 10_000_000)
        var replayed = 0
        while let p = try replay.nextPair() { XCTAssertEqual(p.skewNs, 3_000_000); replayed += 1 }
        XCTAssertEqual(replayed, 12)
    }

    func testCountAndDurationLimits() throws {
        for (limit, expected) in [(CaptureLimit(pairs: 5), 5), (CaptureLimit(durationNs: 190_000_000), 6)] {
            let sys = FakeV4L2System()
            sys.add("/dev/video0", Self.camera("Wide", events: Self.events(30, start: 1_000_000_000)))
            sys.add("/dev/video2", Self.camera("Tele", events: Self.events(30, start: 1_001_000_000)))
            let source = try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2")), system: sys)
            let tmp = try TemporaryDirectory()
            let recorder = try CaptureRecorder(directory: tmp.url.appendingPathComponent("cap"))
            XCTAssertEqual(try recordPairs(from: source, to: recorder, limit: limit), expected)
        }
        // Interrupted (Ctrl-C) after 4 pairs: stops before the next one, timestamps saved.
        let sys = FakeV4L2System()
        sys.add("/dev/video0", Self.camera("Wide", events: Self.events(30, start: 1_000_000_000)))
        sys.add("/dev/video2", Self.camera("Tele", events: Self.events(30, start: 1_001_000_000)))
        let source = try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2")), system: sys)
        let tmp = try TemporaryDirectory()
        let recorder = try CaptureRecorder(directory: tmp.url.appendingPathComponent("cap"))
        XCTAssertEqual(try recordPairs(from: source, to: recorder, limit: CaptureLimit(), shouldStop: { recorder.count >= 4 }), 4)
        let rows = try String(contentsOf: tmp.url.appendingPathComponent("cap/tele/timestamps.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows, ["file,timestamp_ns", "frame_000000.png,1001000000", "frame_000001.png,1034333000",
                              "frame_000002.png,1067666000", "frame_000003.png,1100999000"])
    }

    func testStereoDeviceIsSplitIntoHalves() throws {
        let sys = FakeV4L2System()
        let cam = Self.camera("Stereo", sizes: [FrameSize(width: 640, height: 240)], events: Self.events(3, start: 1_000_000_000))
        // Left half Y = 50, right half Y = 200.
        cam.makePayload = { _, format in
            var bytes = [UInt8](repeating: 128, count: format.imageSize)
            for i in stride(from: 0, to: bytes.count, by: 2) { bytes[i] = (i % format.bytesPerLine) < format.bytesPerLine / 2 ? 50 : 200 }
            return bytes
        }
        sys.add("/dev/video4", cam)
        let source = try LivePairSource(options: LiveCaptureOptions(layout: .stereo("/dev/video4")), system: sys)
        let p = try XCTUnwrap(source.nextPair())
        XCTAssertEqual(p.wide.image.width, 320)
        XCTAssertEqual(p.skewNs, 0)
        XCTAssertEqual(p.wide.image[x: 100, y: 100, channel: 0], 1.164 * 34, accuracy: 2)
        XCTAssertEqual(p.tele.image[x: 100, y: 100, channel: 0], 1.164 * 184, accuracy: 2)
    }

    func testMJPEGFramesAreDecoded() throws {
        let sys = FakeV4L2System()
        let jpeg = try CVCodecs.encode(try Image(width: 320, height: 240, channels: 3, element: .uint8,
                                                  bytes: [UInt8](repeating: 90, count: 320 * 240 * 3)).makeCVMat(), fileExtension: "jpg")
        for (path, start) in [("/dev/video0", Int64(1_000_000_000)), ("/dev/video2", Int64(1_002_000_000))] {
            let cam = Self.camera(path, mjpeg: true, events: Self.events(4, start: start))
            cam.makePayload = { _, _ in jpeg }
            sys.add(path, cam)
        }
        let source = try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2")), system: sys)
        XCTAssertEqual(source.modes.first?.pixelFormat, .mjpeg, "MJPEG by default when both offer it")
        let p = try XCTUnwrap(source.nextPair())
        XCTAssertEqual(p.tele.image[x: 5, y: 5, channel: 2], 90, accuracy: 2)
    }

    func testFitLowersTheModeUntilThePairRuns() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", Self.camera("Wide", sizes: [Self.hd, Self.vga], events: Self.events(3, start: 1_000_000_000)))
        sys.add("/dev/video2", Self.camera("Tele", sizes: [Self.hd, Self.vga], events: Self.events(3, start: 1_001_000_000)))
        var options = LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2"), size: Self.hd, framesPerSecond: 30, format: .yuyv)
        XCTAssertThrowsError(try LivePairSource(options: options, system: sys)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("ENOSPC") && text.contains("total 110.6 MB/s"), text)
        }
        XCTAssertFalse(sys.devices["/dev/video0"]!.streaming, "nothing left streaming after the failure")
        options.fit = true
        let source = try LivePairSource(options: options, system: sys)
        XCTAssertEqual(source.modes.first, CaptureMode(pixelFormat: .yuyv, size: Self.vga, framesPerSecond: 30))
        XCTAssertEqual(source.fitAttempts.count, 3)
        XCTAssertTrue(source.notes.contains { $0.hasPrefix("--fit:") }, "\(source.notes)")
        XCTAssertNotNil(try source.nextPair())
    }

    func testBadDevicesAndFormats() throws {
        let sys = FakeV4L2System()
        sys.plainFiles = ["/dev/null"]
        sys.add("/dev/video0", Self.camera("Wide", events: []))
        sys.add("/dev/video2", Self.camera("Tele", events: []))
        let out = Self.camera("Out", events: [])
        out.deviceCaps = 0x2 | DC_CAP_STREAMING  // video output only
        sys.add("/dev/video3", out)
        XCTAssertThrowsError(try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/null", tele: "/dev/video2")), system: sys)) {
            XCTAssertEqual($0 as? V4L2Error, .notV4L2Device(path: "/dev/null"))
        }
        XCTAssertThrowsError(try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video3")), system: sys)) {
            guard case .noCaptureCapability? = $0 as? V4L2Error else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2"), format: .mjpeg), system: sys)) {
            XCTAssertEqual("\($0)", "/dev/video0: format MJPG is not supported; the device offers YUYV")
        }
        XCTAssertThrowsError(try LivePairSource(options: LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video0")), system: sys)) {
            XCTAssertTrue("\($0)".contains("both name /dev/video0"), "\($0)")
        }
    }

    func testNoFramesIsATimeout() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", Self.camera("Wide", events: []))
        sys.add("/dev/video2", Self.camera("Tele", events: []))
        var options = LiveCaptureOptions(layout: .pair(wide: "/dev/video0", tele: "/dev/video2"))
        options.timeoutMs = 500
        let source = try LivePairSource(options: options, system: sys)
        XCTAssertThrowsError(try source.nextPair()) {
            XCTAssertEqual($0 as? V4L2Error, .timeout(path: "/dev/video0 + /dev/video2", milliseconds: 500))
        }
    }
}

/// `dualcam devices` output for a fake camera.
final class DeviceReportTests: XCTestCase {
    func testListsFormatsSizesAndRates() throws {
        let sys = FakeV4L2System()
        let cam = FakeV4L2System.Device(card: "USB Camera", formats: [
            FakeV4L2System.Format(.mjpeg, name: "Motion-JPEG", sizes: [(FrameSize(width: 640, height: 480), [30, 15]), (FrameSize(width: 1280, height: 720), [30])]),
            FakeV4L2System.Format(.nv12, name: "Y/UV 4:2:0", sizes: [(FrameSize(width: 640, height: 480), [29.97])]),
        ])
        sys.add("/dev/video0", cam)
        let text = try DeviceReport.text(V4L2Device(path: "/dev/video0", system: sys))
        XCTAssertEqual(text, """
            /dev/video0: USB Camera (driver fake, usb-fake-USB Camera)
              MJPG Motion-JPEG
                1280x720: 30 fps
                640x480: 30, 15 fps
              NV12 Y/UV 4:2:0 (dualcam cannot decode)
                640x480: 29.97 fps
            """)
    }
}
