import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// Every bad input: non-zero exit status, one line on stderr naming the file
/// or flag and what was expected, nothing on stdout, and no file (partial or
/// temporary) left in the output directory.
final class BadInputTests: XCTestCase {
    // MARK: homography flags

    func testBadDistances() throws {
        let dir = try TemporaryDirectory()
        let cases: [(String, String)] = [
            ("-1m", "greater than zero"), ("0", "greater than zero"), ("abc", "cannot read"),
            ("1.2parsec", "unknown unit 'parsec'"), ("1.2", "no unit"), ("", "empty"), ("nanm", "not a number"),
            ("1e999m", "not finite"),
        ]
        for (value, reason) in cases {
            let stderr = try E2E.assertFailsCleanly(["homography", "--distance", value], in: dir,
                                                    mentions: ["--distance '\(value)'", reason])
            // What is accepted is listed.
            XCTAssertTrue(stderr.contains("1.2m, 120cm, 1200mm, 4ft, 48in"), stderr)
            // --json does not change how errors look.
            try E2E.assertFailsCleanly(["homography", "--distance", value, "--json"], in: dir,
                                       mentions: ["--distance '\(value)'", reason])
        }
    }

    func testBadHomographyFlags() throws {
        let dir = try TemporaryDirectory()
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--normal", "0,0,0"], in: dir,
                                   mentions: ["--normal '0,0,0'", "non-zero"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--normal", "1,2"], in: dir,
                                   mentions: ["--normal '1,2'", "three finite numbers"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--normal", "0,nan,1"], in: dir,
                                   mentions: ["--normal", "three finite numbers"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--from", "ultra"], in: dir,
                                   mentions: ["--from 'ultra'", "no camera 'ultra'", "wide, tele"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--to", "lidar"], in: dir,
                                   mentions: ["--to 'lidar'", "no camera 'lidar'"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--from-size", "0x0"], in: dir,
                                   mentions: ["--from-size '0x0'", "WIDTHxHEIGHT"])
        // A plane behind the camera (n_z <= 0 with d > 0) is refused rather than warped.
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--normal", "0,0,-1"], in: dir,
                                   mentions: ["--normal '0,0,-1'", "in front of the camera"])
        // ArgumentParser's own errors are one line too.
        try E2E.assertFailsCleanly(["homography"], in: dir, mentions: ["--distance", "dualcam help"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--bogus"], in: dir, mentions: ["--bogus"])
        // A size of another aspect ratio is a crop, not a scale: the flag is named.
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--from-size", "2000x2000"], in: dir,
                                   mentions: ["--from-size '2000x2000'", "aspect ratio"])
        try E2E.assertFailsCleanly(["homography", "--distance", "1m", "--to-size", "1920x1080"], in: dir,
                                   mentions: ["--to-size '1920x1080'", "aspect ratio"])
    }

    // MARK: calibration files

    /// The nominal profile with one deliberate defect, and what the error must say.
    static func badCalibrations() throws -> [(name: String, yaml: String, mentions: [String])] {
        let nominal = try E2E.nominalYAML()
        func edit(_ old: String, _ new: String) -> String {
            XCTAssertTrue(nominal.contains(old), "the nominal profile has no '\(old)'")
            return nominal.replacingOccurrences(of: old, with: new)
        }
        let lines = nominal.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("    rotation: [") }.count, 1)
        let reflection = lines.map {
            $0.hasPrefix("    rotation: [") ? "    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0]" : $0
        }.joined(separator: "\n")
        return [
            ("non-orthonormal.yaml", edit("rotation: [0.9999942585991619,", "rotation: [0.9899942585991619,"),
             ["non-orthonormal.yaml", "rotation", "not orthonormal"]),
            ("reflection.yaml", reflection, ["reflection.yaml", "rotation", "determinant -1"]),
            ("nan.yaml", edit("fx: 6000.0", "fx: .nan"), ["nan.yaml", "cameras[1].intrinsics.fx", "finite number"]),
            ("missing-field.yaml", edit("    cy: 1509.0\n", ""),
             ["missing-field.yaml", "missing field 'cameras[1].intrinsics.cy'"]),
            ("version-2.yaml", edit("dualcam_calibration: 1\n", "dualcam_calibration: 2\n"),
             ["version-2.yaml", "unsupported format version 2", "version 1"]),
        ]
    }

    func testBadCalibrationFilesAreRefusedByEveryCommand() throws {
        let dir = try TemporaryDirectory()
        let bad = try Self.badCalibrations()
        for (name, yaml, _) in bad {
            try yaml.write(to: dir.path(name), atomically: true, encoding: .utf8)
        }
        for (name, _, mentions) in bad {
            try E2E.assertFailsCleanly(["calibration", "show", name], in: dir, mentions: mentions)
            try E2E.assertFailsCleanly(["calibration", "show", name, "--json"], in: dir, mentions: mentions)
            try E2E.assertFailsCleanly(["homography", "--calibration", name, "--distance", "1.2m"], in: dir,
                                       mentions: mentions)
            for output in ["out.yaml", "out.yml", "out.xml"] {
                try E2E.assertFailsCleanly(["calibration", "convert", name, output], in: dir, mentions: mentions,
                                           absent: [output])
            }
        }
    }

    func testMissingCalibrationFile() throws {
        let dir = try TemporaryDirectory()
        let mentions = ["no-such-rig.yaml", "no such calibration file"]
        try E2E.assertFailsCleanly(["calibration", "show", "no-such-rig.yaml"], in: dir, mentions: mentions)
        try E2E.assertFailsCleanly(["homography", "--calibration", "no-such-rig.yaml", "--distance", "1m"], in: dir,
                                   mentions: mentions)
        for output in ["rig.yaml", "rig.yml", "rig.xml"] {
            try E2E.assertFailsCleanly(["calibration", "convert", "no-such-rig.yaml", output], in: dir,
                                       mentions: mentions, absent: [output])
        }
    }

    func testUnrecognisedCalibrationContent() throws {
        let dir = try TemporaryDirectory()
        try "hello: world\n".write(to: dir.path("other.yaml"), atomically: true, encoding: .utf8)
        try Data().write(to: dir.path("empty.txt"))
        for name in ["other.yaml", "empty.txt"] {
            try E2E.assertFailsCleanly(["calibration", "show", name], in: dir,
                                       mentions: [name, "unknown calibration format", "Middlebury calib.txt"])
            try E2E.assertFailsCleanly(["calibration", "convert", name, "out.yaml"], in: dir,
                                       mentions: [name, "unknown calibration format"], absent: ["out.yaml"])
        }
    }

    func testConvertIntoAMissingDirectoryOrUnknownExtension() throws {
        let dir = try TemporaryDirectory()
        for output in ["no-such-dir/rig.yaml", "no-such-dir/rig.yml", "no-such-dir/rig.xml"] {
            try E2E.assertFailsCleanly(["calibration", "convert", E2E.nominalPath, output], in: dir,
                                       mentions: ["no-such-dir", "does not exist"], absent: ["no-such-dir"])
        }
        try E2E.assertFailsCleanly(["calibration", "convert", E2E.nominalPath, "rig.json"], in: dir,
                                   mentions: ["rig.json", ".yaml", "--format"], absent: ["rig.json"])
    }

    func testOutputThatIsADirectoryLeavesNoTemporaryFile() throws {
        // The write gets as far as the temporary file, then the rename fails.
        let dir = try TemporaryDirectory()
        try PFM.write(try Image(width: 2, height: 1, channels: 1, pixels: [Float(1), 2]), to: dir.path("in.pfm"))
        for output in ["taken.yaml", "taken.yml", "taken.npy", "taken.png"] {
            try FileManager.default.createDirectory(at: dir.path(output), withIntermediateDirectories: false)
        }
        for output in ["taken.yaml", "taken.yml"] {
            try E2E.assertFailsCleanly(["calibration", "convert", E2E.nominalPath, output], in: dir, mentions: [output])
        }
        try E2E.assertFailsCleanly(["image", "convert", "in.pfm", "taken.npy"], in: dir, mentions: ["taken.npy"])
        try E2E.assertFailsCleanly(["image", "convert", "in.pfm", "taken.png", "--depth-png", "mm"], in: dir,
                                   mentions: ["taken.png"])
    }

    func testFailedConvertLeavesAnExistingOutputAlone() throws {
        let dir = try TemporaryDirectory()
        let bad = try XCTUnwrap(try Self.badCalibrations().first)
        try bad.yaml.write(to: dir.path(bad.name), atomically: true, encoding: .utf8)
        let previous = "previous content\n"
        for output in ["rig.yaml", "rig.xml"] {
            try previous.write(to: dir.path(output), atomically: true, encoding: .utf8)
            try E2E.assertFailsCleanly(["calibration", "convert", bad.name, output], in: dir, mentions: bad.mentions)
            XCTAssertEqual(try String(contentsOf: dir.path(output), encoding: .utf8), previous, output)
        }
    }

    // MARK: images

    /// Bad image files, and what the error must say about each.
    static func writeBadImages(in dir: TemporaryDirectory) throws -> [(name: String, mentions: [String])] {
        // A valid PNG cut in half.
        var rng = SeededGenerator(seed: 11)
        let noise = (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let whole = dir.path("whole.png")
        try ImageIO.write(try Image(width: 64, height: 48, channels: 3, pixels: noise), to: whole)
        let bytes = try Data(contentsOf: whole)
        XCTAssertEqual(try ImageIO.read(whole).pixels(as: UInt8.self), noise, "the PNG is valid before it is cut")
        try bytes.prefix(bytes.count / 2).write(to: dir.path("truncated.png"))
        try FileManager.default.removeItem(at: whole)

        try Data("this is not an image\n".utf8).write(to: dir.path("garbage.png"))
        try Data("Pf\n100000 100000\n-1.0\n".utf8).write(to: dir.path("huge.pfm"))
        var short = Data("Pf\n4 3\n-1.0\n".utf8)
        short.append(Data(repeating: 0, count: 4 * 4 * 3 - 10))
        try short.write(to: dir.path("short.pfm"))
        return [
            ("missing.png", ["missing.png", "no such file"]),
            ("truncated.png", ["truncated.png", "truncated"]),
            ("garbage.png", ["garbage.png", "PNG"]),
            ("huge.pfm", ["huge.pfm", "100000x100000", "InputLimits.maxImageSidePixels"]),
            ("short.pfm", ["short.pfm", "38 bytes", "expected 48"]),
        ]
    }

    func testImageInfoOnBadFiles() throws {
        let dir = try TemporaryDirectory()
        for (name, mentions) in try Self.writeBadImages(in: dir) {
            try E2E.assertFailsCleanly(["image", "info", name], in: dir, mentions: mentions)
            try E2E.assertFailsCleanly(["image", "info", name, "--json"], in: dir, mentions: mentions)
        }
    }

    func testImageConvertOfBadFilesWritesNothing() throws {
        let dir = try TemporaryDirectory()
        for (name, mentions) in try Self.writeBadImages(in: dir) {
            for output in ["out.npy", "out.pfm", "out.png", "out.tiff"] {
                try E2E.assertFailsCleanly(["image", "convert", name, output], in: dir, mentions: mentions,
                                           absent: [output])
            }
            try E2E.assertFailsCleanly(["image", "convert", name, "out.png", "--depth-png", "mm"], in: dir,
                                       mentions: mentions, absent: ["out.png"])
        }
    }

    func testFloatToPNGNeedsTheDepthPNGFlag() throws {
        let dir = try TemporaryDirectory()
        let depth = try Image(width: 3, height: 2, channels: 1, pixels: [Float](repeating: 1.25, count: 6))
        try PFM.write(depth, to: dir.path("depth.pfm"))
        try E2E.assertFailsCleanly(["image", "convert", "depth.pfm", "depth.png"], in: dir,
                                   mentions: ["depth.png", "--depth-png mm", "--depth-png kitti"], absent: ["depth.png"])
        // A 3-channel float image is not a depth map.
        try PFM.write(try Image(width: 2, height: 2, channels: 3, pixels: [Float](repeating: 1, count: 12)),
                      to: dir.path("colour.pfm"))
        try E2E.assertFailsCleanly(["image", "convert", "colour.pfm", "colour.png", "--depth-png", "mm"], in: dir,
                                   mentions: ["colour.png", "1-channel float32"], absent: ["colour.png"])
    }

    func testImageConvertToUnsupportedOutputs() throws {
        let dir = try TemporaryDirectory()
        try ImageIO.write(try Image(width: 2, height: 2, channels: 4, pixels: [UInt8](repeating: 9, count: 16)),
                          to: dir.path("rgba.png"))
        try E2E.assertFailsCleanly(["image", "convert", "rgba.png", "rgba.bmp"], in: dir,
                                   mentions: ["rgba.bmp", "not a supported image format", ".pfm"], absent: ["rgba.bmp"])
        try E2E.assertFailsCleanly(["image", "convert", "rgba.png", "rgba.pfm"], in: dir,
                                   mentions: ["rgba.pfm", "4-channel", "1, 3"], absent: ["rgba.pfm"])
        try E2E.assertFailsCleanly(["image", "convert", "rgba.png", "no-such-dir/rgba.npy"], in: dir,
                                   mentions: ["no-such-dir"], absent: ["no-such-dir"])
        try E2E.assertFailsCleanly(["image", "info", "rgba.tga"], in: dir,
                                   mentions: ["rgba.tga", "not a supported image format"])
    }

    func testImageConvertRefusesLossyNarrowingAndAnIgnoredDepthFlag() throws {
        let dir = try TemporaryDirectory()
        try PFM.write(try Image(width: 2, height: 2, channels: 1, pixels: [Float](repeating: 300.5, count: 4)),
                      to: dir.path("depth.pfm"))
        try E2E.assertFailsCleanly(["image", "convert", "depth.pfm", "depth.jpg"], in: dir,
                                   mentions: ["depth.jpg", "cannot store float32 values without loss"], absent: ["depth.jpg"])
        try ImageIO.write(try Image(width: 2, height: 2, channels: 1, pixels: [UInt16](repeating: 4000, count: 4)),
                          to: dir.path("wide16.png"))
        try E2E.assertFailsCleanly(["image", "convert", "wide16.png", "wide16.jpg"], in: dir,
                                   mentions: ["wide16.jpg", "uint16"], absent: ["wide16.jpg"])
        try E2E.assertFailsCleanly(["image", "convert", "depth.pfm", "depth.npy", "--depth-png", "mm"], in: dir,
                                   mentions: ["--depth-png", ".png"], absent: ["depth.npy"])
        // Widening is allowed: a 16-bit PNG becomes float32 in a PFM with the same values.
        try E2E.succeed(["image", "convert", "wide16.png", "wide16.pfm"], in: dir)
        XCTAssertEqual(try PFM.read(dir.path("wide16.pfm")).doubleValues(), [4000, 4000, 4000, 4000])
    }
}
