import DualcamSupport
import Foundation

/// Which units each of N tasks runs: a function of the plan and N only, so
/// every task of an array computes the same assignment without talking to
/// the others. Longest first onto the least loaded task (ties: the lower
/// unit index, then the lower task index); a unit's weight is its pairs
/// plus its warm-up (an open-ended unit counts as the manifest's chunk).
/// Each task runs its units in plan order (a recording's chunks in order).
public enum TaskAssignment {
    /// `result[t]` = the unit indices of task t, ascending.
    public static func assign(_ units: [BatchUnit], tasks: Int, chunkPairs: Int) -> [[Int]] {
        precondition(tasks >= 1)
        let weights = units.map { ($0.pairCount ?? chunkPairs) + $0.warmUp }
        let order = units.indices.sorted { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }
        var result = [[Int]](repeating: [], count: tasks)
        // Min-heap of (load, task): O(units log tasks) for any N.
        var heap = (0..<min(tasks, max(units.count, 1))).map { (load: 0, task: $0) }
        func less(_ a: (load: Int, task: Int), _ b: (load: Int, task: Int)) -> Bool {
            a.load != b.load ? a.load < b.load : a.task < b.task
        }
        for u in order {
            heap[0].load += weights[u]
            result[heap[0].task].append(u)
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return result.map { $0.sorted() }
    }
}

/// "Task i of N": from --task/--of, else from the engine's environment.
///
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, and
///   `SLURM_ARRAY_TASK_MIN` / `SLURM_ARRAY_TASK_STEP` when the array does not
///   run 0, 1, 2, ... (i = (ID - MIN) / STEP).
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`; the Job's
///   `completions` is not in the pod's environment, so N comes from --of.
/// - Neither: task 0 of 1 (everything), said in `source`.
public struct TaskSelection: Equatable, Sendable {
    public var index: Int
    public var count: Int
    /// Where i and N came from, for the log line.
    public var source: String

    public init(index: Int, count: Int, source: String) {
        self.index = index
        self.count = count
        self.source = source
    }

    public static func resolve(task: Int?, of count: Int?, environment: [String: String]) throws -> TaskSelection {
        func number(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = environment[name] else { return nil }
            guard let n = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(n) else {
                throw DualcamError.invalidValue(name: "environment variable \(name)='\(PrintableText.escaped(text, limit: 40))'",
                                                reason: "expected an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        let limit = InputLimits.maxBatchUnits
        var index = task, total = count
        var sources: [String] = []
        if task != nil { sources.append("--task") }
        if count != nil { sources.append("--of") }
        if index == nil || total == nil {
            if let id = try number("SLURM_ARRAY_TASK_ID", in: 0...Int(Int32.max)) {
                let minimum = try number("SLURM_ARRAY_TASK_MIN", in: 0...Int(Int32.max)) ?? 0
                let step = try number("SLURM_ARRAY_TASK_STEP", in: 1...Int(Int32.max)) ?? 1
                guard id >= minimum, (id - minimum) % step == 0 else {
                    throw DualcamError.invalidValue(name: "environment variable SLURM_ARRAY_TASK_ID=\(id)",
                                                    reason: "is not on the array's range (SLURM_ARRAY_TASK_MIN=\(minimum), STEP=\(step))")
                }
                index = index ?? (id - minimum) / step
                if total == nil, let n = try number("SLURM_ARRAY_TASK_COUNT", in: 1...limit) { total = n }
                sources.append("Slurm array")
            } else if let k = try number("JOB_COMPLETION_INDEX", in: 0...limit) {
                index = index ?? k
                sources.append("Kubernetes JOB_COMPLETION_INDEX")
                guard total != nil else {
                    throw DualcamError.invalidValue(name: "--of", reason: "missing: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but the pod does not know the Job's completions; pass --of COMPLETIONS")
                }
            }
        }
        if index == nil, total == nil { return TaskSelection(index: 0, count: 1, source: "no --task/--of and no Slurm or Kubernetes variables: one task runs every unit") }
        guard let i = index else { throw DualcamError.invalidValue(name: "--task", reason: "missing: --of \(total!) needs --task (or SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX)") }
        guard let n = total else { throw DualcamError.invalidValue(name: "--of", reason: "missing: --task \(i) needs --of (or SLURM_ARRAY_TASK_COUNT)") }
        guard (1...limit).contains(n) else { throw DualcamError.invalidValue(name: "--of \(n)", reason: "expected 1 to \(limit) tasks") }
        guard i >= 0, i < n else {
            throw DualcamError.invalidValue(name: "--task \(i)", reason: "must be from 0 to \(n - 1) for --of \(n) (tasks count from 0)")
        }
        return TaskSelection(index: i, count: n, source: sources.joined(separator: ", "))
    }
}
