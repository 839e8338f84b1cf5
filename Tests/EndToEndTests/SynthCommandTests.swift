import DualcamCalibrationFiles
import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// `dualcam synth`: renders small datasets (320x240, 1 sample per pixel) and
/// checks the files, the manifest and the bad-input behaviour.
final class SynthCommandTests: XCTestCase {
    static let small = ["--size", "320x240", "--spp", "1"]

    static let singlePairFiles = [
        "calibration.yaml", "lidar.csv", "lidar.depth.pfm", "lidar.depth.png", "manifest.json",
        "tele.depth.pfm", "tele.objects.png", "tele.png", "tele.png.json", "wide.covisible.png", "wide.depth.pfm", "wide.objects.png", "wide.png", "wide.png.json",
    ]

    static func files(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    static func manifest(_ dir: URL) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        return try XCTUnwrap(value as? [String: Any])
    }

    /// Every key of a JSON value, recursively.
    static func keys(_ value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
        if let array = value as? [Any] { return array.flatMap(keys) }
        return []
    }

    func testPlaneWritesTheListedFiles() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["synth", "--scene", "plane", "--distance", "1.2m"] + Self.small + ["--out", "plane"], in: dir)
        XCTAssertTrue(result.stdout.hasPrefix("synth: scene plane, 320x240"), result.stdout)
        XCTAssertEqual(result.stdout.filter { $0 == "\n" }.count, 1, "one summary line")
        XCTAssertEqual(result.stderr, "")
        let out = dir.path("plane")
        XCTAssertEqual(try dir.fileNames(), ["plane"], "nothing else (no staging directory) next to the output")
        XCTAssertEqual(try Self.files(out), Self.singlePairFiles)

        let manifest = try Self.manifest(out)
        XCTAssertEqual(manifest["scene"] as? String, "plane")
        XCTAssertEqual(manifest["size"] as? [Int], [320, 240])
        XCTAssertEqual(manifest["samples_per_pixel"] as? Int, 1)
        XCTAssertEqual(manifest["seed"] as? Int, 1)
        XCTAssertEqual(E2E.double(manifest["plane_distance_metres"]), 1.2, accuracy: 1e-12)
        let files = try XCTUnwrap(manifest["files"] as? [[String: Any]])
        XCTAssertEqual(files.compactMap { $0["path"] as? String }.sorted(), Self.singlePairFiles)
        XCTAssertTrue(files.allSatisfy { ($0["units"] as? String)?.isEmpty == false }, "every file has units")
        let depthEntry = try XCTUnwrap(files.first { $0["path"] as? String == "wide.depth.pfm" })
        XCTAssertTrue((depthEntry["units"] as? String ?? "").contains("metres"))
        for key in Self.keys(manifest) {
            XCTAssertEqual(key, key.lowercased(), "manifest key '\(key)' is snake_case")
            XCTAssertFalse(key.contains("-") || key.contains(" "), key)
        }

        // The plane is 1.2 m away at every wide pixel; the images are 320x240.
        let depth = try PFM.read(out.appendingPathComponent("wide.depth.pfm"))
        XCTAssertEqual([depth.width, depth.height], [320, 240])
        let worst = try depth.pixels(as: Float.self).map { abs(Double($0) - 1.2) }.max()!
        XCTAssertLessThanOrEqual(worst, 1.2e-6)
        let wide = try ImageIO.read(out.appendingPathComponent("wide.png"))
        XCTAssertEqual([wide.width, wide.height, wide.channels], [320, 240, 3])
        // Object ids: the plane is the scene's only object, id 1, and fills the view.
        let objects = try XCTUnwrap(manifest["objects"] as? [[String: Any]])
        XCTAssertEqual(objects.count, 1)
        XCTAssertEqual(objects.first?["id"] as? Int, 1)
        XCTAssertEqual(Set(try ImageIO.read(out.appendingPathComponent("tele.objects.png")).pixels(as: UInt16.self)), [1])
        let calibration = try CalibrationFile.read(out.appendingPathComponent("calibration.yaml"))
        XCTAssertEqual(try calibration.rig.camera(.tele).size.width, 320)
        let samples = try DepthSamplesCSV.read(out.appendingPathComponent("lidar.csv"))
        let lidar = try XCTUnwrap(manifest["lidar"] as? [String: Any])
        XCTAssertEqual(lidar["samples"] as? Int, samples.count)
        XCTAssertGreaterThan(samples.count, 0)
    }

    /// `--json` prints the manifest (the same document as manifest.json), and only that.
    func testJSONPrintsTheManifest() throws {
        let dir = try TemporaryDirectory()
        let result = try E2E.succeed(["synth", "--scene", "steps", "--seed", "7"] + Self.small + ["--out", "steps", "--json"], in: dir)
        let printed = try E2E.jsonObject(result.stdout)
        let written = try Self.manifest(dir.path("steps"))
        XCTAssertEqual(printed as NSDictionary, written as NSDictionary)
        XCTAssertEqual(printed["scene"] as? String, "steps")
        XCTAssertEqual(printed["seed"] as? Int, 7)
        XCTAssertNil(printed["plane_distance_metres"])
    }

    /// Board views: one set of files per view with an index, and board.json.
    func testBoardViewsAreNumbered() throws {
        let dir = try TemporaryDirectory()
        try E2E.succeed(["synth", "--scene", "board", "--views", "2"] + Self.small + ["--out", "board"], in: dir)
        let out = dir.path("board")
        let files = try Self.files(out)
        var expected = ["board.json", "calibration.yaml", "manifest.json"]
        for index in ["000", "001"] {
            expected += ["lidar_\(index).csv", "lidar_\(index).depth.pfm", "lidar_\(index).depth.png",
                         "tele_\(index).depth.pfm", "tele_\(index).objects.png", "tele_\(index).png", "tele_\(index).png.json",
                         "wide_\(index).covisible.png", "wide_\(index).depth.pfm", "wide_\(index).objects.png",
                         "wide_\(index).png", "wide_\(index).png.json"]
        }
        XCTAssertEqual(files, expected.sorted())
        let manifest = try Self.manifest(out)
        XCTAssertEqual((manifest["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String }.sorted(), files)

        let board = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("board.json")))
            as? [String: Any])
        let target = try XCTUnwrap(board["target"] as? [String: Any])
        XCTAssertEqual(target["kind"] as? String, "chessboard")
        XCTAssertEqual(target["columns"] as? Int, 9)
        XCTAssertEqual(target["rows"] as? Int, 6)
        XCTAssertEqual(E2E.double(target["square_size_metres"]), 0.025, accuracy: 1e-15)
        let views = try XCTUnwrap(board["views"] as? [[String: Any]])
        XCTAssertEqual(views.count, 2)
        for (index, view) in views.enumerated() {
            XCTAssertEqual(view["images"] as? [String: String],
                           ["wide": String(format: "wide_%03d.png", index), "tele": String(format: "tele_%03d.png", index)])
            let corners = try XCTUnwrap(view["corners"] as? [String: [[Double]]])
            for camera in ["wide", "tele"] {
                let points = try XCTUnwrap(corners[camera])
                XCTAssertEqual(points.count, 54)
                XCTAssertTrue(points.allSatisfy { $0.count == 2 && $0[0] > 0 && $0[0] < 319 && $0[1] > 0 && $0[1] < 239 })
            }
            XCTAssertEqual(E2E.doubles(view["rotation"]).count, 9)
            XCTAssertEqual(E2E.doubles(view["translation_metres"]).count, 3)
        }
        XCTAssertNotEqual(views[0]["translation_metres"] as? [Double], views[1]["translation_metres"] as? [Double])
    }

    func testLidarGridGivesAtMostColumnsTimesRows() throws {
        let dir = try TemporaryDirectory()
        try E2E.succeed(["synth", "--scene", "room", "--lidar", "grid:8x6", "--lidar-range", "10m"] + Self.small
            + ["--out", "grid"], in: dir)
        let samples = try DepthSamplesCSV.read(dir.path("grid/lidar.csv"))
        let lidar = try XCTUnwrap(try Self.manifest(dir.path("grid"))["lidar"] as? [String: Any])
        XCTAssertEqual(lidar["pattern"] as? String, "grid:8x6")
        XCTAssertEqual(lidar["samples"] as? Int, samples.count)
        XCTAssertLessThanOrEqual(samples.count, 48)
        XCTAssertGreaterThanOrEqual(samples.count, 40, "the room is within 10 m everywhere (outliers stay in range)")
        XCTAssertEqual(Set(samples.map(\.x)).count, 8, "8 columns of dots")
        XCTAssertEqual(Set(samples.map(\.y)).count, 6, "6 rows of dots")
        // The default 5 m range drops the far dots (the back wall is 6 m away).
        try E2E.succeed(["synth", "--scene", "room", "--lidar", "grid:8x6"] + Self.small + ["--out", "near"], in: dir)
        XCTAssertLessThan(try DepthSamplesCSV.read(dir.path("near/lidar.csv")).count, samples.count)
    }

    // MARK: bad input

    /// Each bad input: non-zero exit, one line on stderr saying what is wrong,
    /// nothing on stdout, and no output directory (nor anything else) created.
    func testBadInputWritesNothing() throws {
        let dir = try TemporaryDirectory()
        try Data("dualcam_calibration: [not, a, rig\n".utf8).write(to: dir.path("garbage.yaml"))
        let noTele = try E2E.nominalYAML().replacingOccurrences(of: "tele", with: "ultra")
        try noTele.write(to: dir.path("no-tele.yaml"), atomically: true, encoding: .utf8)
        let cases: [(args: [String], mentions: [String])] = [
            (["--scene", "moon"], ["'moon'", "--scene", "'plane', 'steps', 'room', 'board'"]),
            (["--size", "0x0"], ["--size '0x0'", "WIDTHxHEIGHT"]),
            (["--size", "100x100"], ["--size '100x100'", "aspect ratio"]),
            (["--size", "99999x99999"], ["--size '99999x99999'", "InputLimits.maxImageSidePixels"]),
            (["--size", "9600x7200"], ["9600x7200", "InputLimits.maxImagePixels"]),
            (["--size", "9600x4000"], ["9600x4000", "16 to 8192"]),
            (["--rig", "missing.yaml"], ["missing.yaml", "no such calibration file"]),
            (["--rig", "garbage.yaml"], ["garbage.yaml"]),
            (["--rig", "no-tele.yaml"], ["rig", "no 'tele' camera"]),
            (["--scene", "plane", "--distance", "-1m"], ["--distance '-1m'", "greater than zero"]),
            (["--distance", "1m"], ["--distance", "plane scene only", "--scene room"]),  // room is the default
            (["--spp", "3"], ["--spp 3", "1, 4, 9, 16"]),
            (["--lidar", "random:2"], ["--lidar 'random:2'", "random:FRACTION"]),
            (["--lidar", "grid:100000x100000"], ["grid:100000x100000", "more dots than pixels"]),
            (["--lidar-range", "inf"], ["--lidar-range 'inf'", "finite"]),
            (["--lidar-noise", "inf"], ["--lidar-noise 'inf'", "finite"]),
            (["--board", "chessboard:9x6"], ["--board 'chessboard:9x6'", "3 fields"]),
            (["--scene", "board", "--board", "charuco:7x5:30mm:22mm:DICT_9X9_1"], ["DICT_9X9_1", "DICT_5X5_100"]),
            (["--scene", "board", "--views", "0"], ["--views", "1 to 500"]),
        ]
        for (args, mentions) in cases {
            // The small size first: the flag under test comes later and wins.
            try E2E.assertFailsCleanly(["synth"] + Self.small + args + ["--out", "out"], in: dir, mentions: mentions,
                                       absent: ["out"])
            try? FileManager.default.removeItem(at: dir.path("out"))  // keep a failure from cascading
        }
        // A missing --out is ArgumentParser's one-line error.
        try E2E.assertFailsCleanly(["synth", "--scene", "plane"], in: dir, mentions: ["--out"])
        // Output where a file is: refused, the file untouched, no staging directory left.
        try Data("keep".utf8).write(to: dir.path("taken"))
        try E2E.assertFailsCleanly(["synth", "--scene", "plane"] + Self.small + ["--out", "taken"], in: dir,
                                   mentions: ["taken", "not a directory"])
        XCTAssertEqual(try Data(contentsOf: dir.path("taken")), Data("keep".utf8))
        // Into a directory that does not exist yet under a missing parent.
        try E2E.assertFailsCleanly(["synth", "--scene", "plane"] + Self.small + ["--out", "no/such/dir"], in: dir,
                                   mentions: ["no/such/dir", "does not exist"], absent: ["no"])
    }
}

