import CV4L2
import DualcamV4L2
import V4L2TestSupport
import XCTest

/// QUERYCAP checks, enumeration and format negotiation through the fake device.
final class DeviceTests: XCTestCase {
    func testOpenChecksCapabilities() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide"))
        sys.plainFiles = ["/dev/null", "/tmp/file.txt"]
        let out = FakeCameras.webcam("Meta")
        out.deviceCaps = 0x0080_0000 | DC_CAP_STREAMING  // metadata capture node only
        sys.add("/dev/video1", out)
        let mplane = FakeCameras.webcam("Planar")
        mplane.deviceCaps = DC_CAP_VIDEO_CAPTURE_MPLANE | DC_CAP_STREAMING
        sys.add("/dev/video2", mplane)

        let device = try V4L2Device(path: "/dev/video0", system: sys)
        XCTAssertEqual(device.capabilities.card, "Wide")
        XCTAssertEqual(device.capabilities.driver, "fake")
        XCTAssertTrue(device.capabilities.canCapture)

        XCTAssertThrowsError(try V4L2Device(path: "/dev/null", system: sys)) { error in
            XCTAssertEqual(error as? V4L2Error, .notV4L2Device(path: "/dev/null"))
            XCTAssertTrue("\(error)".contains("not a V4L2 device"))
        }
        XCTAssertThrowsError(try V4L2Device(path: "/tmp/file.txt", system: sys)) { error in
            XCTAssertEqual(error as? V4L2Error, .notV4L2Device(path: "/tmp/file.txt"))
        }
        XCTAssertThrowsError(try V4L2Device(path: "/dev/video9", system: sys)) { error in
            XCTAssertEqual("\(error)", "/dev/video9: cannot open: No such file or directory")
        }
        XCTAssertThrowsError(try V4L2Device(path: "/dev/video1", system: sys)) { error in
            guard case .noCaptureCapability(let path, let card, _)? = error as? V4L2Error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/dev/video1")
            XCTAssertEqual(card, "Meta")
        }
        XCTAssertThrowsError(try V4L2Device(path: "/dev/video2", system: sys)) { error in
            XCTAssertTrue("\(error)".contains("multi-planar"), "\(error)")
        }
        // Every rejected device that opened was closed again (/dev/video9 never opened).
        XCTAssertEqual(sys.log.filter { $0.hasSuffix(" close") }.count, 4)
    }

    func testEnumeration() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide"))
        let device = try V4L2Device(path: "/dev/video0", system: sys)
        let formats = try device.formats()
        XCTAssertEqual(formats.map(\.pixelFormat.fourcc), ["YUYV", "MJPG"])
        XCTAssertEqual(formats.map(\.isCompressed), [false, true])
        XCTAssertEqual(formats[1].name, "Motion-JPEG")
        XCTAssertEqual(try device.frameSizes(.yuyv), .discrete([FakeCameras.hd, FakeCameras.vga, FakeCameras.qvga]))
        XCTAssertEqual(try device.frameIntervals(.yuyv, FakeCameras.vga),
                       .discrete([FrameInterval(numerator: 1, denominator: 30), FrameInterval(numerator: 1, denominator: 15)]))
        XCTAssertEqual(try device.frameSizes(.rgb24), .discrete([]))
        let modes = try device.modes()
        XCTAssertEqual(modes.count, 12)
        XCTAssertEqual(modes.first, CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 30))
    }

    func testFormatNegotiationReportsWhatTheDriverChose() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide", mjpeg: false))
        let device = try V4L2Device(path: "/dev/video0", system: sys)
        // 1000x700 is not offered: the driver picks the nearest size.
        let chosen = try device.setFormat(.yuyv, size: FrameSize(width: 1000, height: 700))
        XCTAssertEqual(chosen.size, FakeCameras.hd)
        XCTAssertEqual(chosen.bytesPerLine, 2560)
        XCTAssertEqual(chosen.imageSize, 1280 * 720 * 2)
        XCTAssertEqual(try device.setFrameRate(25), 30)
        XCTAssertEqual(try device.setFrameRate(14), 15)
        XCTAssertEqual(sys.devices["/dev/video0"]!.framesPerSecond, 15)
        // MJPEG is not offered by this camera: the driver falls back to YUYV.
        XCTAssertThrowsError(try device.setFormat(.mjpeg, size: FakeCameras.vga)) { error in
            XCTAssertEqual(error as? V4L2Error, .unsupportedFormat(path: "/dev/video0", requested: "MJPG", available: ["YUYV"]))
            XCTAssertEqual("\(error)", "/dev/video0: format MJPG is not supported; the device offers YUYV")
        }
    }

    func testFrameRateNotSettable() throws {
        let sys = FakeV4L2System()
        let cam = FakeCameras.webcam("Fixed")
        cam.supportsFrameRate = false
        sys.add("/dev/video0", cam)
        let device = try V4L2Device(path: "/dev/video0", system: sys)
        XCTAssertNil(try device.setFrameRate(30))
    }

    func testPixelFormatNames() {
        XCTAssertEqual(PixelFormat(name: "mjpeg"), .mjpeg)
        XCTAssertEqual(PixelFormat(name: "YUYV"), .yuyv)
        XCTAssertEqual(PixelFormat(fourcc: "YUYV")?.code, DC_PIX_FMT_YUYV)
        XCTAssertEqual(PixelFormat.mjpeg.fourcc, "MJPG")
        XCTAssertNil(PixelFormat(name: "bogus"))
        XCTAssertEqual(FrameSize(parsing: "1280x720"), FakeCameras.hd)
        XCTAssertNil(FrameSize(parsing: "1280"))
        XCTAssertEqual(FrameInterval(framesPerSecond: 29.97).framesPerSecond, 29.97, accuracy: 1e-9)
    }

    func testStepwiseSizesOfferCommonCandidates() {
        let sizes = FrameSizes.stepwise(min: FrameSize(width: 16, height: 16), max: FrameSize(width: 1920, height: 1080), stepWidth: 16, stepHeight: 8)
        XCTAssertEqual(sizes.candidates.first, FrameSize(width: 1920, height: 1080))
        XCTAssertTrue(sizes.candidates.contains(FakeCameras.hd))
        XCTAssertTrue(sizes.contains(FakeCameras.vga))
        XCTAssertFalse(sizes.contains(FrameSize(width: 641, height: 480)))
    }
}
