import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// Issue 20's reproducers, run through the binary (in the spirit of OpenCV's
/// bad-argument tests): each must end within 20 s with status 1 or 64, print
/// exactly one `dualcam:` line naming what to change, create no file and leave
/// every file that was there byte-identical. Together the runs stay below
/// 2 GB (the children's peak RSS, checked at the end).
final class HostileInputTests: XCTestCase {
    struct Case {
        var name: String
        var arguments: [String]
        var mentions: [String]
        /// Files to create in the directory before the run (relative path -> bytes; a trailing "/" makes a directory).
        var files: [String: Data] = [:]
    }

    /// A small synthetic dataset (64x48 plane, rig with a LiDAR) shared by the cases.
    static let fixture = Result { () throws -> URL in
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dualcam-hostile-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let result = try DualcamBinary.run(["synth", "--scene", "plane", "--size", "64x48", "--out", dir.appendingPathComponent("ds").path])
        guard result.status == 0 else { throw NSError(domain: "synth failed: \(result.stderr)", code: 1) }
        return dir.appendingPathComponent("ds")
    }

    static func text(_ s: String) -> Data { Data(s.utf8) }

    static func aliasBomb() -> String {
        var text = "  a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for i in 1...9 { text += "  a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ",") + "]\n" }
        return text
    }

    static func lidarRig(_ calibration: String) -> String {
        var yaml = calibration.replacingOccurrences(of: "extrinsics:\n", with: "extrinsics:\n  lidar_from_wide:\n    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]\n    translation: [-20.0, 0.0, 0.0]\n    unit: mm\n")
        yaml = yaml.replacingOccurrences(of: "extrinsics:", with: "- name: lidar\n  kind: lidar\n  image_size: {width: 256, height: 192}\n  intrinsics: {fx: 200.0, fy: 200.0, cx: 128.0, cy: 96.0}\nextrinsics:",
                                         options: [], range: yaml.range(of: "extrinsics:"))
        return yaml
    }

    func cases() throws -> [Case] {
        let ds = try Self.fixture.get()
        let rig = try String(contentsOf: ds.appendingPathComponent("calibration.yaml"), encoding: .utf8)
        let pair = ["--wide", "wide.png", "--tele", "tele.png", "--calibration", "rig.yaml"]
        let tiny = try Image(width: 2, height: 2, channels: 3, pixels: [UInt8](repeating: 128, count: 12))
        let scratch = try TemporaryDirectory()
        try ImageIO.write(tiny, to: scratch.path("tiny.png"))
        let tinyPNG = try Data(contentsOf: scratch.path("tiny.png"))
        var corruptPNG = [UInt8](try Data(contentsOf: ds.appendingPathComponent("wide.png")))
        corruptPNG[corruptPNG.count / 2] ^= 0x5A  // inside IDAT: libpng printed its own line before ours
        let suiteHead = "pattern: chessboard:9x6:25mm\n"
        let check = "checks: [{quantity: pairs_used, min: 1}]\n"
        let plyHead = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
        return [
            // Crashes.
            Case(name: "depth --size 1x1", arguments: ["depth"] + pair + ["-o", "d.pfm", "--size", "1x1"],
                 mentions: ["--size 1x1", "too small", "at least 16 pixels"]),
            Case(name: "depth --size 2x1", arguments: ["depth"] + pair + ["-o", "d.pfm", "--size", "2x1"], mentions: ["--size 2x1", "too small"]),
            Case(name: "depth on a 2x2 pair", arguments: ["depth", "--wide", "w2.png", "--tele", "t2.png", "--calibration", "rig.yaml", "-o", "d.pfm"],
                 mentions: ["--wide", "w2.png", "size 2x2 is too small"], files: ["w2.png": tinyPNG, "t2.png": tinyPNG]),
            Case(name: "fuse --tele --size 1x1", arguments: ["fuse", "--wide", "wide.png", "--tele", "tele.png", "--samples", "lidar.csv",
                                                           "--calibration", "rig.yaml", "-o", "f.pfm", "--size", "1x1"],
                 mentions: ["--size 1x1", "too small"]),
            Case(name: "fuse: only a point at 1e60 m", arguments: ["fuse", "--wide", "wide.png", "--samples", "cloud.csv", "--calibration", "lidar.yaml", "-o", "f.pfm"],
                 mentions: ["cloud.csv", "no usable samples", "non-finite pixel coordinates"],
                 files: ["cloud.csv": Self.text("x,y,z\n1e60,0,1\n"), "lidar.yaml": Self.text(Self.lidarRig(rig))]),
            Case(name: "fuse: ASCII PLY -0.11e308", arguments: ["fuse", "--wide", "wide.png", "--samples", "c.ply", "--calibration", "lidar.yaml", "-o", "f.pfm"],
                 mentions: ["c.ply", "no usable samples"],
                 files: ["c.ply": Self.text(plyHead + "-0.11e308 0 1\n"), "lidar.yaml": Self.text(Self.lidarRig(rig))]),
            Case(name: "fuse: depth 1e-310", arguments: ["fuse", "--wide", "wide.png", "--samples", "s.csv", "--calibration", "rig.yaml", "-o", "f.pfm"],
                 mentions: ["s.csv", "no usable samples", "subnormal depth"], files: ["s.csv": Self.text("x,y,depth_m\n10,10,1e-310\n")]),
            Case(name: "devices 2^32 x 2^32", arguments: ["devices", "--size", "4294967296x4294967296", "--fps", "30", "--format", "yuyv"],
                 mentions: ["--size '4294967296x4294967296'", "InputLimits.maxImageSidePixels"]),
            Case(name: "depth --size 100000x75000", arguments: ["depth"] + pair + ["-o", "d.pfm", "--size", "100000x75000"],
                 mentions: ["--size 100000x75000", "exceeds the limit of 16384 pixels per side"]),
            Case(name: "PLY promising 1e11 vertices", arguments: ["fuse", "--wide", "wide.png", "--samples", "big.ply", "--calibration", "lidar.yaml", "-o", "f.pfm"],
                 mentions: ["big.ply", "100000000000 PLY vertices exceed the limit of 10000000 (InputLimits.maxSamples)"],
                 files: ["big.ply": Self.text(plyHead.replacingOccurrences(of: "vertex 1", with: "vertex 100000000000")), "lidar.yaml": Self.text(Self.lidarRig(rig))]),
            Case(name: "synth --board 10000x10000", arguments: ["synth", "--scene", "board", "--board", "chessboard:10000x10000:1mm", "--out", "out"],
                 mentions: ["--board", "InputLimits.maxBoardSide"]),
            Case(name: "depth --min-depth 1e-300m", arguments: ["depth"] + pair + ["-o", "d.pfm", "--min-depth", "1e-300m"],
                 mentions: ["--min-depth", "at least 1 mm"]),
            Case(name: "eval --region with negative numbers", arguments: ["eval", "wide.png", "--gt", "wide.png", "--region", "-5,-5,10,10"],
                 mentions: ["--region '-5,-5,10,10'", "0 <= x0 < x1"]),
            // Hangs and runaway memory.
            Case(name: "calibration with an alias bomb", arguments: ["calibration", "show", "lol.yaml"],
                 mentions: ["lol.yaml", "InputLimits.maxYAMLNodes"], files: ["lol.yaml": Self.text(rig + "extra:\n" + Self.aliasBomb())]),
            Case(name: "depth with an alias-bomb calibration", arguments: ["depth", "--wide", "wide.png", "--tele", "tele.png", "--calibration", "lol.yaml", "-o", "d.pfm"],
                 mentions: ["lol.yaml", "InputLimits.maxYAMLNodes"], files: ["lol.yaml": Self.text(rig + "extra:\n" + Self.aliasBomb())]),
            Case(name: "suite with an alias bomb", arguments: ["calibrate", "test", "suite.yaml"],
                 mentions: ["suite.yaml", "InputLimits.maxYAMLNodes"], files: ["suite.yaml": Self.text(suiteHead + "bomb:\n" + Self.aliasBomb())]),
            Case(name: "converge --demo-size 100000x75000", arguments: ["converge", "--demo-size", "100000x75000", "--distance", "1m", "-o", "c.png"],
                 mentions: ["--demo-size '100000x75000'", "InputLimits.maxImageSidePixels"]),
            Case(name: "depth --demo-size 100000x75000", arguments: ["depth", "--demo-size", "100000x75000", "-o", "d.pfm"],
                 mentions: ["--demo-size '100000x75000'", "InputLimits.maxImageSidePixels"]),
            Case(name: "synth 500 board views at 4096x3072", arguments: ["synth", "--scene", "board", "--views", "500", "--size", "4096x3072", "--out", "out"],
                 mentions: ["--views 500 --size 4096x3072", "InputLimits.maxRenderedPixels"]),
            Case(name: "suite views: 100000000", arguments: ["calibrate", "test", "suite.yaml"], mentions: ["suite.yaml", "source.views", "1 to 500"],
                 files: ["suite.yaml": Self.text(suiteHead + "source: {kind: synthetic, views: 100000000}\n" + check)]),
            Case(name: "suite with a 5000x5000 board", arguments: ["calibrate", "test", "suite.yaml"], mentions: ["suite.yaml", "InputLimits.maxBoardSide"],
                 files: ["suite.yaml": Self.text("pattern: chessboard:5000x5000:1mm\nsource: {kind: synthetic}\n" + check)]),
            // Lost or partial output.
            Case(name: "synth over a directory in its way", arguments: ["synth", "--scene", "plane", "--size", "64x48", "--out", "mine"],
                 mentions: ["mine/wide.png", "exists and is not a file"], files: ["mine/wide.png/": Data(), "mine/wide.png/keep.txt": Self.text("precious")]),
            Case(name: "depth -o the wide input", arguments: ["depth"] + pair + ["-o", "wide.png"], mentions: ["-o wide.png", "is the input wide.png"]),
            Case(name: "depth -o the tele input by another path", arguments: ["depth"] + pair + ["-o", "./sub/../tele.png"],
                 mentions: ["is the input tele.png"], files: ["sub/": Data()]),
            Case(name: "converge -o the tele input", arguments: ["converge"] + pair + ["--distance", "1m", "-o", "tele.png"], mentions: ["-o tele.png", "is the input"]),
            Case(name: "fuse -o the samples input", arguments: ["fuse", "--wide", "wide.png", "--samples", "lidar.depth.pfm", "--calibration", "rig.yaml", "-o", "lidar.depth.pfm"],
                 mentions: ["-o lidar.depth.pfm", "is the input"]),
            Case(name: "image convert onto its input", arguments: ["image", "convert", "wide.png", "./wide.png"], mentions: ["is the input wide.png"]),
            Case(name: "calibration convert onto its input", arguments: ["calibration", "convert", "rig.yaml", "rig.yaml"], mentions: ["is the input rig.yaml"]),
            Case(name: "depth --preview an existing directory", arguments: ["depth"] + pair + ["-o", "d.pfm", "--preview", "p.png"],
                 mentions: ["--preview p.png", "existing directory"], files: ["p.png/": Data()]),
            // Messages that misled.
            Case(name: "converge --steps -5", arguments: ["converge", "--sweep", "1m:2m", "--steps", "-5"], mentions: ["--steps -5", "2 to 10000"]),
            Case(name: "/dev/null as a calibration", arguments: ["calibration", "show", "/dev/null"], mentions: ["/dev/null", "not a regular file"]),
            Case(name: "OpenCV matrix with too few values", arguments: ["calibration", "show", "cam.yml", "--image-size", "640x480"],
                 mentions: ["cam.yml", "declares a 3x3 matrix but its data has 2 values"],
                 files: ["cam.yml": Self.text("%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [1, 2]\n")]),
            Case(name: "PLY with raw bytes in its header", arguments: ["fuse", "--wide", "wide.png", "--samples", "raw.ply", "--calibration", "lidar.yaml", "-o", "f.pfm"],
                 mentions: ["raw.ply", "'\\x1B[2J'"],
                 files: ["raw.ply": Self.text(plyHead.replacingOccurrences(of: "ascii", with: "\u{1B}[2J") + "0 0 1\n"), "lidar.yaml": Self.text(Self.lidarRig(rig))]),
            Case(name: "PNG with a corrupt chunk", arguments: ["image", "info", "bad.png"],
                 mentions: ["bad.png", "fails its CRC check"], files: ["bad.png": Data(corruptPNG)]),
            Case(name: "EXR with a garbage header", arguments: ["image", "info", "bad.exr"],
                 mentions: ["bad.exr", "cannot decode the image"], files: ["bad.exr": Data([0x76, 0x2F, 0x31, 0x01]) + Self.text("garbage")]),
            Case(name: "help example without cameras", arguments: ["converge", "--wide", "/dev/video0", "--tele", "/dev/video2", "--distance", "1.2m", "-o", "live.avi", "--count", "1"],
                 mentions: ["/dev/video0"]),
        ]
    }

    func testHostileInputsFailCleanly() throws {
        let ds = try Self.fixture.get()
        for c in try cases() {
            let dir = try TemporaryDirectory()
            for name in ["wide.png", "tele.png", "lidar.csv", "lidar.depth.pfm", "wide.png.json", "tele.png.json"] {
                try FileManager.default.copyItem(at: ds.appendingPathComponent(name), to: dir.path(name))
            }
            try FileManager.default.copyItem(at: ds.appendingPathComponent("calibration.yaml"), to: dir.path("rig.yaml"))
            for (path, data) in c.files.sorted(by: { $0.key < $1.key }) {
                if path.hasSuffix("/") {
                    try FileManager.default.createDirectory(at: dir.path(path), withIntermediateDirectories: true)
                } else {
                    try FileManager.default.createDirectory(at: dir.path(path).deletingLastPathComponent(), withIntermediateDirectories: true)
                    try data.write(to: dir.path(path))
                }
            }
            let before = try snapshot(dir.url)
            let started = Date()
            let result = try DualcamBinary.run(c.arguments, currentDirectory: dir.url, timeoutSeconds: 20)
            let seconds = Date().timeIntervalSince(started)
            let label = "\(c.name): dualcam \(c.arguments.joined(separator: " "))"
            XCTAssertFalse(result.timedOut, "\(label) ran over 20 s")
            XCTAssertTrue([1, 64].contains(result.status), "\(label): status \(result.status), stderr \(result.stderr)")
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertTrue(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("dualcam: "),
                          "\(label): stderr is not one dualcam line: \(result.stderr.debugDescription)")
            for fragment in c.mentions {
                XCTAssertTrue(result.stderr.contains(fragment), "\(label): '\(result.stderr)' lacks '\(fragment)'")
            }
            XCTAssertEqual(try snapshot(dir.url), before, "\(label) changed the directory")
            XCTAssertLessThan(seconds, 20, label)
        }
        // Peak resident memory of the largest child so far (ru_maxrss in KiB).
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 2 * 1024 * 1024, "a child exceeded 2 GB")
    }

    /// Every path under `root` (hidden ones included) with its bytes (nil for a directory).
    func snapshot(_ root: URL) throws -> [String: Data?] {
        var result: [String: Data?] = [:]
        let base = root.resolvingSymlinksInPath().path
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: []) ?? .init() {
            let path = String(url.resolvingSymlinksInPath().path.dropFirst(base.count))
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            result[path] = isDirectory.boolValue ? .some(nil) : try Data(contentsOf: url)
        }
        return result
    }
}
