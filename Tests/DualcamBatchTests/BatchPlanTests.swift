import DualcamBatch
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Plans (chunks, warm-ups, whole recordings, open ends), the assignment of
/// units to tasks, and "task i of N" from flags and engine variables.
final class BatchPlanTests: XCTestCase {
    static func manifest(chunk: Int, names: [String]) throws -> BatchManifest {
        let list = names.map { "{name: \($0), wide: w\($0), tele: t\($0)}" }.joined(separator: ", ")
        return try BatchManifest.parse("version: 1\noutput: o\nchunk_pairs: \(chunk)\njob: depth\ncalibration: c\nrecordings: [\(list)]\n",
                                       file: "m.yaml", base: URL(fileURLWithPath: "/x"))
    }

    func testChunksWarmUpsWholeAndOpenEnds() throws {
        let m = try Self.manifest(chunk: 10, names: ["a", "b", "c", "d"])
        let plan = try BatchPlan(manifest: m, pairCounts: [25, 25, nil, 10], estimatedCounts: [nil, nil, 23, nil],
                                 policies: [.warmUp(3), .whole, .independent, .warmUp(3)])
        let keys = plan.units.map(\.key)
        XCTAssertEqual(keys, ["a.000000-000010", "a.000010-000020", "a.000020-000025", "b.000000-000025",
                              "c.000000-000010", "c.000010-000020", "c.000020-end", "d.000000-000010"])
        XCTAssertEqual(plan.units.map(\.warmUp), [0, 3, 3, 0, 0, 0, 0, 0])
        // A video's last chunk runs to its end (the count is an estimate).
        XCTAssertNil(plan.units[6].end)
        XCTAssertNil(plan.units[6].pairCount)
        // Every pair of a known recording is in exactly one unit.
        for r in [0, 1, 3] {
            var covered: [Int] = []
            for u in plan.units where u.recording == r { covered += Array(u.first..<u.end!) }
            XCTAssertEqual(covered, Array(0..<plan.pairCounts[r]!))
        }
    }

    func testARecordingWithoutPairsIsAnError() throws {
        let m = try Self.manifest(chunk: 10, names: ["empty"])
        XCTAssertThrowsError(try BatchPlan(manifest: m, pairCounts: [0], estimatedCounts: [nil], policies: [.independent])) {
            XCTAssertTrue("\($0)".contains("empty: no pairs"), "\($0)")
        }
    }

    func testAssignmentIsDeterministicCompleteAndBalanced() throws {
        let m = try Self.manifest(chunk: 10, names: ["a", "b", "c"])
        let plan = try BatchPlan(manifest: m, pairCounts: [95, 47, 3], estimatedCounts: [nil, nil, nil],
                                 policies: [.warmUp(3), .independent, .independent])
        for n in 1...7 {
            let assignment = TaskAssignment.assign(plan.units, tasks: n, chunkPairs: 10)
            XCTAssertEqual(assignment, TaskAssignment.assign(plan.units, tasks: n, chunkPairs: 10))
            XCTAssertEqual(assignment.count, n)
            XCTAssertEqual(assignment.flatMap { $0 }.sorted(), Array(plan.units.indices), "every unit once for \(n) tasks")
            let loads = assignment.map { $0.reduce(0) { $0 + plan.units[$1].pairCount! + plan.units[$1].warmUp } }
            XCTAssertLessThanOrEqual(loads.max()! - loads.min()!, 13, "loads \(loads) for \(n) tasks")
            for units in assignment { XCTAssertEqual(units, units.sorted(), "a task runs its units in plan order") }
        }
        // More tasks than units: the extra tasks get nothing.
        let many = TaskAssignment.assign(plan.units, tasks: 100, chunkPairs: 10)
        XCTAssertEqual(many.filter { !$0.isEmpty }.count, plan.units.count)
    }

    /// A hostile task count costs units x log(tasks), not units x tasks.
    func testHugeTaskCountsAreCheap() throws {
        let m = try Self.manifest(chunk: 1, names: ["a"])
        let plan = try BatchPlan(manifest: m, pairCounts: [20_000], estimatedCounts: [nil], policies: [.independent])
        let start = Date()
        let assignment = TaskAssignment.assign(plan.units, tasks: InputLimits.maxBatchUnits, chunkPairs: 1)
        XCTAssertEqual(assignment.count, InputLimits.maxBatchUnits)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testTaskSelection() throws {
        func resolve(_ task: Int?, _ of: Int?, _ env: [String: String]) throws -> TaskSelection {
            try TaskSelection.resolve(task: task, of: of, environment: env)
        }
        XCTAssertEqual(try resolve(2, 4, [:]).index, 2)
        XCTAssertEqual(try resolve(nil, nil, [:]), TaskSelection(index: 0, count: 1, source: try resolve(nil, nil, [:]).source))
        let slurm = try resolve(nil, nil, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"])
        XCTAssertEqual([slurm.index, slurm.count], [3, 4])
        XCTAssertTrue(slurm.source.contains("Slurm"))
        // --array=10-16:2 -> IDs 10, 12, 14, 16: task (ID - MIN) / STEP of 4.
        let stepped = try resolve(nil, nil, ["SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_COUNT": "4",
                                             "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"])
        XCTAssertEqual([stepped.index, stepped.count], [2, 4])
        let k8s = try resolve(nil, 5, ["JOB_COMPLETION_INDEX": "4"])
        XCTAssertEqual([k8s.index, k8s.count], [4, 5])
        XCTAssertTrue(k8s.source.contains("JOB_COMPLETION_INDEX"))
        // Flags win over the environment.
        XCTAssertEqual(try resolve(1, 2, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"]).index, 1)

        func refusal(_ task: Int?, _ of: Int?, _ env: [String: String], _ fragments: [String]) {
            XCTAssertThrowsError(try resolve(task, of, env)) { error in
                for f in fragments { XCTAssertTrue("\(error)".contains(f), "'\(error)' lacks '\(f)'") }
            }
        }
        refusal(4, 4, [:], ["--task 4", "0 to 3"])
        refusal(-1, 4, [:], ["--task -1"])
        refusal(0, 0, [:], ["--of 0"])
        refusal(nil, 4, [:], ["--task", "missing"])
        refusal(2, nil, [:], ["--of", "missing"])
        refusal(nil, nil, ["JOB_COMPLETION_INDEX": "1"], ["--of", "completions"])
        refusal(nil, nil, ["SLURM_ARRAY_TASK_ID": "x1", "SLURM_ARRAY_TASK_COUNT": "4"], ["SLURM_ARRAY_TASK_ID", "integer"])
        refusal(nil, nil, ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], ["--task 4"])
        refusal(nil, nil, ["SLURM_ARRAY_TASK_ID": "13", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2"], ["not on the array"])
    }
}
