import DualcamCalibrationFiles
import DualcamStereo
import DualcamGeometry
import DualcamSupport
import DualcamSynthetic
import Foundation

/// `dualcam bench batch`: the overhead of `dualcam batch run` over the plain
/// command. A generated recording (640x480 steps scene, 30 noisy pairs) is
/// turned into 320x240 filtered depth maps by `dualcam depth --wide DIR
/// --tele DIR -o OUT` (the reference) and by `dualcam batch run MANIFEST
/// --force` over one unit holding the same 30 pairs (plan, input stamps,
/// staging, record, publish included), each a process of this executable,
/// alternating, in the same run; each timed batch run must report the unit
/// done and the maps must equal the plain run's. The overhead is given from
/// the medians and from the paired runs (each batch run over the plain run
/// just before it). Also timed: a rerun that must find the unit done and
/// skip it, and the temporal smoothing of one 768x576 map.
enum BatchBenchmark {
    static let pairs = 30

    static let plain = ["depth", "--wide", "rec/wide", "--tele", "rec/tele", "--calibration", "rec/calibration.yaml", "--size", "320x240",
                        "-o", "plain-out"]
    static let batch = ["batch", "run", "manifest.yaml", "--force", "--json"]

    static func run(runs: Int) throws -> BenchmarkResult {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dualcam-bench-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try prepare(in: dir)
        let (plainRuns, batchRuns) = try timedRuns(executable, runs: runs, in: dir)
        try checkOutputsAgree(in: dir)
        let (skip, skipCPU) = try skipTiming(executable, runs: runs, in: dir)
        return result(plainRuns: plainRuns, batchRuns: batchRuns, skip: skip, skipCPU: skipCPU,
                      smoothing: smoothingMilliseconds(runs: runs))
    }

    /// The recording and the manifest of one unit holding all its pairs.
    static func prepare(in dir: URL) throws {
        try SyntheticRecording.write(to: dir.appendingPathComponent("rec"), pairs: pairs, size: PixelSize(width: 640, height: 480),
                                     calibration: try NominalDevice.load())
        try Data("""
            version: 1
            output: batch-out
            chunk_pairs: \(pairs)
            job: depth
            calibration: rec/calibration.yaml
            options: {size: 320x240}
            recordings: [{name: rec, wide: rec/wide, tele: rec/tele}]
            """.utf8).write(to: dir.appendingPathComponent("manifest.yaml"))
    }

    /// One warm-up of each, then timed runs in pairs, the order alternating
    /// (plain first, then batch first): drift on a shared machine hits both
    /// alike, and each batch run is compared with its pair's plain run (the
    /// paired ratios). Wall time, and the child's CPU time (user + system,
    /// all threads): the CPU time hardly moves when other processes compete
    /// for the cores, the wall time does.
    static func timedRuns(_ executable: URL, runs: Int, in dir: URL) throws -> (plain: [ChildRun], batch: [ChildRun]) {
        try child(executable, plain, in: dir)
        try child(executable, batch, in: dir)
        var plainRuns: [ChildRun] = [], batchRuns: [ChildRun] = []
        for k in 0..<max(1, runs) {
            func runBatch() throws {
                let (run, summary) = try childJSON(executable, batch, in: dir)
                // Each timed batch run did the unit (not a skip, not a failure).
                guard (summary["done"] as? [Any])?.count == 1, summary["pairs"] as? Int == pairs,
                      (summary["skipped"] as? [Any])?.isEmpty == true, (summary["failed"] as? [Any])?.isEmpty == true else {
                    throw DualcamError.format(path: "dualcam batch run --json", reason: "expected 1 unit of \(pairs) pairs done, got \(summary)")
                }
                batchRuns.append(run)
            }
            if k % 2 == 0 {
                plainRuns.append(try child(executable, plain, in: dir))
                try runBatch()
            } else {
                try runBatch()
                plainRuns.append(try child(executable, plain, in: dir))
            }
        }
        return (plainRuns, batchRuns)
    }

