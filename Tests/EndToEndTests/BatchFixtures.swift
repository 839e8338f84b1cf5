import DualcamCalibrationFiles
import DualcamCapture
import DualcamGeometry
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// Synthetic recordings for the `dualcam batch` tests, made once per run:
///
///     rec1/    23 pairs, paired by index (steps scene, 320x240, noisy frames)
///     rec2/    17 pairs, timestamps.csv on both sides (paired by timestamp)
///     cap/     12 pairs as a `dualcam capture` directory (wide/, tele/, pairs.csv)
///     small/    6 pairs, with small/samples/frame_NNNNNN.csv (LiDAR samples for fuse)
///     rig.yaml the rig at 320x240
enum BatchFixtures {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: TemporaryDirectory?

    struct Failure: Error, CustomStringConvertible { var description: String }

    static let size = PixelSize(width: 320, height: 240)

    static func directory() throws -> TemporaryDirectory {
        lock.lock()
        defer { lock.unlock() }
        if let shared { return shared }
        let dir = try TemporaryDirectory("dualcam-batch-fixtures")
        let nominal = try NominalDevice.load()
        try SyntheticRecording.write(to: dir.path("rec1"), pairs: 23, size: size, calibration: nominal, seed: 1)
        try SyntheticRecording.write(to: dir.path("rec2"), pairs: 17, size: size, calibration: nominal, seed: 2, timestamps: true)
        try SyntheticRecording.write(to: dir.path("cap"), pairs: 12, size: size, calibration: nominal, seed: 3, timestamps: true)
        try Data((CaptureRecorder.pairsHeader + "\n").utf8).write(to: dir.path("cap/pairs.csv"))
        try SyntheticRecording.write(to: dir.path("small"), pairs: 6, size: size, calibration: nominal, seed: 4)
        try FileManager.default.copyItem(at: dir.path("rec1/calibration.yaml"), to: dir.path("rig.yaml"))
        // LiDAR samples of the scene (from dualcam synth), one file per wide frame.
        let synth = try E2E.run(["synth", "--scene", "steps", "--size", "320x240", "--spp", "1", "--out", "synth"], in: dir)
        guard synth.status == 0 else { throw Failure(description: "synth failed: \(synth.stderr)") }
        try FileManager.default.createDirectory(at: dir.path("small/samples"), withIntermediateDirectories: false)
        for k in 0..<6 {
            try FileManager.default.copyItem(at: dir.path("synth/lidar.csv"), to: dir.path(String(format: "small/samples/frame_%06d.csv", k)))
        }
        shared = dir
        return dir
    }

    /// Writes `text` as `name` in `dir`.
    static func write(_ text: String, _ name: String, in dir: TemporaryDirectory) throws {
        try Data(text.utf8).write(to: dir.path(name))
    }

    /// Every file under `directory` (relative paths, hidden ones included) with its bytes.
    static func contents(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try E2E.listing(directory) {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try Data(contentsOf: url)
            }
        }
        return result
    }

    /// Fails unless the two directories hold the same files with the same bytes.
    static func assertSameFiles(_ a: URL, _ b: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let x = try contents(a), y = try contents(b)
        XCTAssertEqual(x.keys.sorted(), y.keys.sorted(), "file names differ: \(a.path) vs \(b.path)", file: file, line: line)
        let differing = x.keys.sorted().filter { x[$0] != y[$0] }
        XCTAssertEqual(differing, [], "files whose bytes differ between \(a.path) and \(b.path)", file: file, line: line)
        XCTAssertFalse(x.isEmpty, "\(a.path) is empty", file: file, line: line)
    }

    /// The record files under OUTPUT/.dualcam-batch/records.
    static func records(_ output: URL) -> [String] {
        let dir = output.appendingPathComponent(".dualcam-batch/records")
        // Not the hidden temporary file a record is written to before its rename (".KEY.tmp-PID-N.json").
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    }
}
