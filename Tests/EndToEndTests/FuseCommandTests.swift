import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import Foundation
import TestSupport
import XCTest

final class FuseCommandTests: XCTestCase {
    /// A small rectified room (320x240) with LiDAR samples and the ground-truth pixel disparity.
    func synth(in dir: TemporaryDirectory) throws {
        try E2E.succeed(["synth", "--scene", "room", "--size", "320x240", "--rectified", "--spp", "1",
                         "--lidar-range", "6.5m", "--out", "room"], in: dir)
    }

    func testFuseWithStereoWritesAbsoluteDepthAndReportsTheFit() throws {
        let dir = try TemporaryDirectory()
        try synth(in: dir)
        let result = try E2E.succeed(["fuse", "--wide", "room/wide.png", "--samples", "room/lidar.csv",
                                      "--disparity", "room/wide.disparity.pfm", "--calibration", "room/calibration.yaml",
                                      "--confidence", "conf.png", "--preview", "preview.png", "-o", "depth.pfm", "--json"], in: dir)
        let json = try E2E.jsonObject(result.stdout)
        XCTAssertEqual(json["accuracy"] as? String, "absolute")
        XCTAssertEqual(E2E.double(json["coverage"]), 1)
        let fit = try XCTUnwrap(json["fit"] as? [String: Any])
        // Pixel disparity d = f B / Z, so 1/Z = d / (f B): scale 1/(f B), shift 0.
        XCTAssertGreaterThan(E2E.double(fit["scale"]), 0)
        XCTAssertLessThan(abs(E2E.double(fit["shift"])), 0.02)
        XCTAssertGreaterThan(E2E.double(fit["inliers"]), 100)
        let timings = try XCTUnwrap(json["timings_ms"] as? [String: Any])
        XCTAssertNotNil(timings["complete"])
        let sidecar = try String(contentsOf: dir.path("depth.pfm.json"), encoding: .utf8)
        XCTAssertTrue(sidecar.contains("\"absolute\""), sidecar)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("conf.png").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("preview.png").path))
        let info = try E2E.succeed(["image", "info", "depth.pfm"], in: dir).stdout
        XCTAssertTrue(info.contains("320x240"), info)
    }

    func testTeleComputesTheStereoOnTheFly() throws {
        let dir = try TemporaryDirectory()
        try E2E.succeed(["synth", "--scene", "room", "--size", "320x240", "--spp", "1", "--lidar-range", "6.5m", "--out", "pair"], in: dir)
        let result = try E2E.succeed(["fuse", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--samples", "pair/lidar.csv",
                                      "--calibration", "pair/calibration.yaml", "--size", "native", "-o", "d.pfm", "--json"], in: dir)
        let json = try E2E.jsonObject(result.stdout)
        let fit = try XCTUnwrap(json["fit"] as? [String: Any])
        XCTAssertGreaterThan(E2E.double(fit["samples_with_stereo"]), 50)
        XCTAssertGreaterThan(E2E.double(fit["scale"]), 0)
        XCTAssertEqual(E2E.double(json["coverage"]), 1)
        let timings = try XCTUnwrap(json["timings_ms"] as? [String: Any])
        XCTAssertNotNil(timings["stereo"])
        try E2E.assertFailsCleanly(["fuse", "--wide", "pair/wide.png", "--tele", "pair/tele.png", "--disparity", "pair/wide.depth.pfm",
                                    "--samples", "pair/lidar.csv", "--calibration", "pair/calibration.yaml", "-o", "x.pfm"],
                                   in: dir, mentions: ["--tele"], absent: ["x.pfm"])
    }

    /// Issue 19's path as the README gives it: `synth --scene room` at its
    /// defaults (1280x960; its LiDAR, like a phone's, stops at 5 m, before the
    /// 6 m back wall) then one-step `fuse --tele` at native size. AbsRel at
    /// most 1.5 % over the image and 3 % on what lies beyond 5.1 m (measured
    /// 0.84 % and 1.77 %; 1.49 % and 5.38 % before the colour test of the
    /// plane extension). The acceptance as a user runs it; the cheap guard of
    /// the same mechanism is `FusionAccuracyTests.testSurfacesBeyondTheSensorRange` (640x480).
    func testRoomDefaultsBeyondTheLidarRange() throws {
        let dir = try TemporaryDirectory()
        try E2E.succeed(["synth", "--scene", "room", "--out", "room"], in: dir)
        try E2E.succeed(["fuse", "--wide", "room/wide.png", "--tele", "room/tele.png", "--samples", "room/lidar.csv",
                         "--calibration", "room/calibration.yaml", "--size", "native", "-o", "fused.pfm"], in: dir)
        let fused = try ImageIO.read(dir.path("fused.pfm"))
        let truth = try ImageIO.read(dir.path("room/wide.depth.pfm")).pixels(as: Float.self)
        let size = PixelSize(width: fused.width, height: fused.height)
        let estimate = try fused.pixels(as: Float.self)
        let beyondMask = truth.map { $0.isFinite && $0 > 5.1 }
        XCTAssertGreaterThan(beyondMask.filter { $0 }.count, 100_000, "the back wall and the far ends of the side walls")
        let all = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size)
        let beyond = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size, mask: beyondMask)
        XCTAssertEqual(all.coverage, 1)
        XCTAssertLessThanOrEqual(all.meanAbsoluteRelativeError, 0.015)
        XCTAssertLessThanOrEqual(beyond.meanAbsoluteRelativeError, 0.03)
    }

    func testSamplesOnlyUnfilteredDisparity() throws {
        let dir = try TemporaryDirectory()
        try synth(in: dir)
        let result = try E2E.succeed(["fuse", "--wide", "room/wide.png", "--samples", "room/lidar.depth.png",
                                      "--calibration", "room/calibration.yaml", "--mode", "unfiltered", "--type", "disparity",
                                      "--precision", "16", "--size", "160x120", "--completion", "morphology", "-o", "d.npy"], in: dir)
        XCTAssertTrue(result.stdout.hasPrefix("fuse: unfiltered disparity 160x120 absolute"), result.stdout)
        XCTAssertTrue(result.stdout.contains("samples only"), result.stdout)
    }

    func testWarnsWithCountsOfDroppedSamples() throws {
        let dir = try TemporaryDirectory()
        try synth(in: dir)
        var csv = try String(contentsOf: dir.path("room/lidar.csv"), encoding: .utf8)
        csv += "5000,10,2.0\n-3,10,2.0\n"
        try csv.write(to: dir.path("more.csv"), atomically: true, encoding: .utf8)
        let result = try E2E.succeed(["fuse", "--wide", "room/wide.png", "--samples", "more.csv",
                                      "--calibration", "room/calibration.yaml", "-o", "d.pfm"], in: dir)
        XCTAssertTrue(result.stderr.contains("warning: more.csv: dropped 2 sample(s) outside the 320x240 wide image"), result.stderr)
    }

    func testBadInputFailsCleanly() throws {
        let dir = try TemporaryDirectory()
        try synth(in: dir)
        try "".write(to: dir.path("empty.csv"), atomically: true, encoding: .utf8)
        try "x,y,z\n0,0,1\n".write(to: dir.path("cloud.csv"), atomically: true, encoding: .utf8)
        try "x,y,depth_m\n1,1,nan\n".write(to: dir.path("nan.csv"), atomically: true, encoding: .utf8)
        let base = ["fuse", "--wide", "room/wide.png", "--calibration", "room/calibration.yaml", "-o", "out.pfm"]
        try E2E.assertFailsCleanly(base + ["--samples", "empty.csv"], in: dir, mentions: ["empty.csv", "x,y,depth_m"], absent: ["out.pfm"])
        try E2E.assertFailsCleanly(base + ["--samples", "cloud.csv"], in: dir, mentions: ["lidar"], absent: ["out.pfm"])
        try E2E.assertFailsCleanly(base + ["--samples", "nan.csv"], in: dir, mentions: ["nan.csv", "finite"], absent: ["out.pfm"])
        try E2E.assertFailsCleanly(base + ["--samples", "room/lidar.csv", "--mode", "dense"], in: dir, mentions: ["--mode"], absent: ["out.pfm"])
        try E2E.assertFailsCleanly(base + ["--samples", "room/lidar.csv", "--completion", "magic"], in: dir, mentions: ["--completion"], absent: ["out.pfm"])
        try E2E.assertFailsCleanly(base + ["--samples", "room/lidar.csv", "--type", "pixels"], in: dir, mentions: ["--type"], absent: ["out.pfm"])
    }
}
