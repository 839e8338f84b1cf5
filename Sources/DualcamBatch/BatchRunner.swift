import DualcamCalibrationFiles
import DualcamCapture
import DualcamSupport
import Foundation

/// A recording's job as the command wires it: how it may be cut, its flags
/// (as recorded), the files it reads beyond the frames, and the work.
public struct BatchJob {
    public var policy: ChunkPolicy
    /// The job's flags as they enter the completion record.
    public var flags: [String]
    /// Input files of a unit beyond its frames and the calibration (fuse: the samples).
    public var extraInputs: (BatchUnit) throws -> [URL]
    /// Runs a unit: writes its outputs into the directory given, named as
    /// in the recording's output directory, and says what it wrote.
    public var run: (BatchUnit, URL) throws -> UnitOutcome

    public init(policy: ChunkPolicy, flags: [String], extraInputs: @escaping (BatchUnit) throws -> [URL] = { _ in [] },
                run: @escaping (BatchUnit, URL) throws -> UnitOutcome) {
        self.policy = policy
        self.flags = flags
        self.extraInputs = extraInputs
        self.run = run
    }
}

public struct UnitOutcome: Sendable {
    /// File names written (in the staging directory).
    public var outputs: [String]
    /// One past the last pair written (for an open-ended unit, where it ended).
    public var endPair: Int

    public init(outputs: [String], endPair: Int) {
        self.outputs = outputs
        self.endPair = endPair
    }
}

/// What a task decided for one of its units.
public enum UnitDecision: Equatable, Sendable {
    /// Done and unchanged: skipped.
    case skip
    /// To run, and why (new, failed before, changed since: the reason).
    case run(String)
}

/// Runs the units a task is assigned (`TaskAssignment`), one after the other:
/// each is skipped when its completion record matches its inputs now, else
/// run into a staging directory and published with its record; a failure is
/// recorded and the task goes on.
public final class BatchRunner {
    public let plan: BatchPlan
    public let pairPlans: [PairPlan]
    public let jobs: [BatchJob]
    public let store: BatchStore
    public let version: String
    public let task: TaskSelection
    private let log: (String) -> Void

    public struct Report: Sendable {
        public var assigned = 0
        public var done: [String] = []
        public var skipped: [String] = []
        public var failed: [(unit: String, reason: String)] = []
        /// Locked by another process (running it now).
        public var busy: [String] = []
        public var pairs = 0
    }

    public init(plan: BatchPlan, pairPlans: [PairPlan], jobs: [BatchJob], store: BatchStore, version: String,
                task: TaskSelection, log: @escaping (String) -> Void) {
        precondition(pairPlans.count == plan.manifest.recordings.count && jobs.count == pairPlans.count)
        self.plan = plan
        self.pairPlans = pairPlans
        self.jobs = jobs
        self.store = store
        self.version = version
        self.task = task
        self.log = log
    }

    /// The unit's inputs now (stat of every file it reads).
    public func inputs(of unit: BatchUnit) throws -> UnitInputs {
        let r = plan.manifest.recordings[unit.recording]
        let pairs = pairPlans[unit.recording]
        var files: [URL] = [r.calibration]
        if let list = pairs.pairs {
            let from = unit.first - unit.warmUp, to = min(unit.end ?? list.count, list.count)
            for (w, t) in list[min(from, to)..<to] {
                for file in [w.file, t.file].compactMap({ $0 }) { files += [file, FrameIntrinsicsSidecar.url(for: file)] }
            }
            if pairs.pairing != .single {
                for dir in [r.source.wide, r.source.tele] { files.append(dir.appendingPathComponent(TimestampsCSV.fileName)) }
            }
        } else {
            files += [r.source.wide, r.source.tele]  // videos
        }
        files += try jobs[unit.recording].extraInputs(unit)
        return UnitInputs(job: r.job.rawValue, flags: jobs[unit.recording].flags, dualcamVersion: version,
                          files: files.map(FileStamp.of))
    }

    /// Skip or run, and why, from the record and the inputs now.
    public func decide(_ unit: BatchUnit, inputs: UnitInputs) -> UnitDecision {
        var problem: String?
        guard let record = store.record(unit.key, problem: { problem = $0 }) else {
            return .run(problem.map { "unreadable record (\($0))" } ?? "new")
        }
        if record.status == .failed { return .run("failed before: \(record.reason ?? "no reason recorded")") }
        if let change = inputs.change(since: record.inputs) { return .run(change) }
        let output = plan.manifest.recordings[unit.recording].output
        if let gone = record.outputs.first(where: { !FileManager.default.fileExists(atPath: output.appendingPathComponent($0).path) }) {
            return .run("output missing: \(output.appendingPathComponent(gone).path)")
        }
        return .skip
    }

    /// Runs this task's units; `force` runs them even when done and unchanged.
    public func run(force: Bool = false) throws -> Report {
        try store.prepare()
        let mine = TaskAssignment.assign(plan.units, tasks: task.count, chunkPairs: plan.manifest.chunkPairs)[task.index]
        var report = Report()
        report.assigned = mine.count
        log("batch: task \(task.index) of \(task.count) (\(task.source)): \(mine.count) of \(plan.units.count) units")
        for u in mine {
            let unit = plan.units[u]
            guard let lock = try store.lock(unit.key) else {
                log("batch: \(unit.key): busy (another process holds its lock), left to it")
                report.busy.append(unit.key)
                continue
            }
            defer { lock.release() }
            let started = Date()
            do {
                let inputs = try self.inputs(of: unit)
                let decision = force ? .run("--force") : decide(unit, inputs: inputs)
                guard case let .run(why) = decision else {
                    report.skipped.append(unit.key)
                    log("batch: \(unit.key): done before, unchanged: skipped")
                    continue
                }
                log("batch: \(unit.key): running (\(why))")
                let record = try runUnit(unit, inputs: inputs, started: started)
                report.done.append(unit.key)
                report.pairs += record.pairs
                log("batch: \(unit.key): done, \(record.pairs) pairs in \(String(format: "%.1f", record.milliseconds / 1000)) s")
            } catch {
                let reason = oneLine(error)
                report.failed.append((unit.key, reason))
                log("batch: \(unit.key): FAILED: \(reason)")
                let inputs = (try? self.inputs(of: unit)) ?? UnitInputs(job: "", flags: [], dualcamVersion: version, files: [])
                let record = CompletionRecord(unit: unit, endPair: unit.first, status: .failed, reason: reason, inputs: inputs,
                                              outputs: [], milliseconds: Date().timeIntervalSince(started) * 1000, task: task)
                do { try store.write(record) } catch { log("batch: \(unit.key): cannot write its failure record: \(oneLine(error))") }
            }
        }
        return report
    }

    /// Stages, runs, publishes the outputs, then writes the record.
    private func runUnit(_ unit: BatchUnit, inputs: UnitInputs, started: Date) throws -> CompletionRecord {
        let staging = try store.makeStaging(unit.key)
        defer { staging.discard() }
        let outcome = try jobs[unit.recording].run(unit, staging.url)
        let output = plan.manifest.recordings[unit.recording].output
        try staging.publish(outcome.outputs, to: output)
        let record = CompletionRecord(unit: unit, endPair: outcome.endPair, status: .done, reason: nil, inputs: inputs,
                                      outputs: outcome.outputs, milliseconds: Date().timeIntervalSince(started) * 1000, task: task)
        try store.write(record)
        return record
    }
}

/// The first line of an error's description.
func oneLine(_ error: Error) -> String {
    let text = String(describing: error)
    return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
}
