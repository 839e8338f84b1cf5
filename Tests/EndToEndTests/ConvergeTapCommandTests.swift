import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam converge --distance auto --at`: taps in the wide or tele image,
/// ambiguity warnings and their JSON, the low-texture fallback, tracking on
/// sequences. Real pairs: OpenCV's sample stereo set (opencv-doc) with
/// Calibration/datasets/opencv-stereo-sample.yaml.
final class ConvergeTapCommandTests: XCTestCase {
    static let data = OpenCVSamplePairs.directory.path
    static var calibration: String { OpenCVSamplePairs.calibration.path }

    static func pair(_ n: String) -> [String] {
        ["--wide", "\(data)/left\(n).jpg", "--tele", "\(data)/right\(n).jpg", "--calibration", calibration]
    }

    /// Pair 01's board centre repeats along the baseline: the warning names
    /// the candidates, one of them the board (0.380 m by its pose), and
    /// --json carries them with the ambiguous flag and the tap's landing.
    func testAmbiguousTapWarnsAndListsTheCandidates() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["converge"] + Self.pair("01") + ["--distance", "auto", "--at", "tele:249,187",
                                                                        "-o", "out.png", "--json"], in: dir)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("converge: --at tele:249,187: tele pixel (249.0, 187.0) lands at wide pixel (") },
                      result.stderr)
        let warning = try XCTUnwrap(lines.first { $0.hasPrefix("converge: warning: ambiguous distance") }, result.stderr)
        XCTAssertTrue(warning.contains("repeats every") && warning.contains("candidates") && warning.contains("0.380"), warning)
        let report = try E2E.jsonObject(result.stdout)
        let auto = try XCTUnwrap(report["auto"] as? [String: Any])
        XCTAssertEqual(auto["ambiguous"] as? Bool, true)
        XCTAssertEqual(auto["confidence"] as? String, "low")
        let candidates = try XCTUnwrap(auto["candidates"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(candidates.count, 2)
        XCTAssertTrue(candidates.contains { abs(E2E.double($0["distance_metres"]) - 0.3802) < 0.004 }, "\(candidates)")
        XCTAssertEqual(E2E.double(report["distance_metres"]), E2E.double(candidates[0]["distance_metres"]), accuracy: 1e-9)
        XCTAssertGreaterThan(E2E.double(auto["peak_ratio"]), 0.9)
        let tap = try XCTUnwrap(auto["tap"] as? [String: Any])
        XCTAssertEqual(tap["image"] as? String, "tele")
        XCTAssertEqual(tap["camera"] as? String, "tele")
        XCTAssertEqual(tap["other_camera"] as? String, "wide")
        XCTAssertEqual(E2E.doubles(tap["pixel"]), [249, 187])
        XCTAssertEqual(tap["other_inside"] as? Bool, true)
        XCTAssertEqual(auto["scored_in"] as? String, "tele")
        XCTAssertEqual(try dir.fileNames(), ["out.png"])
    }

    /// A tap in the wide image is scored in the wide's view and lands in the
    /// tele; an unambiguous pair gets no warning. Tapping the wide pixel where
    /// a tele tap landed gives the same distance and lands back on the tele tap.
    func testWideTapOnAnUnambiguousPair() throws {
        let dir = try TemporaryDirectory()
        let tele = try E2E.jsonObject(try E2E.succeed(["converge"] + Self.pair("06") + ["--distance", "auto", "--at", "tele:360,284",
                                                                                         "-o", "t.png", "--json"], in: dir).stdout)
        let teleAuto = try XCTUnwrap(tele["auto"] as? [String: Any])
        XCTAssertEqual(teleAuto["ambiguous"] as? Bool, false)
        // The board (0.3686 m at that point by its pose) within 1 %.
        XCTAssertEqual(E2E.double(tele["distance_metres"]), 0.3686, accuracy: 0.01 * 0.3686)
        let landed = E2E.doubles((teleAuto["tap"] as? [String: Any])?["other_pixel"])
        XCTAssertEqual(landed.count, 2)
        let at = String(format: "wide:%.0f,%.0f", landed[0], landed[1])
        let result = try E2E.succeed(["converge"] + Self.pair("06") + ["--distance", "auto", "--at", at, "-o", "w.png", "--json"],
                                     in: dir)
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
        XCTAssertTrue(result.stderr.contains("converge: --at \(at): wide pixel ("), result.stderr)
        let report = try E2E.jsonObject(result.stdout)
        let auto = try XCTUnwrap(report["auto"] as? [String: Any])
        XCTAssertEqual(auto["scored_in"] as? String, "wide")
        let tap = try XCTUnwrap(auto["tap"] as? [String: Any])
        XCTAssertEqual(tap["camera"] as? String, "wide")
        XCTAssertEqual(tap["other_camera"] as? String, "tele")
        XCTAssertEqual(E2E.double(report["distance_metres"]), E2E.double(tele["distance_metres"]),
                       accuracy: 0.01 * E2E.double(tele["distance_metres"]))
        let back = E2E.doubles(tap["other_pixel"])
        XCTAssertEqual(back.count, 2)
        XCTAssertEqual(back.first ?? 0, 360, accuracy: 2)
        XCTAssertEqual(back.last ?? 0, 284, accuracy: 2)
        print("tele tap 360,284 -> \(tele["distance_metres"]!) m, lands at wide \(landed); \(at) -> \(report["distance_metres"]!) m, lands at tele \(back)")
    }

    /// A tap on the plane's untextured patch falls back to the whole overlap
    /// with a warning; bad --at values are one-line errors naming the flag.
    func testLowTextureFallbackAndBadTaps() throws {
        let dir = try TemporaryDirectory()
        let synth = try E2E.run(["synth", "--scene", "plane", "--distance", "1m", "--untextured", "--size", "640x480",
                                 "--spp", "1", "--out", "fx"], in: dir)
        XCTAssertEqual(synth.status, 0, synth.stderr)
        let inputs = ["--wide", dir.path("fx/wide.png").path, "--tele", dir.path("fx/tele.png").path,
                      "--calibration", dir.path("fx/calibration.yaml").path]
        // The patch (0.15 m right, 0.1 m down at 1 m) is seen by the tele around (462, 335).
        let result = try E2E.succeed(["converge"] + inputs + ["--distance", "auto", "--at", "tele:462,335", "-o", "out.png",
                                                               "--json"], in: dir)
        let warning = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains("warning") }, result.stderr)
        XCTAssertTrue(warning.contains("has no texture along the baseline") && warning.hasSuffix("used the whole overlap instead"),
                      String(warning))
        let report = try E2E.jsonObject(result.stdout)
        XCTAssertEqual((report["auto"] as? [String: Any])?["fell_back_to_whole_overlap"] as? Bool, true)
        XCTAssertEqual(E2E.double(report["distance_metres"]), 1, accuracy: 0.02)

        for (value, mentions) in [("left:10,10", ["--at 'left:10,10'", "wide:x,y or tele:x,y"]),
                                  ("wide:700,10", ["--at 'wide:700,10'", "outside the 640x480 wide image"]),
                                  ("tele:1,2,3", ["--at 'tele:1,2,3'", "two numbers"])] {
            try E2E.assertFailsCleanly(["converge"] + inputs + ["--distance", "auto", "--at", value, "-o", "bad.png"],
                                       in: dir, mentions: mentions, absent: ["bad.png"])
        }
    }

    /// On a sequence the distance is tracked: --json lists per frame the
    /// tracked and measured distances and the tracker's decision.
    func testSequencesTrackTheDistance() throws {
        let dir = try TemporaryDirectory()
        let fm = FileManager.default
        for side in ["w", "t"] { try fm.createDirectory(at: dir.path(side), withIntermediateDirectories: false) }
        for i in 0..<4 {
            try fm.copyItem(at: URL(fileURLWithPath: "\(Self.data)/left06.jpg"), to: dir.path("w/f\(i).jpg"))
            try fm.copyItem(at: URL(fileURLWithPath: "\(Self.data)/right06.jpg"), to: dir.path("t/f\(i).jpg"))
        }
        let result = try E2E.succeed(["converge", "--wide", "w", "--tele", "t", "--calibration", Self.calibration,
                                      "--distance", "auto", "--at", "tele:360,284", "-o", "frames", "--json"], in: dir)
        let report = try E2E.jsonObject(result.stdout)
        let tracking = try XCTUnwrap(report["tracking"] as? [[String: Any]])
        XCTAssertEqual(tracking.map { $0["decision"] as? String }, ["started", "followed", "followed", "followed"])
        for frame in tracking { XCTAssertEqual(E2E.double(frame["distance_metres"]), 0.3686, accuracy: 0.02 * 0.3686) }
        let text = try E2E.succeed(["converge", "--wide", "w", "--tele", "t", "--calibration", Self.calibration,
                                    "--distance", "auto", "--at", "tele:360,284", "-o", "frames2"], in: dir)
        XCTAssertTrue(text.stdout.contains("; tracked 0.3"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0 frames coasted, 0 restarts"), text.stdout)
    }
}
