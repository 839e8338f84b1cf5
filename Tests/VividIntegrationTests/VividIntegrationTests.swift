import Foundation
import TestSupport
import XCTest

/// The integration test against the kernel's own virtual capture driver (issue 7):
/// scripts/vivid/run.sh boots Debian's kernel in qemu with an initramfs holding
/// `dualcam-vivid-probe`, loads vivid with two capture devices, and the probe
/// captures from both free-running streams through DualcamV4L2, pairs them with
/// DualcamSync and prints one `VIVID_RESULT key=value ...` line, asserted on here.
///
/// Opt-in (`DUALCAM_VIVID=1`, which `.ci/run` sets): without it the VM test is
/// skipped with a message; with it, a missing qemu/kernel fails the test loudly.
final class VividIntegrationTests: XCTestCase {
    static let framesPerDevice = 30
    static let framesPerSecond = 10.0

    func testTwoVividDevicesCaptureSynchronizedPairs() throws {
        guard ProcessInfo.processInfo.environment["DUALCAM_VIVID"] == "1" else {
            throw XCTSkip("V4L2 integration test (vivid in qemu) is opt-in: set DUALCAM_VIVID=1 (docs/capture.md, \"V4L2 integration test\"); .ci/run sets it")
        }
        // Idempotent: a no-op when qemu, busybox and the kernel are already there.
        let setup = try Script.run(["scripts/vivid/setup.sh"])
        guard setup.status == 0 else {
            return XCTFail("DUALCAM_VIVID=1 but scripts/vivid/setup.sh failed (status \(setup.status)):\n\(setup.stderr)")
        }
        let probe = DualcamBinary.url.deletingLastPathComponent().appendingPathComponent("dualcam-vivid-probe")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: probe.path), "probe not built at \(probe.path)")

        let started = Date()
        let run = try Script.run([
            "scripts/vivid/run.sh", probe.path,
            "--frames", "\(Self.framesPerDevice)", "--fps", "\(Self.framesPerSecond)", "--size", "320x180",
        ])
        let seconds = Date().timeIntervalSince(started)
        guard run.status == 0 else {
            return XCTFail("vivid run failed (status \(run.status)):\n\(run.stdout)\n\(run.stderr)")
        }
        print("vivid harness: \(String(format: "%.1f", seconds)) s\n\(run.stdout)")
        let result = try VividResult(parsing: run.stdout)

        let n = Self.framesPerDevice
        XCTAssertEqual(result.values["driver_a"], "vivid")
        XCTAssertEqual(result.values["driver_b"], "vivid")
        XCTAssertEqual(result.values["format"], "YUYV")
        XCTAssertEqual(result.values["size"], "320x180")
        XCTAssertEqual(try result.int("frames_a"), n)
        XCTAssertEqual(try result.int("frames_b"), n)
        for side in ["a", "b"] {
            XCTAssertEqual(try result.int("ts_increasing_\(side)"), 1, "timestamps of stream \(side) not strictly increasing")
            XCTAssertEqual(try result.int("clock_monotonic_\(side)"), 1, "stream \(side) buffers not flagged V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC")
            XCTAssertEqual(try result.int("seq_increasing_\(side)"), 1, "sequence numbers of stream \(side) not increasing")
            XCTAssertEqual(try result.int("seq_matches_ts_\(side)"), 1, "time per sequence step of stream \(side) is not the frame period")
            XCTAssertEqual(try result.int("images_complete_\(side)"), 1, "stream \(side) delivered a frame shorter than the negotiated image size")
            // The buffer timestamps advance by the negotiated frame period (vivid
            // paces its frames with the kernel's monotonic clock).
            let fps = try result.double("fps_\(side)")
            let periodNs = try result.double("period_median_ns_\(side)")
            XCTAssertEqual(periodNs, 1e9 / fps, accuracy: 0.1 * 1e9 / fps, "median frame interval of stream \(side)")
        }
        // Two free-running streams at the same rate, bound 3/4 of a period: every frame
        // pairs except at most one at each end, each within the bound, never crossing,
        // and the streaming synchronizer's pairs are the whole streams' optimum.
        let pairs = try result.int("pairs")
        XCTAssertGreaterThanOrEqual(pairs, n - 2)
        XCTAssertLessThanOrEqual(pairs, n)
        XCTAssertEqual(pairs + (try result.int("unpaired_a")), n)
        XCTAssertEqual(pairs + (try result.int("unpaired_b")), n)
        XCTAssertEqual(try result.int("pairs_ordered"), 1, "pairs cross or reuse a frame")
        XCTAssertEqual(try result.int("pairs_match_optimal"), 1, "streaming pairs differ from OptimalPairing of the whole streams")
        XCTAssertEqual(try result.int("sync_pairs"), pairs, "synchronizer counters disagree with its events")
        let maxSkew = try result.double("max_skew_ns")
        XCTAssertLessThanOrEqual(try result.double("skew_max_ns"), maxSkew)
        XCTAssertLessThanOrEqual(try result.double("skew_median_ns"), try result.double("skew_max_ns"))
        XCTAssertEqual(try result.int("ok"), 1)
    }

    /// The harness fails loudly (non-zero, a FAILED line naming the fix) when the
    /// kernel is not there, instead of passing or skipping; runs without qemu.
    func testHarnessFailsLoudlyWithoutKernel() throws {
        let empty = try TemporaryDirectory("dualcam-vivid-empty")
        let run = try Script.run(["scripts/vivid/run.sh", "/bin/true"], environment: ["DUALCAM_VIVID_CACHE": empty.url.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("vivid run: FAILED"), run.stderr)
        XCTAssertTrue(run.stderr.contains("scripts/vivid/setup.sh"), run.stderr)
        XCTAssertEqual(run.stdout, "")
    }

    func testResultLineParsing() throws {
        let result = try VividResult(parsing: "VIVID_DEVICES=/dev/video0\nVIVID_RESULT ok=1 pairs=29 skew_max_ns=1.5e6\nVIVID_PROBE_EXIT=0\n")
        XCTAssertEqual(try result.int("pairs"), 29)
        XCTAssertEqual(try result.double("skew_max_ns"), 1.5e6)
        XCTAssertThrowsError(try result.int("frames_a"))
        XCTAssertThrowsError(try VividResult(parsing: "VIVID_PROBE_EXIT=1\n"))
    }
}

/// The probe's `VIVID_RESULT key=value ...` line.
struct VividResult {
    struct Missing: Error, CustomStringConvertible { let description: String }
    let values: [String: String]

    init(parsing output: String) throws {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("VIVID_RESULT ") }) else {
            throw Missing(description: "no VIVID_RESULT line in:\n\(output)")
        }
        var values: [String: String] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        self.values = values
    }

    func double(_ key: String) throws -> Double {
        guard let text = values[key], let value = Double(text) else {
            throw Missing(description: "VIVID_RESULT has no numeric \(key)")
        }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let text = values[key], let value = Int(text) else {
            throw Missing(description: "VIVID_RESULT has no integer \(key)")
        }
        return value
    }
}

/// Runs `bash SCRIPT ARGS...` from the package root, output captured through files.
enum Script {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let dir = try TemporaryDirectory("dualcam-vivid-script")
        let outURL = dir.path("stdout"), errURL = dir.path("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = arguments
        process.currentDirectoryURL = DualcamBinary.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}
