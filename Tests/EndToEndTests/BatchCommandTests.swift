import DualcamCapture
import Foundation
import TestSupport
import XCTest
import Yams

/// `dualcam batch` run as a user (or a cluster engine) runs it: units spread
/// over tasks give exactly the plain commands' outputs, chunk boundaries and
/// the temporal smoothing included; status and collect; the engines'
/// environment variables; the Kubernetes job file.
final class BatchCommandTests: XCTestCase {
    /// A manifest over the fixtures (absolute paths), output to `out` in `dir`.
    static func manifest(_ recordings: String, chunk: Int, options: String = "{size: 160x120}", job: String = "depth",
                         in dir: TemporaryDirectory, name: String = "m.yaml") throws -> String {
        let f = try BatchFixtures.directory()
        let text = """
            version: 1
            output: out
            chunk_pairs: \(chunk)
            job: \(job)
            calibration: \(f.path("rig.yaml").path)
            options: \(options)
            recordings:
            \(recordings.replacingOccurrences(of: "$F", with: f.url.path))
            """
        try BatchFixtures.write(text, name, in: dir)
        return name
    }

    static let threeRecordings = """
          - {name: rec1, wide: $F/rec1/wide, tele: $F/rec1/tele}
          - {name: rec2, wide: $F/rec2/wide, tele: $F/rec2/tele}
          - {name: cap, capture: $F/cap}
        """

