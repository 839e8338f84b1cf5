import DualcamBatch
import DualcamCapture
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// The runner with a stand-in job (one small text file per pair, naming
/// the pair and the flags): skip, redo and failure decisions, records,
/// staging left by killed tasks, locks.
final class BatchRunnerTests: XCTestCase {
    /// A directory with rec/wide, rec/tele (`pairs` tiny frames each), rig.yaml and a manifest.
    final class Fixture {
        let dir: TemporaryDirectory
        var flags: [String] = ["--size", "streaming"]
        var version = "dualcam test"
        var failing: Set<Int> = []
        var log: [String] = []

        init(pairs: Int, chunk: Int) throws {
            dir = try TemporaryDirectory("dualcam-batch-runner")
            let fm = FileManager.default
            for camera in ["wide", "tele"] {
                try fm.createDirectory(at: dir.path("rec/\(camera)"), withIntermediateDirectories: true)
                for k in 0..<pairs {
                    let image = try Image(width: 8, height: 4, channels: 1, element: .uint8, bytes: [UInt8](repeating: UInt8(k), count: 32))
                    try ImageIO.write(image, to: dir.path("rec/\(camera)/f\(k).png"))
                }
            }
            try Data("rig".utf8).write(to: dir.path("rig.yaml"))
            try Data("""
                version: 1
                output: out
                chunk_pairs: \(chunk)
                job: depth
                calibration: rig.yaml
                recordings: [{name: rec, wide: rec/wide, tele: rec/tele}]
                """.utf8).write(to: dir.path("m.yaml"))
        }

        func runner(task: TaskSelection = TaskSelection(index: 0, count: 1, source: "test")) throws -> BatchRunner {
            let manifest = try BatchManifest.read(dir.path("m.yaml"))
            try manifest.checkInputs()
            let r = manifest.recordings[0]
            let pairs = try PairPlan.make(wide: r.source.wide.path, tele: r.source.tele.path, nominalFPS: 30, maxSkewNs: nil)
            let plan = try BatchPlan(manifest: manifest, pairCounts: [pairs.count], estimatedCounts: [nil], policies: [.warmUp(2)])
            let flags = self.flags, failing = self.failing
            let job = BatchJob(policy: .warmUp(2), flags: flags) { unit, staging in
                if failing.contains(unit.first) { throw DualcamError.format(path: "pair \(unit.first)", reason: "made to fail") }
                var names: [String] = []
                for k in unit.first..<unit.end! {
                    let name = "out_\(k).txt"
                    try Data("pair \(k) \(flags)".utf8).write(to: staging.appendingPathComponent(name))
                    names.append(name)
                }
                return UnitOutcome(outputs: names, endPair: unit.end!)
            }
            return BatchRunner(plan: plan, pairPlans: [pairs], jobs: [job], store: BatchStore(root: manifest.outputRoot),
                               version: version, task: task) { [weak self] in self?.log.append($0) }
        }

