import Foundation
import TestSupport
import XCTest

/// The converge and fuse jobs of `dualcam batch` give the plain commands' outputs.
final class BatchJobsTests: XCTestCase {
    typealias M = BatchCommandTests

    /// A fixed distance: chunks of 2 over 2 tasks give the plain sequence's
    /// frames. A tracked automatic distance (unbounded memory) is one unit,
    /// equal to the plain run too.
    func testConvergeEqualsThePlainCommand() throws {
        let dir = try TemporaryDirectory("dualcam-batch-converge")
        let f = try BatchFixtures.directory()
        let rec = "  - {name: s, wide: $F/small/wide, tele: $F/small/tele}"
        var m = try M.manifest(rec, chunk: 2, options: "{distance: 1.2m, view: blend}", job: "converge", in: dir)
        XCTAssertTrue(try E2E.succeed(["batch", "plan", m], in: dir).stdout.contains("s: converge, 6 pairs (paired by index), 3 units"))
        try E2E.succeed(["batch", "run", m, "--task", "0", "--of", "2"], in: dir)
        try E2E.succeed(["batch", "run", m, "--task", "1", "--of", "2"], in: dir)
        let pair = ["--wide", f.path("small/wide").path, "--tele", f.path("small/tele").path, "--calibration", f.path("rig.yaml").path]
        try E2E.succeed(["converge"] + pair + ["--distance", "1.2m", "--view", "blend", "-o", "plain"], in: dir)
        try BatchFixtures.assertSameFiles(dir.path("out/s"), dir.path("plain"))

        m = try M.manifest(rec, chunk: 2, options: "{distance: auto}", job: "converge", in: dir, name: "auto.yaml")
        let plan = try E2E.succeed(["batch", "plan", m], in: dir)
        XCTAssertTrue(plan.stdout.contains("1 units (one unit: the tracked distance depends on every earlier frame)"), plan.stdout)
        try FileManager.default.removeItem(at: dir.path("out"))
        try E2E.succeed(["batch", "run", m], in: dir)
        try E2E.succeed(["converge"] + pair + ["--distance", "auto", "-o", "plain-auto"], in: dir)
        try BatchFixtures.assertSameFiles(dir.path("out/s"), dir.path("plain-auto"))
    }

    /// fuse: one plain `dualcam fuse` per pair (samples named after the wide frame).
    func testFuseEqualsThePlainCommand() throws {
        let dir = try TemporaryDirectory("dualcam-batch-fuse")
        let f = try BatchFixtures.directory()
        let m = try M.manifest("  - {name: s, wide: $F/small/wide, tele: $F/small/tele, samples: $F/small/samples}", chunk: 4,
                               options: "{size: 160x120, format: npy}", job: "fuse", in: dir)
        let run = try E2E.succeed(["batch", "run", m], in: dir)
        XCTAssertTrue(run.stdout.contains("2 units done (6 pairs)"), run.stdout)
        try FileManager.default.createDirectory(at: dir.path("plain"), withIntermediateDirectories: false)
        for k in 0..<6 {
            let frame = String(format: "frame_%06d", k)
            try E2E.succeed(["fuse", "--wide", f.path("small/wide/\(frame).png").path, "--tele", f.path("small/tele/\(frame).png").path,
                             "--samples", f.path("small/samples/\(frame).csv").path, "--calibration", f.path("rig.yaml").path,
                             "--size", "160x120", "-o", String(format: "plain/fused_%04d.npy", k)], in: dir)
        }
        try BatchFixtures.assertSameFiles(dir.path("out/s"), dir.path("plain"))
        // The samples are inputs: a changed samples file redoes its unit.
        let record = try E2E.jsonObject(String(contentsOf: dir.path("out/.dualcam-batch/records/s.000004-000006.json"), encoding: .utf8))
        let files = ((record["inputs"] as? [String: Any])?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        XCTAssertTrue(files.contains(f.path("small/samples/frame_000005.csv").path), "\(files)")
    }

    /// fuse: a samples directory with two files for one frame is refused; a missing samples file fails its unit.
    func testFuseRefusals() throws {
        let dir = try TemporaryDirectory("dualcam-batch-fuse-bad")
        let f = try BatchFixtures.directory()
        try FileManager.default.createDirectory(at: dir.path("samples"), withIntermediateDirectories: false)
        for k in [0, 1, 2, 3, 5] {
            try FileManager.default.copyItem(at: f.path("small/samples/frame_00000\(k).csv"), to: dir.path("samples/frame_00000\(k).csv"))
        }
        let rec = "  - {name: s, wide: $F/small/wide, tele: $F/small/tele, samples: \(dir.path("samples").path)}"
        let m = try M.manifest(rec, chunk: 3, options: "{size: 160x120}", job: "fuse", in: dir)
        let run = try E2E.run(["batch", "run", m], in: dir)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("s.000003-000006: FAILED: \(dir.path("samples/frame_000004").path): no samples file"), run.stderr)
        XCTAssertTrue(run.stdout.contains("1 units done (3 pairs)"), run.stdout)
        try FileManager.default.copyItem(at: f.path("rig.yaml"), to: dir.path("samples/frame_000001.ply"))
        try E2E.assertFailsCleanly(["batch", "plan", m], in: dir, mentions: ["frame_000001.csv and frame_000001.ply"])
    }
}