// MARK: camera conditions

extension SynthCommandTests {
    /// `--scene office --conditions real` with per-camera overrides: the
    /// images differ from the clean run's, the ground truth (depth,
    /// co-visibility, LiDAR samples) is byte for byte the same, the manifest
    /// records the conditions, the summary names them; bad condition values
    /// are one-line errors naming the flag.
    func testConditionsChangeTheImagesNotTheGroundTruth() throws {
        let dir = try TemporaryDirectory()
        let tiny = ["--scene", "office", "--size", "160x120", "--spp", "1"]
        try E2E.succeed(["synth"] + tiny + ["--out", "clean"], in: dir)
        let result = try E2E.succeed(["synth"] + tiny + ["--conditions", "real", "--blur", "tele:1.5",
                                                           "--jpeg-quality", "wide:none", "--white-balance", "wide:1,1,1.1",
                                                           "--out", "real"], in: dir)
        XCTAssertTrue(result.stdout.hasPrefix("synth: scene office, 160x120, conditions custom, 1 pair(s)"), result.stdout)
        XCTAssertEqual(try Self.files(dir.path("real")), Self.singlePairFiles)
        for file in ["wide.depth.pfm", "tele.depth.pfm", "wide.covisible.png", "wide.objects.png", "tele.objects.png", "lidar.csv",
                     "lidar.depth.png", "calibration.yaml"] {
            XCTAssertEqual(try Data(contentsOf: dir.path("real/" + file)), try Data(contentsOf: dir.path("clean/" + file)), file)
        }
        for file in ["wide.png", "tele.png"] {
            let clean = try ImageIO.read(dir.path("clean/" + file)), real = try ImageIO.read(dir.path("real/" + file))
            XCTAssertEqual([real.width, real.height, real.channels], [160, 120, 3])
            let changed = clean.withUnsafeBytes { a in real.withUnsafeBytes { b in zip(a, b).filter { $0 != $1 }.count } }
            XCTAssertGreaterThan(Double(changed) / Double(160 * 120 * 3), 0.5, file)
        }
        let conditions = try XCTUnwrap(try Self.manifest(dir.path("real"))["conditions"] as? [String: Any])
        XCTAssertEqual(conditions["preset"] as? String, "custom")
        let wide = try XCTUnwrap(conditions["wide"] as? [String: Any]), tele = try XCTUnwrap(conditions["tele"] as? [String: Any])
        XCTAssertEqual(E2E.double(tele["blur_sigma_pixels"]), 1.5, accuracy: 1e-12)
        XCTAssertEqual(E2E.double(wide["blur_sigma_pixels"]), 0.5, accuracy: 1e-12, "the preset's value stays")
        XCTAssertTrue(wide["jpeg_quality"] is NSNull, "wide:none is lossless")
        XCTAssertEqual(tele["jpeg_quality"] as? Int, 90)
        XCTAssertEqual(E2E.doubles(wide["white_balance"]), [1, 1, 1.1])
        XCTAssertEqual(E2E.double(tele["exposure"]), 0.8, accuracy: 1e-12)
        XCTAssertNil(try Self.manifest(dir.path("clean"))["conditions"], "clean manifests have no conditions")

        let bad: [(args: [String], mentions: [String])] = [
            (["--conditions", "phone"], ["'phone'", "--conditions", "'clean' and 'real'"]),
            (["--gamma", "tele:0"], ["--gamma 'tele:0'", "gamma from 0.2 to 5"]),
            (["--blur", "wide:1,wide:2"], ["--blur 'wide:1,wide:2'", "wide:V,tele:V"]),
            (["--white-balance", "tele:1,1"], ["--white-balance 'tele:1,1'", "R,G,B"]),
            (["--jpeg-quality", "101"], ["--jpeg-quality '101'", "1 to 100, or none"]),
            (["--vignetting", "side:0.3"], ["--vignetting 'side:0.3'", "'side' is not a camera"]),
            (["--light-level", "2"], ["--light-level", "0.001 to 1"]),
        ]
        for (args, mentions) in bad {
            try E2E.assertFailsCleanly(["synth"] + tiny + args + ["--out", "bad"], in: dir, mentions: mentions, absent: ["bad"])
        }
    }
}
