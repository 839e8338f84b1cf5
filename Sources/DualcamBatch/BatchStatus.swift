import Foundation

/// Where every unit of a plan stands (`dualcam batch status`), from the
/// records and the inputs now: the same decision a task would take.
public struct BatchStatus: Sendable, Encodable {
    public enum State: String, Sendable, Encodable {
        /// Record there, inputs unchanged, outputs present.
        case done
        /// The last attempt failed (`reason`).
        case failed
        /// Done before, but an input, option or the version changed since (`reason`), or an output is gone.
        case changed
        /// No record: never finished (or killed before publishing).
        case missing
        /// Another process holds its lock now.
        case running
    }

    public struct Unit: Sendable, Encodable {
        public var unit: String
        public var recording: String
        public var firstPair: Int
        public var endPair: Int?
        public var state: State
        public var reason: String?
    }

    public var units: [Unit]
    /// Staging directories nobody works in (left by killed tasks; the next run of their unit removes them).
    public var staleStaging: [String]
    /// Records that no unit of the plan has (an earlier manifest's chunks).
    public var recordsNotInPlan: [String]

    public var allDone: Bool { units.allSatisfy { $0.state == .done } }

    public func count(_ state: State) -> Int { units.filter { $0.state == state }.count }

    public init(runner: BatchRunner) throws {
        let store = runner.store
        units = try runner.plan.units.map { unit in
            var state: State, reason: String?
            if store.isLocked(unit.key) {
                state = .running
            } else {
                switch runner.decide(unit, inputs: try runner.inputs(of: unit)) {
                case .skip: state = .done
                case let .run(why):
                    reason = why
                    if why == "new" {
                        state = .missing
                        reason = nil
                    } else if why.hasPrefix("failed before: ") {
                        state = .failed
                        reason = String(why.dropFirst("failed before: ".count))
                    } else {
                        state = .changed
                    }
                }
            }
            return Unit(unit: unit.key, recording: unit.name, firstPair: unit.first, endPair: unit.end, state: state, reason: reason)
        }
        staleStaging = store.staleStaging().map(\.path)
        let keys = Set(runner.plan.units.map(\.key))
        recordsNotInPlan = store.recordKeys().filter { !keys.contains($0) }
    }
}

/// One summary of a batch (`dualcam batch collect`): per recording, the
/// pairs planned and written, units done / failed / not done, compute time
/// and failures, from the completion records of the plan's units.
public struct BatchSummary: Sendable, Encodable {
    public struct Recording: Sendable, Encodable {
        public var name: String
        public var job: String
        public var output: String
        /// nil: a video whose length is an estimate.
        public var pairsPlanned: Int?
        public var pairsDone: Int
        public var units: Int
        public var unitsDone: Int
        public var unitsFailed: Int
        public var unitsNotDone: Int
        /// Wall-clock seconds of the done units, summed (tasks run in parallel).
        public var computeSeconds: Double
        public var msPerPair: Double?
        public var failures: [Failure]
    }

    public struct Failure: Sendable, Encodable {
        public var unit: String
        public var reason: String
    }

    public var manifest: String
    public var recordings: [Recording]
    public var pairsDone: Int { recordings.reduce(0) { $0 + $1.pairsDone } }
    public var unitsFailed: Int { recordings.reduce(0) { $0 + $1.unitsFailed } }
    public var unitsNotDone: Int { recordings.reduce(0) { $0 + $1.unitsNotDone } }

    public init(plan: BatchPlan, status: BatchStatus, store: BatchStore) {
        manifest = plan.manifest.url.path
        recordings = plan.manifest.recordings.enumerated().map { i, r in
            let units = zip(plan.units, status.units).filter { $0.0.recording == i }
            var done = 0, failed = 0, notDone = 0, pairs = 0
            var ms = 0.0
            var failures: [Failure] = []
            for (unit, state) in units {
                switch state.state {
                case .done:
                    done += 1
                    if let record = store.record(unit.key) {
                        pairs += record.pairs
                        ms += record.milliseconds
                    }
                case .failed:
                    failed += 1
                    failures.append(Failure(unit: unit.key, reason: state.reason ?? ""))
                default:
                    notDone += 1
                }
            }
            return Recording(name: r.name, job: r.job.rawValue, output: r.output.path, pairsPlanned: plan.pairCounts[i],
                             pairsDone: pairs, units: units.count, unitsDone: done, unitsFailed: failed, unitsNotDone: notDone,
                             computeSeconds: ms / 1000, msPerPair: pairs > 0 ? ms / Double(pairs) : nil, failures: failures)
        }
    }
}