    /// 3 recordings (52 pairs: by index, by timestamp, a capture directory)
    /// in chunks of 5 over 3 tasks: every map and sidecar byte-identical to
    /// one plain `dualcam depth` run per recording (filtered: the temporal
    /// smoothing runs across the chunk boundaries through the warm-ups).
    func testChunkedTasksEqualThePlainCommand() throws {
        let dir = try TemporaryDirectory("dualcam-batch-equal")
        let f = try BatchFixtures.directory()
        let m = try Self.manifest(Self.threeRecordings, chunk: 5, in: dir)
        let plan = try E2E.succeed(["batch", "plan", m, "--of", "3"], in: dir)
        XCTAssertTrue(plan.stdout.hasPrefix("batch: 12 units, 52 pairs in 3 recordings (chunks of 5 pairs)"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("rec2: depth, 17 pairs (paired by timestamp), 4 units, each after a warm-up of 3 pairs"), plan.stdout)
        var done = 0
        for t in 0..<3 {
            let run = try E2E.succeed(["batch", "run", m, "--task", "\(t)", "--of", "3", "--json"], in: dir)
            let report = try E2E.jsonObject(run.stdout)
            XCTAssertEqual((report["failed"] as? [Any])?.count, 0)
            done += (report["done"] as? [String])?.count ?? 0
            XCTAssertGreaterThanOrEqual((report["done"] as? [String])?.count ?? 0, 3, "task \(t): \(run.stdout)")
        }
        XCTAssertEqual(done, 12)
        for (name, wide, tele) in [("rec1", "rec1/wide", "rec1/tele"), ("rec2", "rec2/wide", "rec2/tele"), ("cap", "cap/wide", "cap/tele")] {
            try E2E.succeed(["depth", "--wide", f.path(wide).path, "--tele", f.path(tele).path, "--calibration", f.path("rig.yaml").path,
                             "--size", "160x120", "-o", "plain-\(name)"], in: dir)
            try BatchFixtures.assertSameFiles(dir.path("out/\(name)"), dir.path("plain-\(name)"))
        }
        let status = try E2E.succeed(["batch", "status", m], in: dir)
        XCTAssertEqual(status.stdout, "batch: 12 units: 12 done, 0 failed, 0 changed, 0 missing, 0 running\n")
        let collect = try E2E.succeed(["batch", "collect", m, "--json"], in: dir)
        let summary = try E2E.jsonObject(collect.stdout)
        let recordings = try XCTUnwrap(summary["recordings"] as? [[String: Any]])
        XCTAssertEqual(recordings.map { $0["name"] as? String }, ["rec1", "rec2", "cap"])
        XCTAssertEqual(recordings.map { $0["pairs_done"] as? Int }, [23, 17, 12])
        XCTAssertEqual(recordings.map { $0["units_failed"] as? Int }, [0, 0, 0])
        XCTAssertTrue(recordings.allSatisfy { E2E.double($0["ms_per_pair"]) > 0 })
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/batch-summary.json").path))
        // A second run skips everything (a changed input: testChangedInputRedoesItsUnits).
        let again = try E2E.succeed(["batch", "run", m], in: dir)
        XCTAssertTrue(again.stdout.contains("0 units done (0 pairs), 12 skipped"), again.stdout)
    }

    /// An input that changes redoes exactly the units that read it.
    func testChangedInputRedoesItsUnits() throws {
        let dir = try TemporaryDirectory("dualcam-batch-changed")
        let f = try BatchFixtures.directory()
        try FileManager.default.createDirectory(at: dir.path("rec"), withIntermediateDirectories: false)
        for camera in ["wide", "tele"] { try FileManager.default.copyItem(at: f.path("small/\(camera)"), to: dir.path("rec/\(camera)")) }
        try BatchFixtures.write("""
            version: 1
            output: out
            chunk_pairs: 2
            job: depth
            calibration: \(f.path("rig.yaml").path)
            options: {size: 160x120}
            recordings: [{name: r, wide: rec/wide, tele: rec/tele}]
            """, "m.yaml", in: dir)
        try E2E.succeed(["batch", "run", "m.yaml"], in: dir)
        // Pair 3 is in unit 2-4 and in the warm-up of unit 4-6.
        let frame = dir.path("rec/wide/frame_000003.png")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: frame.path)
        let status = try E2E.run(["batch", "status", "m.yaml"], in: dir)
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.stdout.contains("r.000002-000004: changed: input changed: \(frame.path) (modified since)"), status.stdout)
        let run = try E2E.succeed(["batch", "run", "m.yaml"], in: dir)
        XCTAssertTrue(run.stdout.contains("2 units done (4 pairs), 1 skipped"), run.stdout)
        XCTAssertTrue(run.stderr.contains("r.000004-000006: running (input changed:"), run.stderr)
    }

    /// Slurm's and Kubernetes' variables pick the task; its units are the plan's for that task.
    func testEngineEnvironment() throws {
        let dir = try TemporaryDirectory("dualcam-batch-env")
        let m = try Self.manifest("  - {name: small, wide: $F/small/wide, tele: $F/small/tele}", chunk: 2, options: "{size: 160x120, mode: unfiltered}", in: dir)
        let plan = try E2E.jsonObject(try E2E.succeed(["batch", "plan", m, "--of", "3", "--json"], in: dir).stdout)
        let units = try XCTUnwrap(plan["plan"] as? [[String: Any]])
        func unitsOf(_ task: Int) -> [String] { units.filter { $0["task"] as? Int == task }.compactMap { $0["unit"] as? String } }
        XCTAssertEqual(units.count, 3)

        let slurm = try DualcamBinary.run(["batch", "run", m, "--json"], currentDirectory: dir.url,
                                          environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
        XCTAssertEqual(slurm.status, 0, slurm.stderr)
        XCTAssertTrue(slurm.stderr.contains("batch: task 1 of 3 (Slurm array)"), slurm.stderr)
        XCTAssertEqual(try E2E.jsonObject(slurm.stdout)["done"] as? [String], unitsOf(1))

        let k8s = try DualcamBinary.run(["batch", "run", m, "--of", "3", "--json"], currentDirectory: dir.url,
                                        environment: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(k8s.status, 0, k8s.stderr)
        XCTAssertTrue(k8s.stderr.contains("batch: task 2 of 3 (--of, Kubernetes JOB_COMPLETION_INDEX)"), k8s.stderr)
        XCTAssertEqual(try E2E.jsonObject(k8s.stdout)["done"] as? [String], unitsOf(2))

        let noCount = try DualcamBinary.run(["batch", "run", m], currentDirectory: dir.url, environment: ["JOB_COMPLETION_INDEX": "0"])
        XCTAssertEqual(noCount.status, 1)
        XCTAssertTrue(noCount.stderr.hasPrefix("dualcam: --of: missing: JOB_COMPLETION_INDEX is set"), noCount.stderr)
        let status = try E2E.run(["batch", "status", m], in: dir)
        XCTAssertTrue(status.stdout.hasPrefix("batch: 3 units: 2 done, 0 failed, 0 changed, 1 missing"), status.stdout)
    }

    /// The Indexed Job file: parsed, its index variable and command checked,
    /// and that command run with the index the Job would set.
    func testKubernetesJobFile() throws {
        let url = DualcamBinary.packageRoot.appendingPathComponent("deploy/kubernetes/dualcam-batch-job.yaml")
        let job = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        XCTAssertEqual(job["apiVersion"] as? String, "batch/v1")
        XCTAssertEqual(job["kind"] as? String, "Job")
        let spec = try XCTUnwrap(job["spec"] as? [String: Any])
        XCTAssertEqual(spec["completionMode"] as? String, "Indexed", "JOB_COMPLETION_INDEX is set only in Indexed mode")
        let completions = try XCTUnwrap(spec["completions"] as? Int)
        XCTAssertGreaterThan(completions, 1)
        XCTAssertLessThanOrEqual(try XCTUnwrap(spec["parallelism"] as? Int), completions)
        let pod = try XCTUnwrap((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        XCTAssertEqual(pod["restartPolicy"] as? String, "Never")
        let containers = try XCTUnwrap(pod["containers"] as? [[String: Any]])
        XCTAssertEqual(containers.count, 1)
        let command = (containers[0]["command"] as? [String] ?? []) + (containers[0]["args"] as? [String] ?? [])
        XCTAssertEqual(Array(command.prefix(3)), ["dualcam", "batch", "run"])
        XCTAssertFalse(command.contains("--task"), "the task index must come from JOB_COMPLETION_INDEX")
        let of = try XCTUnwrap(command.firstIndex(of: "--of"))
        XCTAssertEqual(Int(command[of + 1]), completions, "--of must equal the Job's completions")
        let manifest = command[3]
        let mounts = try XCTUnwrap(containers[0]["volumeMounts"] as? [[String: Any]])
        XCTAssertTrue(mounts.contains { manifest.hasPrefix(($0["mountPath"] as? String ?? "/nowhere") + "/") }, "the manifest is on a mounted volume")

        // The same arguments with a manifest here, as pod 1 of the Job.
        let dir = try TemporaryDirectory("dualcam-batch-k8s")
        let m = try Self.manifest("  - {name: small, wide: $F/small/wide, tele: $F/small/tele}", chunk: 1,
                                  options: "{size: 160x120, mode: unfiltered}", in: dir)
        var args = Array(command.dropFirst())
        args[2] = m
        let result = try DualcamBinary.run(args, currentDirectory: dir.url, environment: ["JOB_COMPLETION_INDEX": "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("batch: task 1 of \(completions) (--of, Kubernetes JOB_COMPLETION_INDEX)"), result.stderr)
    }

    /// The sbatch file runs `dualcam batch run MANIFEST` and takes the array index from Slurm.
    func testSlurmJobFile() throws {
        let url = DualcamBinary.packageRoot.appendingPathComponent("deploy/slurm/dualcam-batch.sbatch")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/bash\n"))
        XCTAssertTrue(text.contains("#SBATCH --array="), "an array job by default")
        XCTAssertTrue(text.contains("batch run \"$manifest\""))
        XCTAssertFalse(text.contains("--task"), "the task index must come from SLURM_ARRAY_TASK_ID")
        // Run as Slurm would run task 0 of 2 (bash, the variables set).
        let dir = try TemporaryDirectory("dualcam-batch-sbatch")
        let m = try Self.manifest("  - {name: small, wide: $F/small/wide, tele: $F/small/tele}", chunk: 3,
                                  options: "{size: 160x120, mode: unfiltered}", in: dir)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [url.path, m]
        process.currentDirectoryURL = dir.url
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "DUALCAM": DualcamBinary.url.path]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stderr.contains("batch: task 0 of 2 (Slurm array): 1 of 2 units"), stderr)
    }
}
