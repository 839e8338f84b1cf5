import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam devices`, `dualcam capture` and converge's camera options, run as a
/// user would. This machine has no cameras: device paths are tested through the
/// fake device in DualcamCaptureTests; here the bad inputs and the bandwidth
/// estimate (which needs no device).
final class CaptureCommandTests: XCTestCase {
    func testBandwidthEstimateWithoutDevices() throws {
        let yuyv = try E2E.succeed(["devices", "--size", "1280x720", "--fps", "30", "--format", "yuyv"])
        // 1280 x 720 x 2 x 30 = 55.3 MB/s per camera; two of them against 48 MB/s.
        XCTAssertTrue(yuyv.stdout.contains("YUYV 1280x720 @ 30 fps needs 55.3 MB/s"), yuyv.stdout)
        XCTAssertTrue(yuyv.stdout.contains("(total 110.6 MB/s); estimated cost 2.30"), yuyv.stdout)
        XCTAssertTrue(yuyv.stdout.contains("does not fit"), yuyv.stdout)
        let small = try E2E.succeed(["devices", "--size", "640x480", "--fps", "15", "--format", "yuyv"])
        XCTAssertTrue(small.stdout.contains("(total 18.4 MB/s); estimated cost 0.38"), small.stdout)
        XCTAssertTrue(small.stdout.contains("fits one USB 2.0 controller"), small.stdout)
        let mjpeg = try E2E.succeed(["devices", "--size", "1280x720", "--fps", "30", "--format", "mjpeg"])
        XCTAssertTrue(mjpeg.stdout.contains("MJPG 1280x720 @ 30 fps needs 6.9 MB/s"), mjpeg.stdout)
    }

    func testDeviceListing() throws {
        let result = try E2E.succeed(["devices"])
        let hasCameras = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("video") }
        if !hasCameras { XCTAssertEqual(result.stdout, "devices: no V4L2 devices (/dev/video*)\n") }
    }

    func testBadDevicesFailCleanly() throws {
        let dir = try TemporaryDirectory()
        try "not a camera".write(to: dir.path("file.txt"), atomically: true, encoding: .utf8)
        try E2E.assertFailsCleanly(["devices", "/dev/null"], in: dir, mentions: ["/dev/null: not a V4L2 device"])
        try E2E.assertFailsCleanly(["devices", "--size", "640x480"], in: dir, mentions: ["--size/--fps/--format"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/zero", "--out", "cap"], in: dir,
                                   mentions: ["/dev/null: not a V4L2 device"], absent: ["cap"])
        try E2E.assertFailsCleanly(["capture", "--wide", "file.txt", "--tele", "/dev/null", "--out", "cap"], in: dir,
                                   mentions: ["file.txt: not a V4L2 device"], absent: ["cap"])
        try E2E.assertFailsCleanly(["capture", "--stereo", "/dev/video-none", "--out", "cap"], in: dir,
                                   mentions: ["/dev/video-none: cannot open: No such file or directory"], absent: ["cap"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/null", "--format", "h264", "--out", "cap"], in: dir,
                                   mentions: ["--format 'h264'", "mjpeg or yuyv"], absent: ["cap"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--out", "cap"], in: dir, mentions: ["--tele", "--stereo"])
        try E2E.assertFailsCleanly(["capture", "--stereo", "/dev/null", "--wide", "/dev/null", "--out", "cap"], in: dir, mentions: ["--stereo"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/zero", "--size", "big", "--out", "cap"], in: dir,
                                   mentions: ["--size 'big'", "WxH"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/zero", "--max-skew", "soon", "--out", "cap"], in: dir,
                                   mentions: ["--max-skew 'soon'"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/zero", "--count", "0", "--out", "cap"], in: dir,
                                   mentions: ["--count 0"])
        try E2E.assertFailsCleanly(["capture", "--wide", "/dev/null", "--tele", "/dev/zero", "--out", "missing/cap"], in: dir,
                                   mentions: ["missing/cap", "parent directory"])
    }

    func testConvergeWithCamerasValidatesFirst() throws {
        let dir = try TemporaryDirectory()
        try E2E.assertFailsCleanly(["converge", "--wide", "/dev/null", "--tele", "/dev/zero", "--distance", "1m", "--count", "2", "-o", "out.avi"], in: dir,
                                   mentions: ["/dev/null: not a V4L2 device"], absent: ["out.avi"])
        try E2E.assertFailsCleanly(["converge", "--stereo", "/dev/null", "--distance", "1m"], in: dir, mentions: ["--count/--duration"])
        try E2E.assertFailsCleanly(["converge", "--stereo", "/dev/null", "--sweep", "0.5m:2m", "--count", "2"], in: dir, mentions: ["--sweep", "cameras"])
    }
}

/// `converge --stereo FILE`: a side-by-side image or video goes through the
/// same pair loop as live cameras.
final class ConvergeSideBySideTests: XCTestCase {
    func testSideBySideImageConvergesLikeTheSeparatePair() throws {
        let fx = try ConvergeCommandTests.fixtures()
        let dir = try TemporaryDirectory()
        let wide = try ImageIO.read(fx.path("small/wide.png")), tele = try ImageIO.read(fx.path("small/tele.png"))
        XCTAssertEqual(wide.width, tele.width)
        // wide | tele, row by row.
        var bytes: [UInt8] = []
        for y in 0..<wide.height {
            bytes += wide.bytes[y * wide.rowByteCount..<(y + 1) * wide.rowByteCount]
            bytes += tele.bytes[y * tele.rowByteCount..<(y + 1) * tele.rowByteCount]
        }
        let sbs = try Image(width: 2 * wide.width, height: wide.height, channels: wide.channels, element: .uint8, bytes: bytes)
        try ImageIO.write(sbs, to: dir.path("sbs.png"))
        let calibration = fx.path("fx/calibration.yaml").path
        try E2E.succeed(["converge", "--wide", fx.path("small/wide.png").path, "--tele", fx.path("small/tele.png").path,
                         "--calibration", calibration, "--distance", "1.2m", "-o", "single.png"], in: dir)
        let result = try E2E.succeed(["converge", "--stereo", "sbs.png", "--calibration", calibration, "--distance", "1.2m", "-o", "frames"], in: dir)
        XCTAssertTrue(result.stdout.hasPrefix("converge: 1 pairs from sbs.png"), result.stdout)
        XCTAssertEqual(try ImageIO.read(dir.path("frames/frame_0000.png")), try ImageIO.read(dir.path("single.png")))
        try E2E.assertFailsCleanly(["converge", "--stereo", "sbs.png", "--size", "640x480", "--distance", "1.2m", "-o", "f2"], in: dir,
                                   mentions: ["--size", "side-by-side file"], absent: ["f2"])
    }
}

/// `depth --stereo FILE` and depth's camera options.
final class DepthSideBySideTests: XCTestCase {
    func testSideBySideImageGivesTheSameMapAsTheSeparatePair() throws {
        let fx = try ConvergeCommandTests.fixtures()
        let dir = try TemporaryDirectory()
        let wide = try ImageIO.read(fx.path("fx/wide.png")), tele = try ImageIO.read(fx.path("fx/tele.png"))
        var bytes: [UInt8] = []
        for y in 0..<wide.height {
            bytes += wide.bytes[y * wide.rowByteCount..<(y + 1) * wide.rowByteCount]
            bytes += tele.bytes[y * tele.rowByteCount..<(y + 1) * tele.rowByteCount]
        }
        try ImageIO.write(try Image(width: 2 * wide.width, height: wide.height, channels: 3, element: .uint8, bytes: bytes), to: dir.path("sbs.png"))
        // The separate pair without its per-frame sidecars (the halves have none).
        try ImageIO.write(wide, to: dir.path("w.png"))
        try ImageIO.write(tele, to: dir.path("t.png"))
        let common = ["--calibration", fx.path("fx/calibration.yaml").path, "--mode", "unfiltered", "--size", "streaming"]
        try E2E.succeed(["depth", "--wide", "w.png", "--tele", "t.png", "-o", "single.pfm"] + common, in: dir)
        let result = try E2E.succeed(["depth", "--stereo", "sbs.png", "-o", "maps"] + common, in: dir)
        XCTAssertTrue(result.stdout.hasPrefix("depth: 1 pairs from sbs.png"), result.stdout)
        XCTAssertEqual(try Data(contentsOf: dir.path("maps/depth_0000.pfm")), try Data(contentsOf: dir.path("single.pfm")))
        try E2E.assertFailsCleanly(["depth", "--stereo", "sbs.png", "--camera-size", "640x480", "-o", "m2"] + common, in: dir,
                                   mentions: ["--camera-size", "side-by-side file"], absent: ["m2"])
        try E2E.assertFailsCleanly(["depth", "--wide", "/dev/null", "--tele", "/dev/zero", "--count", "2", "-o", "m3"], in: dir,
                                   mentions: ["/dev/null: not a V4L2 device"], absent: ["m3"])
        try E2E.assertFailsCleanly(["depth", "--wide", "/dev/null", "--tele", "/dev/zero", "-o", "m3"], in: dir,
                                   mentions: ["--count/--duration"], absent: ["m3"])
    }
}
