import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam converge`: the built-in demo, every view's size, a synthetic
/// `plane` pair from `dualcam synth` (fixed and automatic distance, sweeps,
/// scaled and cropped buffers) and bad input. Inputs are 320x240 (the demo
/// with --demo-size, synth with --spp 1), made once per test class.
final class ConvergeCommandTests: XCTestCase {
    static let demo = ["--demo-size", "320x240"]

    // MARK: shared fixtures

    /// The fixture directory:
    ///   fx/       `dualcam synth --scene plane --distance 1.2m --size 320x240 --spp 1`
    ///   small/    fx's wide.png and tele.png resized to 160x120 (area), no sidecars
    ///   small-sidecars/  the same with sidecars for 160x120 (K of the resize, pixel centres mapped
    ///             as ImageOps.resize maps them: x' = (x + 0.5) / 2 - 0.5)
    ///   small-sidecars320/  the same with fx's sidecars (K for 320x240) copied next to them
    ///   crop/     fx's images cropped to 320x180 (another aspect ratio), no sidecars
    ///   crop-sidecars/   the same with fx's sidecars
    ///   no-tele.yaml     the nominal rig with its tele camera renamed ultra
    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: TemporaryDirectory?

    override class func tearDown() {
        lock.lock()
        shared = nil  // removes the directory
        lock.unlock()
        super.tearDown()
    }

    static func fixtures() throws -> TemporaryDirectory {
        lock.lock()
        defer { lock.unlock() }
        if let shared { return shared }
        let dir = try TemporaryDirectory("dualcam-converge-fixtures")
        let synth = try E2E.run(["synth", "--scene", "plane", "--distance", "1.2m", "--size", "320x240", "--spp", "1",
                                 "--out", "fx"], in: dir)
        guard synth.status == 0 else { throw FixtureError(message: "synth failed: \(synth.stderr)") }
        let fm = FileManager.default
        for name in ["small", "small-sidecars", "small-sidecars320", "crop", "crop-sidecars"] {
            try fm.createDirectory(at: dir.path(name), withIntermediateDirectories: false)
        }
        for camera in ["wide.png", "tele.png"] {
            let image = try ImageIO.read(dir.path("fx/\(camera)"))
            let small = try ImageOps.resize(image, width: 160, height: 120, interpolation: .area)
            let crop = try image.cropped(x: 0, y: 30, width: 320, height: 180)
            for (name, variant) in [("small", small), ("small-sidecars", small), ("small-sidecars320", small),
                                    ("crop", crop), ("crop-sidecars", crop)] {
                try ImageIO.write(variant, to: dir.path("\(name)/\(camera)"))
            }
            for name in ["small-sidecars320", "crop-sidecars"] {
                try fm.copyItem(at: dir.path("fx/\(camera).json"), to: dir.path("\(name)/\(camera).json"))
            }
            // K of the half-size buffer: f / 2, c' = (c + 0.5) / 2 - 0.5.
            let sidecar = try XCTUnwrap(try JSONSerialization.jsonObject(
                with: Data(contentsOf: dir.path("fx/\(camera).json"))) as? [String: Any])
            var k = try XCTUnwrap(sidecar["intrinsics"] as? [[Double]])
            XCTAssertEqual(sidecar["reference_dimensions"] as? [String: Int], ["width": 320, "height": 240])
            k[0][0] /= 2; k[0][1] /= 2; k[1][1] /= 2
            k[0][2] = (k[0][2] + 0.5) / 2 - 0.5
            k[1][2] = (k[1][2] + 0.5) / 2 - 0.5
            let scaled: [String: Any] = ["intrinsics": k, "reference_dimensions": ["width": 160, "height": 120]]
            try JSONSerialization.data(withJSONObject: scaled).write(to: dir.path("small-sidecars/\(camera).json"))
        }
        // The nominal rig without a tele camera: tele renamed ultra, and the
        // extrinsics key with it.
        let noTele = try E2E.nominalYAML()
            .replacingOccurrences(of: "- name: tele", with: "- name: ultra")
            .replacingOccurrences(of: "tele_from_wide:", with: "ultra_from_wide:")
        XCTAssertFalse(noTele.contains("name: tele"))
        try noTele.write(to: dir.path("no-tele.yaml"), atomically: true, encoding: .utf8)
        shared = dir
        return dir
    }

    struct FixtureError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// Absolute path of a fixture file.
    static func fixture(_ name: String) throws -> String { try fixtures().path(name).path }

    /// `--wide D/wide.png --tele D/tele.png --calibration fx/calibration.yaml` for fixture directory D.
    static func inputs(_ directory: String = "fx") throws -> [String] {
        ["--wide", try fixture("\(directory)/wide.png"), "--tele", try fixture("\(directory)/tele.png"),
         "--calibration", try fixture("fx/calibration.yaml")]
    }

    // MARK: helpers

    static func size(_ url: URL) throws -> [Int] {
        let image = try ImageIO.read(url)
        return [image.width, image.height]
    }

    /// Mean value (all channels) of the central half (in each direction) of an image.
    static func centralMean(_ url: URL) throws -> Double {
        let image = try ImageIO.read(url)
        let w = image.width / 2, h = image.height / 2
        let values = try image.cropped(x: image.width / 4, y: image.height / 4, width: w, height: h).doubleValues()
        return values.reduce(0, +) / Double(values.count)
    }

    /// Runs converge with `--json` and returns the parsed report.
    static func report(_ arguments: [String], in dir: TemporaryDirectory,
                       file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try E2E.succeed(["converge"] + arguments + ["--json"], in: dir, file: file, line: line)
        return try E2E.jsonObject(result.stdout, file: file, line: line)
    }

    /// Every key of a JSON value, recursively.
    static func keys(_ value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
        if let array = value as? [Any] { return array.flatMap(keys) }
        return []
    }

    // MARK: the built-in demo

    func testDemoWithoutInputs() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["converge", "--distance", "1.2m"] + Self.demo + ["-o", "out.png"], in: dir)
        XCTAssertTrue(result.stderr.contains("built-in demo scene"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nominal rig"), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one note: \(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("converge: split view on the tele canvas at 1.2 m -> out.png"), result.stdout)
        XCTAssertEqual(try dir.fileNames(), ["out.png"])
        let image = try ImageIO.read(dir.path("out.png"))
        XCTAssertEqual([image.width, image.height, image.channels], [320, 240, 3])
        XCTAssertEqual(image.element, .uint8)

        // The wide canvas: the wide field of view at the wide buffer's size.
        let wide = try E2E.succeed(["converge", "--distance", "1.2m", "--canvas", "wide", "--view", "side-by-side"]
            + Self.demo + ["-o", "wide.png"], in: dir)
        XCTAssertTrue(wide.stdout.contains("wide canvas"), wide.stdout)
        XCTAssertEqual(try Self.size(dir.path("wide.png")), [640, 240])
    }

    /// Every view writes its documented size (side-by-side is twice as wide).
    func testEveryViewWritesItsDocumentedSize() throws {
        let dir = try TemporaryDirectory()
        let expected = ["split": [320, 240], "side-by-side": [640, 240], "blend": [320, 240], "anaglyph": [320, 240],
                        "difference": [320, 240], "checker": [320, 240], "aligned": [320, 240]]
        for (view, size) in expected {
            for canvas in ["tele", "wide"] {
                let name = "\(view)-\(canvas).png"
                let result = try E2E.succeed(["converge"] + Self.inputs() + ["--distance", "1.2m", "--view", view,
                                                                             "--canvas", canvas, "-o", name], in: dir)
                XCTAssertEqual(result.stderr, "", "no notes with file inputs and a fixed distance")
                XCTAssertEqual(try Self.size(dir.path(name)), size, name)
            }
        }
        XCTAssertEqual(try dir.fileNames().count, 2 * expected.count, "only the outputs")
    }

    // MARK: synthetic plane fixture

    /// Converging at the plane's distance makes the difference view dark on
    /// the plane, much darker than converging at 0.4 m; --json reports it.
    func testDifferenceIsDarkAtThePlaneDistance() throws {
        let dir = try TemporaryDirectory()
        let report = try Self.report(Self.inputs() + ["--distance", "1.2m", "--view", "difference", "-o", "d.png"], in: dir)
        try E2E.succeed(["converge"] + Self.inputs() + ["--distance", "0.4m", "--view", "difference", "-o", "near.png"], in: dir)
        let atPlane = try Self.centralMean(dir.path("d.png"))
        let near = try Self.centralMean(dir.path("near.png"))
        // What remains at the plane's distance is the wide's softer detail (half
        // the tele's resolution on the plane): about a third of the 0.4 m value.
        XCTAssertLessThan(atPlane, 0.45 * near, "mean difference at 1.2 m \(atPlane), at 0.4 m \(near)")

        XCTAssertEqual(E2E.double(report["distance_metres"]), 1.2, accuracy: 1e-12)
        XCTAssertEqual(report["distance_mode"] as? String, "fixed")
        XCTAssertEqual(report["canvas"] as? String, "tele")
        XCTAssertEqual(report["view"] as? String, "difference")
        XCTAssertEqual(E2E.doubles(report["canvas_size"]), [320, 240])
        let h = E2E.doubles(report["tele_from_wide"])
        XCTAssertEqual(h.count, 9)
        XCTAssertTrue(h.allSatisfy(\.isFinite))
        XCTAssertEqual(h.last ?? 0, 1, accuracy: 1e-9, "normalised H[2][2]")
        let outputs = try XCTUnwrap(report["outputs"] as? [String])
        XCTAssertEqual(outputs.count, 1)
        XCTAssertTrue(outputs[0].hasSuffix("d.png"), "\(outputs)")
        let timings = try XCTUnwrap(report["timings_ms"] as? [String: Any])
        XCTAssertFalse(timings.isEmpty)
        XCTAssertTrue(timings.values.allSatisfy { ($0 as? NSNumber).map { $0.doubleValue >= 0 } ?? false }, "\(timings)")
        XCTAssertEqual(report["intrinsics"] as? [String: String], ["wide": "per-frame sidecar", "tele": "per-frame sidecar"])
        XCTAssertEqual((report["inputs"] as? [String: String])?["tele"], try Self.fixture("fx/tele.png"))
        for key in Self.keys(report) {
            XCTAssertEqual(key, key.lowercased(), "key '\(key)' is snake_case")
            XCTAssertFalse(key.contains("-") || key.contains(" "), key)
        }
        XCTAssertNil(report["auto"])
    }

    /// --distance auto recovers the plane's distance (within 2 %) with a score curve; --at works too.
    func testAutoDistanceRecoversThePlane() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["converge"] + Self.inputs() + ["--distance", "auto", "-o", "auto.png", "--json"], in: dir)
        XCTAssertTrue(result.stderr.hasPrefix("converge: auto distance "), result.stderr)
        let report = try E2E.jsonObject(result.stdout)
        XCTAssertEqual(report["distance_mode"] as? String, "auto")
        XCTAssertEqual(E2E.double(report["distance_metres"]), 1.2, accuracy: 0.02 * 1.2)
        let auto = try XCTUnwrap(report["auto"] as? [String: Any])
        XCTAssertGreaterThan(E2E.double(auto["score"]), 0.5)
        let curve = try XCTUnwrap(auto["curve"] as? [[Double]])
        XCTAssertGreaterThanOrEqual(curve.count, 32, "many samples")
        XCTAssertTrue(curve.allSatisfy { $0.count == 2 })
        let best = try XCTUnwrap(curve.max { $0[1] < $1[1] })
        XCTAssertEqual(best[0], 1.2, accuracy: 0.1 * 1.2, "the curve peaks near the plane")
        XCTAssertNil(auto["at"])
        XCTAssertEqual(try Self.size(dir.path("auto.png")), [320, 240])

        let tapped = try Self.report(Self.inputs() + ["--distance", "auto", "--at", "100,120", "-o", "tap.png"], in: dir)
        XCTAssertEqual(E2E.double(tapped["distance_metres"]), 1.2, accuracy: 0.02 * 1.2)
        XCTAssertEqual(E2E.doubles((tapped["auto"] as? [String: Any])?["at"]), [100, 120])
        XCTAssertEqual(try dir.fileNames(), ["auto.png", "tap.png"])
    }

    /// --sweep writes numbered frames (and nothing else); video is not implemented yet.
    func testSweepWritesNumberedFrames() throws {
        let dir = try TemporaryDirectory()
        let report = try Self.report(Self.inputs() + ["--sweep", "0.5m:5m", "--steps", "4", "-o", "frames"], in: dir)
        XCTAssertEqual(try dir.fileNames(), ["frames"], "no staging directory left next to the frames")
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir.path("frames").path).sorted()
        XCTAssertEqual(frames, ["frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png"])
        var data: [Data] = []
        for frame in frames {
            let url = dir.path("frames/\(frame)")
            XCTAssertEqual(try Self.size(url), [320, 240], frame)
            data.append(try Data(contentsOf: url))
        }
        XCTAssertEqual(Set(data).count, 4, "every frame shows another distance")
        XCTAssertEqual(report["distance_mode"] as? String, "sweep")
        XCTAssertEqual(E2E.double(report["distance_metres"]), 5, accuracy: 1e-9, "the last frame is the far end")
        XCTAssertEqual((report["outputs"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent }, frames)

        // A video path gets one MJPG video with a frame per step.
        try E2E.succeed(["converge"] + Self.inputs() + ["--sweep", "0.5m:5m", "--steps", "4", "--fps", "5", "-o", "movie.avi"],
                        in: dir)
        let reader = try VideoReader(url: dir.path("movie.avi"))
        XCTAssertEqual(reader.fps, 5, accuracy: 1e-6)
        var videoFrames = 0
        while let frame = try reader.next() {
            XCTAssertEqual(frame.width, 320)
            videoFrames += 1
        }
        XCTAssertEqual(videoFrames, 4)
        try E2E.assertFailsCleanly(["converge"] + Self.inputs() + ["--sweep", "0.5m:5m", "--steps", "4", "--fps", "0", "-o", "m2.avi"],
                                   in: dir, mentions: ["--fps"], absent: ["m2.avi"])
    }

    // MARK: buffer sizes

    /// Buffers of another size with the calibration's aspect ratio use scaled
    /// intrinsics: the calibration's (scaled to the buffer), 320x240 sidecars
    /// (scaled), or sidecars for the buffer itself.
    func testScaledImagesStillConverge() throws {
        let dir = try TemporaryDirectory()
        for variant in ["small", "small-sidecars", "small-sidecars320"] {
            let report = try Self.report(Self.inputs(variant) + ["--distance", "1.2m", "--view", "difference",
                                                                 "-o", "\(variant).png"], in: dir)
            XCTAssertEqual(E2E.doubles(report["canvas_size"]), [160, 120], variant)
            let source = variant == "small" ? "calibration" : "per-frame sidecar"
            XCTAssertEqual(report["intrinsics"] as? [String: String], ["wide": source, "tele": source], variant)
            XCTAssertEqual(try Self.size(dir.path("\(variant).png")), [160, 120])
            try E2E.succeed(["converge"] + Self.inputs(variant) + ["--distance", "0.4m", "--view", "difference",
                                                                  "-o", "\(variant)-near.png"], in: dir)
            let atPlane = try Self.centralMean(dir.path("\(variant).png"))
            let near = try Self.centralMean(dir.path("\(variant)-near.png"))
            XCTAssertLessThan(atPlane, 0.6 * near, "\(variant): mean difference at 1.2 m \(atPlane), at 0.4 m \(near)")
        }
        // With intrinsics that describe the resized buffers exactly, the
        // automatic distance is as good as at full size. (Scaling K by
        // diag(W/Wref, H/Href, 1), as the calibration and 320x240 sidecars are,
        // leaves a 0.25 px offset at 160x120 that moves it to about 1.37 m:
        // not asserted here; see the report of this test's author.)
        let auto = try Self.report(Self.inputs("small-sidecars") + ["--distance", "auto", "-o", "small-auto.png"], in: dir)
        XCTAssertEqual(E2E.double(auto["distance_metres"]), 1.2, accuracy: 0.02 * 1.2)
    }

    /// Another aspect ratio is an error naming the camera or file and the aspect ratio.
    func testAnotherAspectRatioFails() throws {
        let dir = try TemporaryDirectory()
        try E2E.assertFailsCleanly(["converge"] + Self.inputs("crop") + ["--distance", "1.2m", "-o", "out.png"],
                                   in: dir, mentions: ["wide", "aspect ratio", "320x180"], absent: ["out.png"])
        try E2E.assertFailsCleanly(["converge"] + Self.inputs("crop-sidecars") + ["--distance", "1.2m", "-o", "out.png"],
                                   in: dir, mentions: [try Self.fixture("crop-sidecars/wide.png"), "aspect ratio"],
                                   absent: ["out.png"])
        // Neither auto nor a sweep gets further.
        try E2E.assertFailsCleanly(["converge"] + Self.inputs("crop") + ["--distance", "auto", "-o", "out.png"],
                                   in: dir, mentions: ["aspect ratio"], absent: ["out.png"])
        try E2E.assertFailsCleanly(["converge"] + Self.inputs("crop") + ["--sweep", "1m:2m", "--steps", "2", "-o", "frames"],
                                   in: dir, mentions: ["aspect ratio"], absent: ["frames"])
        XCTAssertEqual(try dir.fileNames(), [])
    }

    // MARK: bad input

    /// Each bad input: non-zero exit, one line on stderr naming the flag or
    /// file, nothing on stdout, no output (nor anything else) written.
    func testBadInputWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let files = try Self.inputs()
        let wide = try Self.fixture("fx/wide.png")
        let noTele = try Self.fixture("no-tele.yaml")
        let cases: [(args: [String], mentions: [String])] = [
            (["--distance", "0"], ["--distance '0'", "greater than zero"]),
            (["--distance", "-1m"], ["--distance '-1m'", "greater than zero"]),
            (["--distance", "abc"], ["--distance 'abc'", "cannot read"]),
            (["--distance", "1.2parsec"], ["--distance '1.2parsec'", "unit"]),
            (["--wide", wide, "--tele", "missing.png", "--distance", "1.2m"], ["missing.png", "no such file"]),
            (["--wide", wide, "--distance", "1.2m"], ["--tele", "both --wide and --tele"]),
            (["--tele", wide, "--distance", "1.2m"], ["--wide", "both --wide and --tele"]),
            (["--wide", wide, "--tele", try Self.fixture("fx/tele.png"), "--calibration", noTele, "--distance", "1.2m"],
             ["no-tele.yaml", "no 'tele' camera"]),
            (["--calibration", "missing.yaml", "--distance", "1.2m"], ["missing.yaml", "no such calibration file"]),
            (["--distance", "1.2m", "--view", "bogus"], ["'bogus'", "--view", "'split', 'side-by-side'"]),
            (["--distance", "1.2m", "--canvas", "bogus"], ["'bogus'", "--canvas", "'tele' and 'wide'"]),
            (["--distance", "1.2m", "--at", "1,2"], ["--at", "only with --distance auto"]),
            (["--distance", "auto", "--at", "1,2,3"], ["--at '1,2,3'", "x,y"]),
            (files + ["--distance", "auto", "--at", "400,100"], ["(400.0, 100.0)", "outside the 320x240 canvas"]),
            (["--distance", "1.2m", "-o", "out.bmp"], ["out.bmp", "not a supported image format"]),
            (["--sweep", "1m:5m", "--steps", "1", "-o", "frames"], ["--steps 1", "2 to 10000"]),
            (["--sweep", "5m:1m", "-o", "frames"], ["--sweep '5m:1m'", "closer than far"]),
            (["--sweep", "1m", "-o", "frames"], ["--sweep '1m'", "NEAR:FAR"]),
            (["--sweep", "1m:5m", "--distance", "1.2m", "-o", "frames"], ["--distance", "not used with --sweep"]),
            (["--view", "blend"], ["--distance", "missing"]),
            (["--distance", "1.2m", "--demo-size", "12x9x3"], ["--demo-size '12x9x3'"]),
        ]
        for (args, mentions) in cases {
            try E2E.assertFailsCleanly(["converge"] + Self.demo + args + (args.contains("-o") ? [] : ["-o", "out.png"]),
                                       in: dir, mentions: mentions, absent: ["out.png", "frames", "out.bmp"])
        }
        XCTAssertEqual(try dir.fileNames(), [])
    }

    /// Failures found only after the demo scene was rendered still give one
    /// line: the demo note is printed only on success.
    func testDemoFailuresAreOneLine() throws {
        let dir = try TemporaryDirectory()
        try E2E.assertFailsCleanly(["converge", "--calibration", try Self.fixture("no-tele.yaml"), "--distance", "1.2m"]
            + Self.demo + ["-o", "out.png"], in: dir, mentions: ["no-tele.yaml", "no 'tele' camera"], absent: ["out.png"])
        try E2E.assertFailsCleanly(["converge", "--distance", "auto", "--at", "1000,2"] + Self.demo + ["-o", "out.png"],
                                   in: dir, mentions: ["outside the 320x240 canvas"], absent: ["out.png"])
        // The sweep directory's parent must exist; a file is not a directory.
        try E2E.assertFailsCleanly(["converge", "--sweep", "1m:2m", "--steps", "2"] + Self.demo + ["-o", "no/such"],
                                   in: dir, mentions: ["no/such", "does not exist"], absent: ["no"])
        try Data("keep".utf8).write(to: dir.path("taken"))
        try E2E.assertFailsCleanly(["converge", "--sweep", "1m:2m", "--steps", "2"] + Self.demo + ["-o", "taken"],
                                   in: dir, mentions: ["taken", "not a directory"])
        XCTAssertEqual(try Data(contentsOf: dir.path("taken")), Data("keep".utf8))
    }

    // MARK: sequences

    /// Directories of frames pair up by index; every pair is converged (here
    /// with its own automatic distance) and written as numbered frames or a video.
    func testDirectorySequencesConvergeEveryPair() throws {
        let dir = try TemporaryDirectory()
        let fm = FileManager.default
        for side in ["w", "t"] { try fm.createDirectory(at: dir.path(side), withIntermediateDirectories: false) }
        for i in 0..<3 {
            try fm.copyItem(at: URL(fileURLWithPath: try Self.fixture("fx/wide.png")), to: dir.path("w/f\(i).png"))
            try fm.copyItem(at: URL(fileURLWithPath: try Self.fixture("fx/tele.png")), to: dir.path("t/f\(i).png"))
        }
        let calibration = try Self.fixture("fx/calibration.yaml")
        let result = try E2E.succeed(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                                      "--distance", "auto", "-o", "frames", "--json"], in: dir)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["pairs"] as? Int, 3)
        for d in try XCTUnwrap(report["distance_metres"] as? [Double]) { XCTAssertEqual(d, 1.2, accuracy: 0.024) }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.path("frames").path).sorted(),
                       ["frame_0000.png", "frame_0001.png", "frame_0002.png"])
        try E2E.succeed(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                         "--distance", "1.2m", "-o", "pairs.avi"], in: dir)
        var frames = 0
        let reader = try VideoReader(url: dir.path("pairs.avi"))
        while try reader.next() != nil { frames += 1 }
        XCTAssertEqual(frames, 3)
        // Sequences that do not pair up, or a sweep over sequences, fail before writing anything.
        try fm.removeItem(at: dir.path("t/f2.png"))
        try E2E.assertFailsCleanly(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                                    "--distance", "1.2m", "-o", "bad"], in: dir, mentions: ["3 frames", "2"], absent: ["bad"])
        try E2E.assertFailsCleanly(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                                    "--sweep", "1m:2m", "-o", "bad"], in: dir, mentions: ["--sweep", "sequences"], absent: ["bad"])
    }

    /// Directories with timestamps.csv pair by timestamp: a frame the tele
    /// dropped leaves its wide frame unpaired instead of failing the run.
    func testTimestampedDirectoriesPairByTime() throws {
        let dir = try TemporaryDirectory()
        let fm = FileManager.default
        for side in ["w", "t"] { try fm.createDirectory(at: dir.path(side), withIntermediateDirectories: false) }
        let wideTimes: [Int64] = [0, 100_000_000, 200_000_000], teleTimes: [Int64] = [1_000_000, 202_000_000]
        for (side, camera, times) in [("w", "wide", wideTimes), ("t", "tele", teleTimes)] {
            var csv = "file,timestamp_ns\n"
            for (i, t) in times.enumerated() {
                try fm.copyItem(at: URL(fileURLWithPath: try Self.fixture("fx/\(camera).png")), to: dir.path("\(side)/f\(i).png"))
                csv += "f\(i).png,\(t)\n"
            }
            try csv.write(to: dir.path("\(side)/timestamps.csv"), atomically: true, encoding: .utf8)
        }
        let calibration = try Self.fixture("fx/calibration.yaml")
        let result = try E2E.succeed(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                                      "--distance", "1.2m", "--max-skew", "10ms", "-o", "frames"], in: dir)
        XCTAssertTrue(result.stdout.contains("2 pairs (paired by timestamp"), result.stdout)
        XCTAssertTrue(result.stdout.contains("unpaired wide 1, tele 0"), result.stdout)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.path("frames").path).sorted(), ["frame_0000.png", "frame_0001.png"])
        // A skew bound below the 2 ms of the pairs leaves nothing to converge.
        try E2E.assertFailsCleanly(["converge", "--wide", "w", "--tele", "t", "--calibration", calibration,
                                    "--distance", "1.2m", "--max-skew", "0.5ms", "-o", "none"], in: dir,
                                   mentions: ["no frames"], absent: ["none"])
    }
}
