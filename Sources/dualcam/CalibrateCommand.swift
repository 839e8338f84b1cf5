import ArgumentParser
import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamSupport
import Foundation

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a wide/tele rig from chessboard or ChArUco views, verify a calibration, run calibration test suites.",
        discussion: """
            Example: dualcam calibrate --pattern chessboard:9x6:25mm --pairs views/ -o rig.yaml

            More:
              dualcam calibrate --pattern chessboard:9x6:1mm --list /usr/share/doc/opencv-doc/examples/data/stereo_calib.xml -o rig.yaml --json
              dualcam calibrate verify --calibration rig.yaml --pairs new-views/ --max-epipolar 1
              dualcam calibrate test Calibration/suites/synthetic-nominal.yaml

            Pair directories: wide_NN/tele_NN or leftNN/rightNN images (see Calibration/README.md).
            """,
        subcommands: [Run.self, Verify.self, Test.self],
        defaultSubcommand: Run.self
    )

    /// Where the images come from.
    struct Inputs: ParsableArguments {
        @Option(name: .long, help: "Directory of image pairs: wide_NN + tele_NN or leftNN + rightNN (png, jpg, tif).")
        var pairs: String?

        @Option(name: .long, help: "OpenCV image list (XML/YAML, alternating left/right names relative to the list).")
        var list: String?

        var sources: CalibrationSources {
            CalibrationSources(pairsDirectory: pairs.map { URL(fileURLWithPath: $0) }, list: list.map { URL(fileURLWithPath: $0) })
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Calibrate a rig (the default subcommand): intrinsics per camera, stereo extrinsics, joint refinement.",
            discussion: "Example: dualcam calibrate run --pattern chessboard:9x6:25mm --pairs views/ -o rig.yaml"
        )

        @Option(name: .long, help: "Target: chessboard:COLSxROWS:SQUARE (inner corners) or charuco:COLSxROWS:SQUARE:MARKER:DICT.")
        var pattern: String

        @OptionGroup var inputs: Inputs

        @Option(name: .customLong("wide-intrinsics"), help: "Extra directory of wide-only views for the wide intrinsics.")
        var wideIntrinsics: String?

        @Option(name: .customLong("tele-intrinsics"), help: "Extra directory of tele-only views for the tele intrinsics.")
        var teleIntrinsics: String?

        @Option(name: [.short, .customLong("output")], help: "Output calibration (dualcam YAML).")
        var output: String

        @Option(name: .long, help: "Distortion coefficients: radial (k1 k2 k3, default), full (k1 k2 p1 p2 k3) or radial2 (k1 k2).")
        var distortion: RigCalibrator.Distortion = .radial

        @Flag(name: .long, help: "Print the report as JSON instead of text.")
        var json = false

        func run() throws {
            try reportingErrors {
                var calibrator = RigCalibrator()
                calibrator.distortion = distortion
                let target = try parseFlag("--pattern", pattern) { try BoardTarget(parsing: $0) }
                let detector = try PatternDetector(target: target)
                let out = URL(fileURLWithPath: output)
                try checkOutputDirectory(out, flag: "-o")
                var sources = inputs.sources
                sources.wideIntrinsics = wideIntrinsics.map { URL(fileURLWithPath: $0) }
                sources.teleIntrinsics = teleIntrinsics.map { URL(fileURLWithPath: $0) }
                let observations = try sources.observations(detector: detector)
                let result = try calibrator.calibrate(observations)
                try result.calibration.write(to: out, comment: "made by dualcam calibrate")
                if json { try printJSON(result.report) } else {
                    print(result.report.text)
                    print("wrote \(out.path)")
                }
            }
        }
    }
}

/// Fails early (before any work) when the output's directory does not exist.
func checkOutputDirectory(_ url: URL, flag: String) throws {
    var isDirectory: ObjCBool = false
    let parent = url.deletingLastPathComponent()
    guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw DualcamError.io(path: url.path, reason: "\(flag): the directory \(parent.path) does not exist")
    }
}
