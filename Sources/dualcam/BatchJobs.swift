import ArgumentParser
import DualcamBatch
import DualcamCapture
import DualcamConvergence
import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// A manifest made ready to run: read and checked, every recording's pairs
/// planned from its files, its job's options parsed by the job's own
/// command (so they mean what they mean there), the units planned.
struct BatchSetup {
    let manifest: BatchManifest
    let pairPlans: [PairPlan]
    let jobs: [BatchJob]
    let plan: BatchPlan
    var store: BatchStore { BatchStore(root: manifest.outputRoot) }

    /// The options a manifest may give per job (the rest the batch sets itself).
    static let allowedOptions: [BatchManifest.Job: [String]] = [
        .depth: ["reference", "type", "precision", "size", "mode", "min-depth", "max-depth", "format", "max-skew"],
        .converge: ["distance", "at", "view", "canvas", "max-skew"],
        .fuse: ["mode", "completion", "type", "precision", "size", "format"],
    ]

    init(manifestPath: String) throws {
        let url = URL(fileURLWithPath: manifestPath)
        manifest = try BatchManifest.read(url)
        try manifest.checkInputs()
        var pairPlans: [PairPlan] = [], jobs: [BatchJob] = []
        for (i, r) in manifest.recordings.enumerated() {
            let at = "\(manifestPath): recordings[\(i)] (\(r.name))"
            let allowed = Self.allowedOptions[r.job]!
            if let bad = r.options.first(where: { !allowed.contains($0.name) }) {
                throw DualcamError.invalidValue(name: "\(at).options.\(bad.name)",
                                                reason: "not an option of a batch \(r.job.rawValue) job; expected \(allowed.joined(separator: ", "))")
            }
            let skew = try r.options.first { $0.name == "max-skew" }.flatMap(\.value).map { text in
                try parseFlag("\(at).options.max-skew", text) { try parseDurationNs($0, bareUnit: 1_000_000) }
            }
            let pairs: PairPlan
            do { pairs = try PairPlan.make(wide: r.source.wide.path, tele: r.source.tele.path, nominalFPS: 30, maxSkewNs: skew) } catch {
                throw DualcamError.invalidValue(name: at, reason: oneLine(error))
            }
            let job: BatchJob
            do {
                switch r.job {
                case .depth: job = try BatchJobs.depth(r, pairs)
                case .converge: job = try BatchJobs.converge(r, pairs)
                case .fuse: job = try BatchJobs.fuse(r, pairs)
                }
            } catch let error as DualcamError {
                throw DualcamError.invalidValue(name: "\(at).options", reason: "\(error)")
            }
            pairPlans.append(pairs)
            jobs.append(job)
        }
        self.pairPlans = pairPlans
        self.jobs = jobs
        plan = try BatchPlan(manifest: manifest, pairCounts: pairPlans.map { $0.pairs?.count },
                             estimatedCounts: pairPlans.map(\.estimatedCount), policies: jobs.map(\.policy))
    }

    func runner(task: TaskSelection, log: @escaping (String) -> Void = { _ in }) -> BatchRunner {
        BatchRunner(plan: plan, pairPlans: pairPlans, jobs: jobs, store: store, version: Dualcam.versionString, task: task, log: log)
    }
}

/// How each job runs a unit: through the same code as the plain command
/// (`depthPairs`, `convergePairs`, the `fuse` command itself).
enum BatchJobs {
    /// Parses a job's flags with its command's parser; errors are one line.
    static func parse<C: ParsableCommand>(_ type: C.Type, _ arguments: [String]) throws -> C {
        do { return try C.parse(arguments) } catch {
            throw DualcamError.invalidValue(name: "\(C.configuration.commandName ?? "")", reason: parserErrorLine(C.message(for: error)))
        }
    }

    /// depth: maps `depth_NNNN.FORMAT` + sidecars, as `dualcam depth --wide DIR --tele DIR -o OUT`.
    static func depth(_ r: BatchManifest.Recording, _ pairs: PairPlan) throws -> BatchJob {
        let command = try parse(DepthCommand.self, ["--calibration", r.calibration.path] + r.flags)
        let settings = try command.settings()
        guard command.format.isWritable else {
            throw DualcamError.invalidValue(name: "format \(command.format.rawValue)", reason: "this OpenCV build cannot write it")
        }
        let loaded = try loadCalibration(r.calibration.path)
        let warm = TemporalSmoother().warmUpFrames
        return BatchJob(policy: settings.options.filtered ? .warmUp(warm) : .independent, flags: r.flags) { unit, staging in
            let start = unit.first - unit.warmUp
            let source = try PlannedPairSource(plan: pairs, from: start, to: unit.end, nominalFPS: 30)
            let run = try command.depthPairs(source, calibration: loaded, settings: settings, firstIndex: start, keepFrom: unit.first,
                                             clock: Timings(), progress: nil, into: { staging.appendingPathComponent($0) })
            return UnitOutcome(outputs: run.names.flatMap { [$0, $0 + ".json"] }, endPair: unit.first + run.names.count)
        }
    }

    /// converge: frames `frame_NNNN.png`, as `dualcam converge --wide DIR --tele DIR -o OUT`.
    /// A tracked automatic distance has unbounded memory: the recording is one unit.
    static func converge(_ r: BatchManifest.Recording, _ pairs: PairPlan) throws -> BatchJob {
        let command = try parse(ConvergeCommand.self, ["--calibration", r.calibration.path] + r.flags)
        let request = try command.request(prefix: "")
        let loaded = try loadCalibration(r.calibration.path)
        _ = try command.checkedWarp(loaded)
        return BatchJob(policy: request.isAuto ? .whole : .independent, flags: r.flags) { unit, staging in
            let source = try PlannedPairSource(plan: pairs, from: unit.first, to: unit.end, nominalFPS: 30)
            var names: [String] = []
            _ = try command.convergePairs(source, calibration: loaded, distance: request.distance, at: request.at,
                                          clock: Timings(), progress: nil) { k, image in
                let name = String(format: "frame_%04d.png", unit.first + k)
                try ImageIO.write(image.converted(to: .uint8), to: staging.appendingPathComponent(name))
                names.append(name)
            }
            return UnitOutcome(outputs: names, endPair: unit.first + names.count)
        }
    }
}