    /// The outputs agree (the benchmark times the same work): every map and sidecar.
    static func checkOutputsAgree(in dir: URL) throws {
        let fm = FileManager.default
        let plainFiles = try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("plain-out").path).sorted()
        let batchFiles = try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("batch-out/rec").path).sorted()
        guard plainFiles == batchFiles, plainFiles.filter({ $0.hasSuffix(".pfm") }).count == pairs else {
            throw DualcamError.format(path: "batch-out/rec", reason: "\(batchFiles.count) files, the plain run \(plainFiles.count) (\(pairs) maps expected)")
        }
        for name in plainFiles where name.hasSuffix(".pfm") {
            guard fm.contentsEqual(atPath: dir.appendingPathComponent("plain-out/\(name)").path,
                                   andPath: dir.appendingPathComponent("batch-out/rec/\(name)").path) else {
                throw DualcamError.format(path: name, reason: "batch and plain depth maps differ")
            }
        }
    }

    /// A rerun without --force finds the unit done and unchanged: its wall
    /// time, and the CPU time of each run.
    static func skipTiming(_ executable: URL, runs: Int, in dir: URL) throws -> (Timing, [Double]) {
        let rerun = ["batch", "run", "manifest.yaml", "--json"]
        var skipCPU: [Double] = []
        let skip = try Timing.measure(runs: runs) {
            let (run, summary) = try childJSON(executable, rerun, in: dir)
            skipCPU.append(run.cpu)
            guard (summary["skipped"] as? [Any])?.count == 1, (summary["done"] as? [Any])?.isEmpty == true else {
                throw DualcamError.format(path: "dualcam batch run --json", reason: "expected the done unit skipped, got \(summary)")
            }
        }
        return (skip, skipCPU)
    }

    static func result(plainRuns: [ChildRun], batchRuns: [ChildRun], skip: Timing, skipCPU: [Double],
                       smoothing: Double) -> BenchmarkResult {
        let wallRatios = zip(batchRuns, plainRuns).map { $0.wall / $1.wall }
        let cpuRatios = zip(batchRuns, plainRuns).map { $0.cpu / $1.cpu }
        let ours = Timing(runs: batchRuns.map(\.wall)), reference = Timing(runs: plainRuns.map(\.wall))
        let oursCPU = Timing(runs: batchRuns.map(\.cpu)), referenceCPU = Timing(runs: plainRuns.map(\.cpu))
        let paired = Timing(runs: wallRatios), pairedCPU = Timing(runs: cpuRatios)
        return BenchmarkResult(
            name: "batch",
            work: "dualcam batch run on one unit: \(pairs) pairs of 640x480 -> 320x240 filtered depth (one process)",
            reference: "dualcam depth on the same \(pairs) pairs (one process)",
            dualcam: ours, referenceTiming: reference,
            figures: ["overhead % wall (median batch / median plain - 1)": (ours.median / reference.median - 1) * 100,
                      "overhead % wall (paired runs: median)": (paired.median - 1) * 100,
                      "overhead % wall (paired runs: lowest)": (paired.minimum - 1) * 100,
                      "overhead % wall (paired runs: highest)": (paired.maximum - 1) * 100,
                      "overhead % CPU (median batch / median plain - 1)": (oursCPU.median / referenceCPU.median - 1) * 100,
                      "overhead % CPU (paired runs: median)": (pairedCPU.median - 1) * 100,
                      "overhead % CPU (paired runs: lowest)": (pairedCPU.minimum - 1) * 100,
                      "overhead % CPU (paired runs: highest)": (pairedCPU.maximum - 1) * 100,
                      "CPU ms, batch (median)": oursCPU.median,
                      "CPU ms, plain (median)": referenceCPU.median,
                      "CPU spread %, plain (half IQR / median)": referenceCPU.relativeSpread * 100,
                      "target overhead % (at most)": 5,
                      "ms per pair, plain (wall)": reference.median / Double(pairs),
                      "ms to skip a done unit (process, wall)": skip.median,
                      "CPU ms to skip a done unit (process)": Timing(runs: Array(skipCPU.dropFirst())).median,  // the first is the warm-up
                      "ms temporal smoothing of a 768x576 map (4-frame memory)": smoothing])
    }

    /// A child process's wall time and CPU time (user + system of it and its threads), in ms.
    struct ChildRun {
        var wall: Double
        var cpu: Double
    }

    /// CPU ms (user + system) of this process's waited-for children so far.
    static func childrenCPUMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    /// Runs `arguments` as a child process in `dir`; its wall and CPU time. A failure is an error with its stderr.
    @discardableResult
    static func child(_ executable: URL, _ arguments: [String], in dir: URL, stdout: URL? = nil) throws -> ChildRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = dir
        process.standardInput = FileHandle.nullDevice
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: stdout)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        let log = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        let cpuBefore = childrenCPUMilliseconds()
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let cpu = childrenCPUMilliseconds() - cpuBefore
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DualcamError.invalidValue(name: "dualcam \(arguments.joined(separator: " "))",
                                            reason: "failed: \(text.split(separator: "\n").last ?? "")")
        }
        return ChildRun(wall: ms, cpu: cpu)
    }

    /// `child` with stdout kept: its times and its stdout read as one JSON object.
    static func childJSON(_ executable: URL, _ arguments: [String], in dir: URL) throws -> (ChildRun, [String: Any]) {
        let out = dir.appendingPathComponent("stdout.json")
        let run = try child(executable, arguments, in: dir, stdout: out)
        let data = try Data(contentsOf: out)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DualcamError.format(path: "dualcam \(arguments.joined(separator: " "))", reason: "stdout is not a JSON object")
        }
        return (run, object)
    }

    /// Median ms of one `TemporalSmoother.smooth` of a 768x576 map once its 3 previous frames are held.
    static func smoothingMilliseconds(runs: Int) -> Double {
        let count = 768 * 576
        let frames: [[Float]] = (0..<4).map { (k: Int) -> [Float] in
            (0..<count).map { (i: Int) -> Float in
                let base = Float(10 + i % 97)
                let wobble: Float = 1 + 0.01 * Float((i + k) % 5)  // within the 5 % agreement: smoothed
                return base * wobble
            }
        }
        let smoother = TemporalSmoother()
        for f in frames.prefix(3) { _ = smoother.smooth(f) }
        return Timing.measure(runs: max(runs, 5)) { _ = smoother.smooth(frames[3]) }.median
    }
}
