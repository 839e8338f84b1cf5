import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam depth`: the built-in demo, a synthetic `steps` pair from
/// `dualcam synth` (320x240, 1 spp), sequences, and bad input (unknown
/// --type/--size, aspect mismatch, cameras without overlap).
final class DepthCommandTests: XCTestCase {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: TemporaryDirectory?

    override class func tearDown() {
        lock.lock()
        shared = nil
        lock.unlock()
        super.tearDown()
    }

    struct FixtureError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// fx/ (synth steps 320x240), crop/ (fx cropped to 320x180), seq/{wide,tele}/ (two copies of fx),
    /// apart.yaml (the nominal rig with the tele turned 90 degrees away).
    static func fixtures() throws -> TemporaryDirectory {
        lock.lock()
        defer { lock.unlock() }
        if let shared { return shared }
        let dir = try TemporaryDirectory("dualcam-depth-fixtures")
        let synth = try E2E.run(["synth", "--scene", "steps", "--size", "320x240", "--spp", "1", "--out", "fx"], in: dir)
        guard synth.status == 0 else { throw FixtureError(message: "synth failed: \(synth.stderr)") }
        let fm = FileManager.default
        for name in ["crop", "seq", "seq/wide", "seq/tele"] {
            try fm.createDirectory(at: dir.path(name), withIntermediateDirectories: false)
        }
        for camera in ["wide", "tele"] {
            let image = try ImageIO.read(dir.path("fx/\(camera).png"))
            try ImageIO.write(try image.cropped(x: 0, y: 30, width: 320, height: 180), to: dir.path("crop/\(camera).png"))
            for i in 0..<2 { try ImageIO.write(image, to: dir.path("seq/\(camera)/\(i).png")) }
        }
        var yaml = try E2E.nominalYAML()
        let start = try XCTUnwrap(yaml.range(of: "    rotation: ["))
        let end = try XCTUnwrap(yaml[start.upperBound...].range(of: "]"))
        yaml.replaceSubrange(start.lowerBound..<end.upperBound, with: "    rotation: [0, 0, 1, 0, 1, 0, -1, 0, 0]")
        try yaml.write(to: dir.path("apart.yaml"), atomically: true, encoding: .utf8)
        shared = dir
        return dir
    }

    func testDemoWritesDepthSidecarAndConfidence() throws {
        let dir = try TemporaryDirectory("dualcam-depth-demo")
        let result = try E2E.succeed(["depth", "--demo-size", "320x240", "--size", "streaming", "-o", "d.pfm",
                                      "--confidence", "c.png", "--preview", "p.png", "--json"], in: dir)
        XCTAssertTrue(result.stderr.contains("built-in demo"), result.stderr)
        let report = try E2E.jsonObject(result.stdout)
        XCTAssertEqual(report["reference"] as? String, "tele")
        XCTAssertEqual(report["mode"] as? String, "filtered")
        let map = try ImageIO.read(dir.path("d.pfm"))
        XCTAssertEqual([map.width, map.height], [320, 240])
        let values = try map.pixels(as: Float.self)
        XCTAssertTrue(values.allSatisfy { $0.isFinite && $0 > 0 }, "filtered depth must be dense")
        // At 320x240 the back wall is under 1 px of disparity; nearly all values lie in the room's range.
        let inRoom = values.filter { $0 > 0.3 && $0 < 8 }.count
        XCTAssertGreaterThan(Double(inRoom), 0.9 * Double(values.count))
        let sidecar = try E2E.jsonObject(String(contentsOf: dir.path("d.pfm.json"), encoding: .utf8))
        XCTAssertEqual(sidecar["type"] as? String, "depth")
        XCTAssertEqual(sidecar["accuracy"] as? String, "relative")
        XCTAssertEqual(sidecar["filtered"] as? Bool, true)
        XCTAssertEqual(sidecar["reference_camera"] as? String, "tele")
        XCTAssertEqual(sidecar["quality"] as? String, "high")
        let confidence = try ImageIO.read(dir.path("c.png"))
        XCTAssertEqual([confidence.width, confidence.height, confidence.channels], [320, 240, 1])
        let preview = try ImageIO.read(dir.path("p.png"))
        XCTAssertEqual(preview.channels, 3)
        XCTAssertGreaterThanOrEqual(preview.width, 320)
    }

    /// steps: planes at 0.5, 1, 2, 4 m before a wall at 6 m; the unfiltered wide-reference
    /// disparity (1/m) of the measured pixels matches the truth around the image centre.
    func testSynthPairUnfilteredWideReferenceDisparity() throws {
        let dir = try Self.fixtures()
        let result = try E2E.succeed(["depth", "--wide", "fx/wide.png", "--tele", "fx/tele.png", "--calibration",
                                      "fx/calibration.yaml", "--reference", "wide", "--mode", "unfiltered", "--type",
                                      "disparity", "--size", "native", "-o", "out-disp.npy", "--json"], in: dir)
        let report = try E2E.jsonObject(result.stdout)
        let region = E2E.doubles(report["covered_region"])
        XCTAssertEqual(region.count, 4)
        let map = try ImageIO.read(dir.path("out-disp.npy"))
        let truth = try ImageIO.read(dir.path("fx/wide.depth.pfm"))
        let d = try map.pixels(as: Float.self), z = try truth.pixels(as: Float.self)
        var errors: [Float] = []
        var outside = 0
        for y in 0..<240 {
            for x in 0..<320 {
                let i = y * 320 + x
                let inside = Double(x) >= region[0] && Double(x) < region[0] + region[2] && Double(y) >= region[1] && Double(y) < region[1] + region[3]
                if !inside { if d[i].isFinite { outside += 1 }; continue }
                if d[i].isFinite, z[i].isFinite { errors.append(abs(d[i] - 1 / z[i]) * z[i]) }
            }
        }
        XCTAssertEqual(outside, 0, "values outside the covered region")
        errors.sort()
        // Unfiltered values are precise to 5 % (`unfilteredRelativeDepthNoise`): at
        // this size (0.4 px of disparity at 6 m) 2 669 values, median relative error
        // 3.1 % (before that bound 17 976 values, median 5.4 %, half > 5 % off).
        XCTAssertGreaterThan(errors.count, 2000)
        XCTAssertLessThan(errors[errors.count / 2], 0.04, "median relative error")
        XCTAssertEqual(report["max_relative_noise"] as? Double, 0.05)
        let kept = try XCTUnwrap(report["kept_fraction"] as? Double), measured = try XCTUnwrap(report["measured_fraction"] as? Double)
        XCTAssertLessThan(kept, measured, "the bound keeps a part of what was measured")
    }

    /// `--max-noise` sets unfiltered mode's precision bound: `none` keeps every
    /// measurement (a superset of the default 5 %'s, the same values where
    /// both have one), 10 % keeps more than 5 % and 2 % less.
    func testMaxNoiseSetsTheUnfilteredPrecision() throws {
        let dir = try Self.fixtures()
        func values(_ bound: String?) throws -> (values: [Float], summary: String) {
            let name = "noise-\(bound.map { $0.replacingOccurrences(of: "%", with: "pc") } ?? "default").pfm"
            let result = try E2E.succeed(["depth", "--wide", "fx/wide.png", "--tele", "fx/tele.png", "--calibration",
                                          "fx/calibration.yaml", "--mode", "unfiltered", "--size", "native", "-o", name]
                                         + (bound.map { ["--max-noise", $0] } ?? []), in: dir)
            return (try ImageIO.read(dir.path(name)).pixels(as: Float.self), result.stdout)
        }
        let standard = try values(nil), all = try values("none"), wider = try values("10%"), tighter = try values("0.02")
        func count(_ v: [Float]) -> Int { v.filter(\.isFinite).count }
        XCTAssertTrue(standard.summary.contains("precise to 5%"), standard.summary)
        XCTAssertFalse(all.summary.contains("precise to"), all.summary)
        XCTAssertLessThan(count(tighter.values), count(standard.values))
        XCTAssertLessThan(count(standard.values), count(wider.values))
        XCTAssertLessThan(count(wider.values), count(all.values))
        for (a, b) in zip(standard.values, all.values) where a.isFinite { XCTAssertEqual(a, b) }
    }

    func testSequenceWritesNumberedMaps() throws {
        let dir = try Self.fixtures()
        try E2E.succeed(["depth", "--wide", "seq/wide", "--tele", "seq/tele", "--calibration", "fx/calibration.yaml",
                         "--size", "160x120", "-o", "seq-out"], in: dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("seq-out").path).sorted()
        XCTAssertEqual(names, ["depth_0000.pfm", "depth_0000.pfm.json", "depth_0001.pfm", "depth_0001.pfm.json"])
    }

    /// Directories whose file names are nanosecond timestamps pair by time:
    /// unequal lengths are fine, each tele frame meets its nearest wide frame.
    func testTimestampNamedDirectoriesPairByTime() throws {
        let dir = try TemporaryDirectory("dualcam-depth-timestamps")
        let fixtures = try Self.fixtures()
        let fm = FileManager.default
        for (camera, times) in [("wide", ["1000000000", "1033000000", "1066000000"]), ("tele", ["1001000000", "1067000000"])] {
            try fm.createDirectory(at: dir.path(camera), withIntermediateDirectories: false)
            for t in times { try fm.copyItem(at: fixtures.path("fx/\(camera).png"), to: dir.path("\(camera)/\(t).png")) }
        }
        let result = try E2E.succeed(["depth", "--wide", "wide", "--tele", "tele", "--calibration", fixtures.path("fx/calibration.yaml").path,
                                      "--size", "160x120", "-o", "out"], in: dir)
        XCTAssertTrue(result.stdout.contains("2 pairs, paired by timestamp"), result.stdout)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.path("out").path).sorted(),
                       ["depth_0000.pfm", "depth_0000.pfm.json", "depth_0001.pfm", "depth_0001.pfm.json"])
    }

    func testBadInputFailsCleanly() throws {
        let dir = try Self.fixtures()
        let pair = ["--wide", "fx/wide.png", "--tele", "fx/tele.png", "--calibration", "fx/calibration.yaml"]
        try E2E.assertFailsCleanly(["depth", "--type", "height", "-o", "bad1.pfm"] + pair, in: dir,
                                   mentions: ["--type", "'depth', 'disparity' or 'pixels'"], absent: ["bad1.pfm"])
        try E2E.assertFailsCleanly(["depth", "--size", "huge", "-o", "bad2.pfm"] + pair, in: dir,
                                   mentions: ["--size"], absent: ["bad2.pfm"])
        try E2E.assertFailsCleanly(["depth", "--size", "300x300", "-o", "bad3.pfm"] + pair, in: dir,
                                   mentions: ["--size", "aspect"], absent: ["bad3.pfm"])
        try E2E.assertFailsCleanly(["depth", "--wide", "crop/wide.png", "--tele", "crop/tele.png", "--calibration",
                                    "fx/calibration.yaml", "-o", "bad4.pfm"], in: dir,
                                   mentions: ["wide", "aspect"], absent: ["bad4.pfm"])
        try E2E.assertFailsCleanly(["depth", "--calibration", "apart.yaml", "--wide", "fx/wide.png", "--tele", "fx/tele.png",
                                    "-o", "bad5.pfm"], in: dir, mentions: ["overlap"], absent: ["bad5.pfm"])
        try E2E.assertFailsCleanly(["depth", "--mode", "smooth", "-o", "bad6.pfm"] + pair, in: dir,
                                   mentions: ["--mode", "'filtered' and 'unfiltered'"], absent: ["bad6.pfm"])
        try E2E.assertFailsCleanly(["depth", "--min-depth", "2m", "--max-depth", "1m", "-o", "bad7.pfm"] + pair, in: dir,
                                   mentions: ["--max-depth"], absent: ["bad7.pfm"])
        for (i, bad) in ["0", "-1", "abc", "150%", "nan"].enumerated() {
            try E2E.assertFailsCleanly(["depth", "--mode", "unfiltered", "--max-noise", bad, "-o", "bad8-\(i).pfm"] + pair,
                                       in: dir, mentions: ["--max-noise '\(bad)'", "5%"], absent: ["bad8-\(i).pfm"])
        }
        try E2E.assertFailsCleanly(["depth", "--max-noise", "5%", "-o", "bad9.pfm"] + pair, in: dir,
                                   mentions: ["--max-noise", "--mode unfiltered"], absent: ["bad9.pfm"])
    }
}
