import Foundation
import TestSupport
import XCTest

/// `dualcam batch` when things go wrong: a task killed mid-run, bad
/// manifests and flags, a manifest changed between runs, a failing unit.
final class BatchFailureTests: XCTestCase {
    typealias M = BatchCommandTests

    /// SIGKILL right after the first unit's record appears: the output holds
    /// exactly the files of the recorded units (nothing of the unit being
    /// computed), status says what is missing; the rerun skips the done
    /// units, says how many, and ends with the plain command's maps.
    func testKilledTaskLeavesNoPartialUnitAndRerunSkipsDone() throws {
        let dir = try TemporaryDirectory("dualcam-batch-kill")
        let f = try BatchFixtures.directory()
        let m = try M.manifest("  - {name: rec1, wide: $F/rec1/wide, tele: $F/rec1/tele}", chunk: 4, in: dir)
        let out = dir.path("out")
        let process = Process()
        process.executableURL = DualcamBinary.url
        process.arguments = ["batch", "run", m]
        process.currentDirectoryURL = dir.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while BatchFixtures.records(out).isEmpty, process.isRunning, Date() < deadline { usleep(5_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the task was still running when killed")
        let records = BatchFixtures.records(out)
        XCTAssertGreaterThanOrEqual(records.count, 1)
        XCTAssertLessThan(records.count, 6, "killed before the last unit")
        // Exactly the recorded units' files are in place: every map with its sidecar, nothing else.
        var recorded: [String] = []
        for name in records {
            let record = try E2E.jsonObject(String(contentsOf: out.appendingPathComponent(".dualcam-batch/records/\(name)"), encoding: .utf8))
            XCTAssertEqual(record["status"] as? String, "done")
            recorded += record["outputs"] as? [String] ?? []
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("rec1").path).sorted(), recorded.sorted())
        let status = try E2E.run(["batch", "status", m], in: dir)
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.stdout.hasPrefix("batch: 6 units: \(records.count) done, 0 failed, 0 changed, \(6 - records.count) missing, 0 running"),
                      status.stdout)
        // Killed while a unit was being computed (or between units): its staging is reported.
        let staged = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".dualcam-batch/staging").path)
        XCTAssertLessThanOrEqual(staged.count, 1)
        XCTAssertEqual(status.stdout.contains("1 staging directories left by killed tasks"), staged.count == 1, status.stdout)

        let rerun = try E2E.succeed(["batch", "run", m], in: dir)
        XCTAssertTrue(rerun.stdout.contains("\(6 - records.count) units done") && rerun.stdout.contains("\(records.count) skipped (done before, unchanged)"),
                      rerun.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".dualcam-batch/staging").path), [],
                       "the killed task's staging directory is gone")
        try E2E.succeed(["depth", "--wide", f.path("rec1/wide").path, "--tele", f.path("rec1/tele").path,
                         "--calibration", f.path("rig.yaml").path, "--size", "160x120", "-o", "plain"], in: dir)
        try BatchFixtures.assertSameFiles(out.appendingPathComponent("rec1"), dir.path("plain"))
    }

    func testBadInputFailsCleanly() throws {
        let dir = try TemporaryDirectory("dualcam-batch-bad")
        let f = try BatchFixtures.directory()
        let ok = "  - {name: a, wide: $F/small/wide, tele: $F/small/tele}"
        func check(_ recordings: String, options: String = "{size: 160x120}", job: String = "depth", args: [String] = [],
                   _ mentions: [String], file: StaticString = #filePath, line: UInt = #line) throws {
            let m = try M.manifest(recordings, chunk: 2, options: options, job: job, in: dir, name: "bad.yaml")
            try E2E.assertFailsCleanly(["batch", "run", m] + args, in: dir, mentions: ["bad.yaml"] + mentions, absent: ["out"], file: file, line: line)
            try FileManager.default.removeItem(at: dir.path("bad.yaml"))
        }
        try check("  - {name: a, wide: $F/nowhere/wide, tele: $F/small/tele}", ["nowhere/wide", "recordings[0] (a) wide", "no such file"])
        try check("  - {name: a, wide: $F/small/wide, tele: $F/small/tele, calibration: $F/none.yaml}", ["none.yaml", "calibration"])
        try check(ok + "\n  - {name: b, wide: $F/rec1/wide, tele: $F/rec1/tele, output: a}", ["recordings[1].output", "the same output directory"])
        try check(ok + "\n  - {name: a, wide: $F/rec1/wide, tele: $F/rec1/tele}", ["recordings[1].name", "unique"])
        try check(ok, options: "{sizee: 160x120}", ["options.sizee", "not an option of a batch depth job"])
        try check(ok, options: "{output: x.pfm}", ["options.output", "not an option"])
        try check(ok, options: "{size: huge}", ["options", "--size", "'huge' is not a depth size"])
        try check(ok, options: "{format: bmp}", ["options", "format"])
        try check(ok, options: "{}", job: "converge", ["options", "distance", "missing"])
        try check(ok, options: "{distance: 2 parsecs}", job: "converge", ["distance '2 parsecs'"])
        try check(ok, options: "{distance: 1m, at: '3,4'}", job: "converge", ["at", "only with distance auto"])
        try check("  - {name: a, wide: $F/rec2/wide, tele: $F/rec2/tele}", options: "{max-skew: soon}", ["max-skew"])
        try check("  - {name: a, wide: $F/small/wide, tele: $F/rec1/tele}", ["6 frames", "23", "same length"])
        let m = try M.manifest(ok, chunk: 2, in: dir)
        try E2E.assertFailsCleanly(["batch", "run", m, "--task", "3", "--of", "3"], in: dir, mentions: ["--task 3", "0 to 2"], absent: ["out"])
        try E2E.assertFailsCleanly(["batch", "run", m, "--task", "1"], in: dir, mentions: ["--of", "missing"], absent: ["out"])
        try E2E.assertFailsCleanly(["batch", "plan", "missing.yaml"], in: dir, mentions: ["missing.yaml"])
        try BatchFixtures.write("version: 1\noutput: out\nrecordings: {a: 1}: 2\n", "broken.yaml", in: dir)
        try E2E.assertFailsCleanly(["batch", "status", "broken.yaml"], in: dir, mentions: ["broken.yaml"])
        _ = f
    }

    /// A manifest changed between runs: other chunks run as new units (the
    /// old records are reported, not trusted); other options redo every unit, saying why.
    func testChangedManifestBetweenRuns() throws {
        let dir = try TemporaryDirectory("dualcam-batch-manifest-change")
        let rec = "  - {name: s, wide: $F/small/wide, tele: $F/small/tele}"
        var m = try M.manifest(rec, chunk: 3, options: "{size: 160x120, mode: unfiltered}", in: dir)
        try E2E.succeed(["batch", "run", m], in: dir)
        m = try M.manifest(rec, chunk: 2, options: "{size: 160x120, mode: unfiltered}", in: dir)
        let status = try E2E.run(["batch", "status", m], in: dir)
        XCTAssertTrue(status.stdout.hasPrefix("batch: 3 units: 0 done, 0 failed, 0 changed, 3 missing"), status.stdout)
        XCTAssertTrue(status.stdout.contains("2 records of units not in this plan (an earlier manifest): s.000000-000003 s.000003-000006"), status.stdout)
        XCTAssertTrue(try E2E.succeed(["batch", "run", m], in: dir).stdout.contains("3 units done (6 pairs)"))
        m = try M.manifest(rec, chunk: 2, options: "{size: 160x120, mode: filtered}", in: dir)
        let redo = try E2E.succeed(["batch", "run", m], in: dir)
        XCTAssertTrue(redo.stderr.contains("s.000002-000004: running (options changed ('--mode unfiltered --size 160x120' -> '--mode filtered --size 160x120'))"),
                      redo.stderr)
        XCTAssertTrue(redo.stdout.contains("3 units done (6 pairs), 0 skipped"), redo.stdout)
    }

    /// A unit that fails is recorded with the reason, the others are done,
    /// the exit status is 1, status and collect report it.
    func testFailingUnitIsRecordedAndOthersFinish() throws {
        let dir = try TemporaryDirectory("dualcam-batch-failing")
        let f = try BatchFixtures.directory()
        try FileManager.default.createDirectory(at: dir.path("rec"), withIntermediateDirectories: false)
        for camera in ["wide", "tele"] { try FileManager.default.copyItem(at: f.path("small/\(camera)"), to: dir.path("rec/\(camera)")) }
        // A tele frame that is not an image: the unit holding pair 4 fails, the others do not.
        try Data("not a png".utf8).write(to: dir.path("rec/tele/frame_000004.png"))
        try BatchFixtures.write("""
            version: 1
            output: out
            chunk_pairs: 2
            job: depth
            calibration: \(f.path("rig.yaml").path)
            options: {size: 160x120, mode: unfiltered}
            recordings: [{name: r, wide: rec/wide, tele: rec/tele}]
            """, "m.yaml", in: dir)
        let run = try E2E.run(["batch", "run", "m.yaml"], in: dir)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.contains("2 units done (4 pairs), 0 skipped (done before, unchanged), 1 failed"), run.stdout)
        XCTAssertTrue(run.stderr.contains("r.000004-000006: FAILED: \(dir.path("rec/tele/frame_000004.png").path)"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out/r/depth_0004.pfm").path))
        let status = try E2E.run(["batch", "status", "m.yaml"], in: dir)
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.stdout.contains("r.000004-000006: failed: \(dir.path("rec/tele/frame_000004.png").path)"), status.stdout)
        let collect = try E2E.succeed(["batch", "collect", "m.yaml"], in: dir)
        XCTAssertTrue(collect.stdout.contains("r (depth): 4/6 pairs, units 2/3 done, 1 failed"), collect.stdout)
    }
}