        var store: BatchStore { BatchStore(root: dir.path("out")) }
        func outputs() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path("out/rec").path).sorted() }
    }

    func testRunSkipRedo() throws {
        let f = try Fixture(pairs: 10, chunk: 4)
        var report = try f.runner().run()
        XCTAssertEqual(report.done, ["rec.000000-000004", "rec.000004-000008", "rec.000008-000010"])
        XCTAssertEqual(report.pairs, 10)
        XCTAssertEqual(try f.outputs(), (0..<10).map { "out_\($0).txt" }.sorted())
        let record = try XCTUnwrap(f.store.record("rec.000004-000008"))
        XCTAssertEqual(record.status, .done)
        XCTAssertEqual([record.firstPair, record.endPair, record.warmUpPairs], [4, 8, 2])
        XCTAssertEqual(record.inputs.flags, ["--size", "streaming"])
        XCTAssertEqual(record.inputs.dualcamVersion, "dualcam test")
        // The unit's frames, its warm-up's frames, their sidecars, timestamps files, the calibration.
        let files = record.inputs.files.map { URL(fileURLWithPath: $0.path).lastPathComponent }
        XCTAssertTrue(files.contains("f2.png") && files.contains("f7.png") && !files.contains("f1.png") && !files.contains("f8.png"), "\(files)")
        XCTAssertTrue(files.contains("f2.png.json") && files.contains("timestamps.csv") && files.contains("rig.yaml"), "\(files)")
        XCTAssertTrue(try BatchStatus(runner: f.runner()).allDone)

        report = try f.runner().run()
        XCTAssertEqual(report.skipped.count, 3)
        XCTAssertTrue(report.done.isEmpty)

        // A frame in the second unit's warm-up and in the first unit changes: those two run again.
        let touched = f.dir.path("rec/tele/f3.png")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 100)], ofItemAtPath: touched.path)
        let runner = try f.runner()
        let status = try BatchStatus(runner: runner)
        XCTAssertEqual(status.units.map(\.state), [.changed, .changed, .done])
        XCTAssertTrue(status.units[0].reason!.contains("input changed: \(touched.path)"), status.units[0].reason!)
        report = try runner.run()
        XCTAssertEqual(report.done, ["rec.000000-000004", "rec.000004-000008"])
        XCTAssertEqual(report.skipped, ["rec.000008-000010"])
        XCTAssertTrue(f.log.contains { $0.contains("running (input changed: \(touched.path)") }, "\(f.log)")

        // Options and the version are part of what a unit depends on.
        f.flags = ["--size", "photo"]
        XCTAssertEqual(try f.runner().run().done.count, 3)
        XCTAssertTrue(f.log.contains { $0.contains("options changed ('--size streaming' -> '--size photo')") })
        f.version = "dualcam next"
        XCTAssertEqual(try f.runner().run().done.count, 3)
        XCTAssertTrue(f.log.contains { $0.contains("dualcam version changed (dualcam test -> dualcam next)") })

        // A deleted output makes its unit run again.
        try FileManager.default.removeItem(at: f.dir.path("out/rec/out_9.txt"))
        report = try f.runner().run()
        XCTAssertEqual(report.done, ["rec.000008-000010"])
        XCTAssertTrue(try f.outputs().contains("out_9.txt"))
    }

    func testFailuresAreRecordedAndTheTaskGoesOn() throws {
        let f = try Fixture(pairs: 10, chunk: 4)
        f.failing = [4]
        let report = try f.runner().run()
        XCTAssertEqual(report.done, ["rec.000000-000004", "rec.000008-000010"])
        XCTAssertEqual(report.failed.map(\.unit), ["rec.000004-000008"])
        XCTAssertTrue(report.failed[0].reason.contains("made to fail"))
        // Nothing of the failed unit is published; its record says why.
        XCTAssertFalse(try f.outputs().contains("out_5.txt"))
        let record = try XCTUnwrap(f.store.record("rec.000004-000008"))
        XCTAssertEqual(record.status, .failed)
        XCTAssertEqual(record.reason, "pair 4: made to fail")
        let status = try BatchStatus(runner: f.runner())
        XCTAssertEqual(status.units.map(\.state), [.done, .failed, .done])
        XCTAssertEqual(status.units[1].reason, "pair 4: made to fail")
        XCTAssertTrue(f.store.staleStaging().isEmpty, "a failed unit's staging is removed")
        // The next run tries it again (and only it).
        f.failing = []
        let again = try f.runner().run()
        XCTAssertEqual(again.done, ["rec.000004-000008"])
        XCTAssertTrue(f.log.contains { $0.contains("running (failed before: pair 4: made to fail)") })
    }

    /// A killed task leaves its staging directory: status lists it, the next
    /// run of that unit removes it; a unit whose lock is held is left alone.
    func testStaleStagingAndLocks() throws {
        let f = try Fixture(pairs: 6, chunk: 3)
        try f.store.prepare()
        let stale = f.store.staging.appendingPathComponent("rec.000003-000006.999-1")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: stale.appendingPathComponent("out_3.txt"))
        // Killed while writing the record: its temporary file, never renamed, is no record.
        let halfRecord = f.store.records.appendingPathComponent(".rec.000003-000006.tmp-999-7.json")
        try Data("{\"unit\": ".utf8).write(to: halfRecord)
        let otherUnits = f.store.records.appendingPathComponent(".rec.000000-000003.tmp-999-8.json")
        try Data("{".utf8).write(to: otherUnits)
        XCTAssertEqual(try BatchStatus(runner: f.runner()).staleStaging, [stale.path])
        XCTAssertEqual(try BatchStatus(runner: f.runner()).units.map(\.state), [.missing, .missing])

        let held = try XCTUnwrap(try f.store.lock("rec.000000-000003"))
        XCTAssertTrue(f.store.isLocked("rec.000000-000003"))
        XCTAssertEqual(try BatchStatus(runner: f.runner()).units.map(\.state), [.running, .missing])
        let report = try f.runner().run()
        XCTAssertEqual(report.busy, ["rec.000000-000003"])
        XCTAssertEqual(report.done, ["rec.000003-000006"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: halfRecord.path), "removed when its unit ran again")
        XCTAssertTrue(FileManager.default.fileExists(atPath: otherUnits.path), "another unit's (locked) is left alone")
        XCTAssertEqual(try String(contentsOf: f.dir.path("out/rec/out_3.txt"), encoding: .utf8), "pair 3 [\"--size\", \"streaming\"]")
        held.release()
        XCTAssertEqual(try f.runner().run().done, ["rec.000000-000003"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: otherUnits.path))
    }

    /// Two tasks of an array split the units between them and together do each once.
    func testTasksShareTheUnits() throws {
        let f = try Fixture(pairs: 10, chunk: 2)
        let a = try f.runner(task: TaskSelection(index: 0, count: 2, source: "test")).run()
        let b = try f.runner(task: TaskSelection(index: 1, count: 2, source: "test")).run()
        XCTAssertEqual(Set(a.done).intersection(b.done), [])
        XCTAssertEqual(a.done.count + b.done.count, 5)
        XCTAssertEqual(a.pairs + b.pairs, 10)
        XCTAssertTrue(try BatchStatus(runner: f.runner()).allDone)
    }

    /// A record that is not JSON is reported and the unit runs again.
    func testUnreadableRecord() throws {
        let f = try Fixture(pairs: 3, chunk: 3)
        _ = try f.runner().run()
        try Data("{not json".utf8).write(to: f.store.recordURL("rec.000000-000003"))
        let status = try BatchStatus(runner: f.runner())
        XCTAssertEqual(status.units[0].state, .changed)
        XCTAssertTrue(status.units[0].reason!.contains("unreadable record"), status.units[0].reason!)
        XCTAssertEqual(try f.runner().run().done.count, 1)
    }
}
