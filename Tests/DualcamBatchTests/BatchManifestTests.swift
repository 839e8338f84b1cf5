import DualcamBatch
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Manifests parsed from text: what they mean, and every refusal one line
/// naming the file and the field.
final class BatchManifestTests: XCTestCase {
    let base = URL(fileURLWithPath: "/data/batch")

    func parse(_ text: String) throws -> BatchManifest {
        try BatchManifest.parse(text, file: "/data/batch/m.yaml", base: base)
    }

    /// The error's one line, or a test failure when the text parses.
    func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try parse(text)
            XCTFail("parsed but should not have:\n\(text)", file: file, line: line)
            return ""
        } catch {
            let message = "\(error)"
            XCTAssertFalse(message.contains("\n"), "not one line: \(message)", file: file, line: line)
            XCTAssertTrue(message.hasPrefix("/data/batch/m.yaml"), "does not name the manifest: \(message)", file: file, line: line)
            return message
        }
    }

    static let valid = """
        version: 1
        output: out
        chunk_pairs: 40
        job: depth
        calibration: rig.yaml
        options: {size: streaming, mode: filtered}
        recordings:
          - name: drive1
            wide: drive1/wide
            tele: drive1/tele
          - name: day2
            capture: /abs/day2
            options: {size: 160x120, max-depth: 5m}
          - name: conv
            job: converge
            calibration: other.yaml
            wide: c/wide.mp4
            tele: c/tele.mp4
            options: {distance: auto}
            output: converged/conv
          - name: lidar
            job: fuse
            wide: l/wide
            tele: l/tele
            samples: l/samples
        """

    func testMeaningOfAManifest() throws {
        let m = try parse(Self.valid)
        XCTAssertEqual(m.outputRoot.path, "/data/batch/out")
        XCTAssertEqual(m.chunkPairs, 40)
        XCTAssertEqual(m.recordings.map(\.name), ["drive1", "day2", "conv", "lidar"])
        let (a, b, c, d) = (m.recordings[0], m.recordings[1], m.recordings[2], m.recordings[3])
        XCTAssertEqual(a.source, .pair(wide: URL(fileURLWithPath: "/data/batch/drive1/wide"), tele: URL(fileURLWithPath: "/data/batch/drive1/tele")))
        XCTAssertEqual(a.job, .depth)
        XCTAssertEqual(a.calibration.path, "/data/batch/rig.yaml")
        XCTAssertEqual(a.flags, ["--mode", "filtered", "--size", "streaming"])
        XCTAssertEqual(a.output.path, "/data/batch/out/drive1")
        // Same job: the recording's options are added to the top-level ones, its own value winning.
        XCTAssertEqual(b.source, .capture(URL(fileURLWithPath: "/abs/day2")))
        XCTAssertEqual(b.source.wide.path, "/abs/day2/wide")
        XCTAssertEqual(b.flags, ["--max-depth", "5m", "--mode", "filtered", "--size", "160x120"])
        // Another job: only its own options.
        XCTAssertEqual(c.job, .converge)
        XCTAssertEqual(c.flags, ["--distance", "auto"])
        XCTAssertEqual(c.calibration.path, "/data/batch/other.yaml")
        XCTAssertEqual(c.output.path, "/data/batch/out/converged/conv")
        XCTAssertEqual(d.samples?.path, "/data/batch/l/samples")
        XCTAssertEqual(d.flags, [])
    }

    func testJSONIsReadToo() throws {
        let m = try parse("""
            {"version": 1, "output": "/tmp/o", "calibration": "rig.yaml", "job": "depth",
             "options": {"precision": 16, "mode": "unfiltered", "json": false},
             "recordings": [{"name": "r", "wide": "w", "tele": "t"}]}
            """)
        XCTAssertEqual(m.outputRoot.path, "/tmp/o")
        XCTAssertEqual(m.chunkPairs, BatchManifest.defaultChunkPairs)
        // Numbers become their text; false leaves the flag out.
        XCTAssertEqual(m.recordings[0].flags, ["--mode", "unfiltered", "--precision", "16"])
    }

    func testRefusals() {
        let head = "version: 1\noutput: out\ncalibration: rig.yaml\njob: depth\n"
        let cases: [(String, [String])] = [
            ("", ["empty manifest"]),
            ("- a\n- b\n", ["the manifest", "mapping"]),
            ("version: 2\noutput: o\nrecordings: []\n", ["version", "expected 1"]),
            ("version: 1\nrecordings: [{name: a, wide: w, tele: t}]\n", ["output", "missing"]),
            (head + "recordings: []\n", ["recordings", "non-empty"]),
            (head + "chunk_pair: 10\nrecordings: [{name: a, wide: w, tele: t}]\n", ["unknown key 'chunk_pair'"]),
            (head + "chunk_pairs: 0\nrecordings: [{name: a, wide: w, tele: t}]\n", ["chunk_pairs", "1 to 1000000"]),
            (head + "chunk_pairs: 2.5\nrecordings: [{name: a, wide: w, tele: t}]\n", ["chunk_pairs", "integer"]),
            (head + "recordings: [{name: a, wide: w}]\n", ["recordings[0]", "wide and tele, or capture"]),
            (head + "recordings: [{name: a, wide: w, tele: t, capture: c}]\n", ["recordings[0]", "wide and tele, or capture"]),
            (head + "recordings: [{name: '../x', wide: w, tele: t}]\n", ["recordings[0].name", "not a usable name"]),
            (head + "recordings: [{name: a, wide: w, tele: t, colour: red}]\n", ["recordings[0]", "unknown key 'colour'"]),
            (head + "recordings: [{name: a, wide: w, tele: t, job: stitch}]\n", ["recordings[0].job", "depth, fuse or converge"]),
            ("version: 1\noutput: o\njob: depth\nrecordings: [{name: a, wide: w, tele: t}]\n", ["recordings[0].calibration", "missing"]),
            ("version: 1\noutput: o\ncalibration: c\nrecordings: [{name: a, wide: w, tele: t}]\n", ["recordings[0].job", "missing"]),
            (head + "recordings: [{name: a, wide: w, tele: t, job: fuse}]\n", ["recordings[0].samples", "fuse needs"]),
            (head + "recordings: [{name: a, wide: w, tele: t, samples: s}]\n", ["recordings[0].samples", "only a fuse job"]),
            (head + "options: {--size: x}\nrecordings: [{name: a, wide: w, tele: t}]\n", ["options", "not an option name"]),
            (head + "options: {size: [1, 2]}\nrecordings: [{name: a, wide: w, tele: t}]\n", ["options.size", "expected text"]),
            (head + "recordings: [{name: a, wide: \"w\\nx\", tele: t}]\n", ["recordings[0].wide", "one line"]),
            // Duplicate outputs: the same name, an explicit output equal to another's, nested outputs.
            (head + "recordings: [{name: a, wide: w, tele: t}, {name: a, wide: w2, tele: t2}]\n", ["recordings[1].name", "unique"]),
            (head + "recordings: [{name: a, wide: w, tele: t}, {name: b, wide: w2, tele: t2, output: a}]\n",
             ["recordings[1].output", "the same output directory", "/data/batch/out/a"]),
            (head + "recordings: [{name: a, wide: w, tele: t}, {name: b, wide: w2, tele: t2, output: a/b}]\n",
             ["recordings[1].output", "nested"]),
            (head + "recordings: [{name: a, wide: w, tele: t, output: ../elsewhere}]\n", ["recordings[0].output", "inside the output root"]),
            (head + "recordings: [{name: a, wide: w, tele: t, output: /abs}]\n", ["recordings[0].output", "relative path"]),
            ("version: 1\noutput: o\n{a: 1}: x\n", ["mapping key"]),
            ("version: [1\n", ["not valid YAML"]),
        ]
        for (text, fragments) in cases {
            let message = refusal(text)
            for fragment in fragments {
                XCTAssertTrue(message.contains(fragment), "'\(message)' does not mention '\(fragment)' for:\n\(text)")
            }
        }
    }

    func testTooManyRecordingsIsOneLine() {
        let items = (0...InputLimits.maxBatchRecordings).map { "{name: r\($0), wide: w, tele: t}" }.joined(separator: ", ")
        let message = refusal("version: 1\noutput: o\njob: depth\ncalibration: c\nrecordings: [\(items)]\n")
        XCTAssertTrue(message.contains("maxBatchRecordings"), message)
    }

    /// Files: a missing recording or calibration is named; an output over an input is refused.
    func testCheckInputs() throws {
        let dir = try TemporaryDirectory("dualcam-batch-manifest")
        let fm = FileManager.default
        for d in ["rec/wide", "rec/tele"] { try fm.createDirectory(at: dir.path(d), withIntermediateDirectories: true) }
        try Data("x".utf8).write(to: dir.path("rig.yaml"))
        func manifest(_ recordings: String, output: String = "out") throws -> BatchManifest {
            try BatchManifest.parse("version: 1\noutput: \(output)\njob: depth\ncalibration: rig.yaml\nrecordings: [\(recordings)]\n",
                                    file: dir.path("m.yaml").path, base: dir.url)
        }
        XCTAssertNoThrow(try manifest("{name: a, wide: rec/wide, tele: rec/tele}").checkInputs())
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "" } catch { return "\(error)" }
        }
        let missing = message { try manifest("{name: a, wide: rec/wide, tele: rec/gone}").checkInputs() }
        XCTAssertTrue(missing.contains("rec/gone") && missing.contains("recordings[0] (a) tele") && missing.contains("no such file"), missing)
        let calibration = message { try manifest("{name: a, wide: rec/wide, tele: rec/tele, calibration: nope.yaml}").checkInputs() }
        XCTAssertTrue(calibration.contains("nope.yaml") && calibration.contains("calibration"), calibration)
        let capture = message { try manifest("{name: a, capture: rec}").checkInputs() }
        XCTAssertTrue(capture.contains("pairs.csv"), capture)
        let inside = message { try manifest("{name: a, wide: rec/wide, tele: rec/tele}", output: "rec/wide").checkInputs() }
        XCTAssertTrue(inside.contains("overlaps the input") && inside.contains("rec/wide"), inside)
    }
}
