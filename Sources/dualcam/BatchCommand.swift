import ArgumentParser
import DualcamBatch
import DualcamSupport
import Foundation

/// `dualcam batch`: large recordings as units of work for a cluster engine's
/// task array (Slurm job arrays, Kubernetes Indexed Jobs): parsing and
/// wiring only; the model is `DualcamBatch`, the jobs `BatchJobs`.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run depth, fuse or converge over many recordings as a task array (Slurm, Kubernetes).",
        discussion: """
            A manifest (YAML or JSON) lists recordings, a calibration, the job and its options and an
            output root; 'plan' cuts every recording into units of chunk_pairs pairs, 'run' does the
            units of task i of N (from --task/--of, SLURM_ARRAY_TASK_ID/COUNT, or JOB_COMPLETION_INDEX
            with --of), skipping units done before with unchanged inputs; 'status' says what is done,
            failed or missing; 'collect' writes one summary. Job files: deploy/slurm, deploy/kubernetes.

            Example: sbatch --array=0-3 deploy/slurm/dualcam-batch.sbatch manifest.yaml
            Example: dualcam batch run manifest.yaml --task 0 --of 4
            """,
        subcommands: [BatchPlanCommand.self, BatchRunCommand.self, BatchStatusCommand.self, BatchCollectCommand.self]
    )
}

struct BatchPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Expand a manifest into units of work and print the count (and, with --of, each task's share).",
        discussion: "Example: dualcam batch plan manifest.yaml --of 4")

    @Argument(help: "The batch manifest (.yaml or .json).") var manifest: String
    @Option(name: .customLong("of"), help: "Also show how N tasks share the units.") var tasks: Int?
    @Flag(name: .long, help: "Print the plan as JSON.") var json = false

    struct Report: Encodable {
        struct Unit: Encodable { var unit: String; var recording: String; var firstPair: Int; var endPair: Int?; var warmUpPairs: Int; var task: Int? }
        var recordings: Int
        var pairs: Int
        var units: Int
        var chunkPairs: Int
        var tasks: Int?
        var plan: [Unit]
    }

    func run() throws {
        try reportingErrors {
            let setup = try BatchSetup(manifestPath: manifest)
            if let n = tasks { _ = try TaskSelection.resolve(task: 0, of: n, environment: [:]) }
            let plan = setup.plan
            var taskOf = [Int?](repeating: nil, count: plan.units.count)
            if let n = tasks {
                for (t, units) in TaskAssignment.assign(plan.units, tasks: n, chunkPairs: plan.manifest.chunkPairs).enumerated() {
                    for u in units { taskOf[u] = t }
                }
            }
            let pairs = plan.pairCounts.enumerated().reduce(0) { $0 + ($1.element ?? setup.pairPlans[$1.offset].estimatedCount ?? 0) }
            if json {
                try printJSON(Report(recordings: plan.manifest.recordings.count, pairs: pairs, units: plan.units.count,
                                     chunkPairs: plan.manifest.chunkPairs, tasks: tasks, plan: plan.units.enumerated().map { u, unit in
                    .init(unit: unit.key, recording: unit.name, firstPair: unit.first, endPair: unit.end, warmUpPairs: unit.warmUp, task: taskOf[u])
                }))
                return
            }
            print("batch: \(plan.units.count) units, \(pairs) pairs in \(plan.manifest.recordings.count) recordings (chunks of \(plan.manifest.chunkPairs) pairs) -> \(plan.manifest.outputRoot.path)")
            for (i, r) in plan.manifest.recordings.enumerated() {
                let units = plan.units.filter { $0.recording == i }
                let count = plan.pairCounts[i].map(String.init) ?? setup.pairPlans[i].estimatedCount.map { "about \($0)" } ?? "an unknown number of"
                let warm = units.map(\.warmUp).max() ?? 0
                print("  \(r.name): \(r.job.rawValue), \(count) pairs (\(setup.pairPlans[i].pairing.rawValue)), \(units.count) units"
                      + (warm > 0 ? ", each after a warm-up of \(warm) pairs (temporal smoothing)" : "")
                      + (setup.jobs[i].policy == .whole ? " (one unit: the tracked distance depends on every earlier frame)" : ""))
            }
            if let n = tasks {
                for t in 0..<n {
                    let keys = plan.units.indices.filter { taskOf[$0] == t }.map { plan.units[$0].key }
                    print("  task \(t): \(keys.count) units\(keys.isEmpty ? "" : ": " + keys.joined(separator: " "))")
                }
            }
        }
    }
}

struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the units of task i of N (default: from Slurm or Kubernetes variables, else all units).",
        discussion: """
            Units done before whose inputs, options and dualcam version are unchanged are skipped; a unit
            that fails is recorded with its reason and the task goes on; the exit status is 1 when any
            unit failed. Progress goes to stderr, the task's summary to stdout.

            Example: dualcam batch run manifest.yaml --task 0 --of 4
            Example: sbatch --array=0-3 deploy/slurm/dualcam-batch.sbatch manifest.yaml
            """)

    @Argument(help: "The batch manifest (.yaml or .json).") var manifest: String
    @Option(name: .long, help: "This task's index, from 0 (default: SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX).") var task: Int?
    @Option(name: .customLong("of"), help: "Number of tasks (default: SLURM_ARRAY_TASK_COUNT; required with JOB_COMPLETION_INDEX).") var tasks: Int?
    @Flag(name: .long, help: "Run the units even when done and unchanged.") var force = false
    @Flag(name: .long, help: "Print the task's summary as JSON.") var json = false

    struct Report: Encodable {
        var task: Int
        var tasks: Int
        var assigned: Int
        var done: [String]
        var skipped: [String]
        var failed: [[String: String]]
        var busy: [String]
        var pairs: Int
    }

    func run() throws {
        var failed = false
        try reportingErrors {
            let selection = try TaskSelection.resolve(task: task, of: tasks, environment: ProcessInfo.processInfo.environment)
            let setup = try BatchSetup(manifestPath: manifest)
            let report = try setup.runner(task: selection) { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }.run(force: force)
            failed = !report.failed.isEmpty
            if json {
                try printJSON(Report(task: selection.index, tasks: selection.count, assigned: report.assigned, done: report.done,
                                     skipped: report.skipped, failed: report.failed.map { ["unit": $0.unit, "reason": $0.reason] },
                                     busy: report.busy, pairs: report.pairs))
            } else {
                print("batch: task \(selection.index) of \(selection.count): \(report.done.count) units done (\(report.pairs) pairs), "
                      + "\(report.skipped.count) skipped (done before, unchanged), \(report.failed.count) failed, \(report.busy.count) busy")
            }
        }
        if failed { throw ExitCode.failure }
    }
}

struct BatchStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show which units are done, failed, changed since done, missing or running (exit 1 unless all are done).",
        discussion: "Example: dualcam batch status manifest.yaml")

    @Argument(help: "The batch manifest (.yaml or .json).") var manifest: String
    @Flag(name: .long, help: "Print the status as JSON.") var json = false

    func run() throws {
        var allDone = true
        try reportingErrors {
            let setup = try BatchSetup(manifestPath: manifest)
            let status = try BatchStatus(runner: setup.runner(task: TaskSelection(index: 0, count: 1, source: "status")))
            allDone = status.allDone
            if json {
                try printJSON(status)
                return
            }
            let states: [BatchStatus.State] = [.done, .failed, .changed, .missing, .running]
            print("batch: \(status.units.count) units: " + states.map { "\(status.count($0)) \($0.rawValue)" }.joined(separator: ", "))
            for unit in status.units where unit.state != .done {
                print("  \(unit.unit): \(unit.state.rawValue)" + (unit.reason.map { ": \($0)" } ?? ""))
            }
            if !status.staleStaging.isEmpty {
                print("  \(status.staleStaging.count) staging directories left by killed tasks (removed when their unit runs again)")
            }
            if !status.recordsNotInPlan.isEmpty {
                print("  \(status.recordsNotInPlan.count) records of units not in this plan (an earlier manifest): \(status.recordsNotInPlan.prefix(5).joined(separator: " "))")
            }
        }
        if !allDone { throw ExitCode.failure }
    }
}

struct BatchCollectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Write one summary of a batch (per recording: pairs, units, timings, failures) to OUTPUT/batch-summary.json.",
        discussion: "Example: dualcam batch collect manifest.yaml --json")

    @Argument(help: "The batch manifest (.yaml or .json).") var manifest: String
    @Flag(name: .long, help: "Print the summary as JSON (it is also written to OUTPUT/batch-summary.json).") var json = false

    func run() throws {
        try reportingErrors {
            let setup = try BatchSetup(manifestPath: manifest)
            let status = try BatchStatus(runner: setup.runner(task: TaskSelection(index: 0, count: 1, source: "collect")))
            let summary = BatchSummary(plan: setup.plan, status: status, store: setup.store)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let data = try encoder.encode(summary)
            try setup.store.prepare()
            let file = setup.manifest.outputRoot.appendingPathComponent("batch-summary.json")
            try AtomicFile.write(data, to: file)
            if json {
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("batch: \(summary.pairsDone) pairs done, \(summary.unitsFailed) units failed, \(summary.unitsNotDone) not done -> \(file.path)")
            for r in summary.recordings {
                let planned = r.pairsPlanned.map(String.init) ?? "?"
                let speed = r.msPerPair.map { String(format: ", %.1f ms/pair", $0) } ?? ""
                print("  \(r.name) (\(r.job)): \(r.pairsDone)/\(planned) pairs, units \(r.unitsDone)/\(r.units) done, \(r.unitsFailed) failed, "
                      + String(format: "%.1f s", r.computeSeconds) + speed)
                for f in r.failures { print("    \(f.unit): \(f.reason)") }
            }
        }
    }
}
