import DualcamV4L2
import V4L2TestSupport
import XCTest

/// USB 2.0 budget arithmetic and the --fit search.
final class BandwidthTests: XCTestCase {
    func testBudgetAndEstimates() {
        XCTAssertEqual(USBBandwidth.endpointBytesPerSecond, 24_576_000)
        XCTAssertEqual(USBBandwidth.busBytesPerSecond, 48_000_000)
        let yuyv720 = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 30)
        XCTAssertEqual(USBBandwidth.bytesPerSecond(yuyv720), 1280 * 720 * 2 * 30)
        let mjpeg720 = CaptureMode(pixelFormat: .mjpeg, size: FakeCameras.hd, framesPerSecond: 30)
        XCTAssertEqual(USBBandwidth.bytesPerSecond(mjpeg720), 1280 * 720 * 30 / 4)
        let vga = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.vga, framesPerSecond: 30)
        XCTAssertEqual(USBBandwidth.cost([vga, vga]), 2 * 18_432_000 / 48_000_000, accuracy: 1e-12)
        XCTAssertEqual(USBBandwidth.cost([yuyv720]), 55_296_000 / 24_576_000, accuracy: 1e-12)
        XCTAssertTrue(USBBandwidth.explain([vga, vga]).contains("(total 36.9 MB/s); estimated cost 0.77"), USBBandwidth.explain([vga, vga]))
    }

    func testFitSearchPrefersMJPEGThenRateThenSize() throws {
        let sys = FakeV4L2System()
        sys.add("/dev/video0", FakeCameras.webcam("Wide", mjpeg: false))
        sys.add("/dev/video2", FakeCameras.webcam("Tele", mjpeg: false))
        let wide = try V4L2Device(path: "/dev/video0", system: sys)
        let tele = try V4L2Device(path: "/dev/video2", system: sys)
        let start = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 30)
        let (modes, attempts) = try BandwidthFit.search(start: [start, start], available: [try wide.modes(), try tele.modes()]) { modes in
            try? wide.stopStreaming()
            _ = try wide.configure(modes[0])
            _ = try tele.configure(modes[1])
            try wide.startStreaming(mode: modes[0])
            try tele.startStreaming(mode: modes[1])
        }
        // 720p30 (55 MB/s each) -> 720p15 (27.6 MB/s > 24.6 per endpoint) -> VGA 30 (2 x 18.4 of 48 MB/s).
        XCTAssertEqual(attempts.map { $0.modes[0].description }, ["YUYV 1280x720 @ 30 fps", "YUYV 1280x720 @ 15 fps", "YUYV 640x480 @ 30 fps"])
        XCTAssertEqual(attempts.map { $0.failure == nil }, [false, false, true])
        XCTAssertEqual(modes, [CaptureMode(pixelFormat: .yuyv, size: FakeCameras.vga, framesPerSecond: 30)] + [CaptureMode(pixelFormat: .yuyv, size: FakeCameras.vga, framesPerSecond: 30)])
        XCTAssertTrue(sys.devices["/dev/video0"]!.streaming && sys.devices["/dev/video2"]!.streaming)
    }

    func testFitStepsToMJPEGFirstWhenOffered() {
        let modes = [CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 30),
                     CaptureMode(pixelFormat: .mjpeg, size: FakeCameras.hd, framesPerSecond: 30),
                     CaptureMode(pixelFormat: .yuyv, size: FakeCameras.hd, framesPerSecond: 15)]
        XCTAssertEqual(BandwidthFit.nextStep(after: modes[0], requestedFPS: 30, available: modes), modes[1])
        XCTAssertNil(BandwidthFit.nextStep(after: modes[1], requestedFPS: 30, available: modes))
    }

    func testFitGivesUpWithTheLastError() throws {
        let start = CaptureMode(pixelFormat: .yuyv, size: FakeCameras.qvga, framesPerSecond: 15)
        XCTAssertThrowsError(try BandwidthFit.search(start: [start], available: [[start]]) { _ in
            throw V4L2Error.noBandwidth(path: "/dev/video0", mode: "x", detail: "y")
        }) { error in
            XCTAssertEqual(error as? V4L2Error, .noBandwidth(path: "/dev/video0", mode: "x", detail: "y"))
        }
    }
}
