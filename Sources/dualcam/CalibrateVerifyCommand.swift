import ArgumentParser
import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamSupport
import Foundation

extension CalibrateCommand {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a calibration on new views: reprojection and epipolar errors; exit 1 when a threshold is exceeded.",
            discussion: "Example: dualcam calibrate verify --calibration rig.yaml --pairs new-views/ --max-epipolar 1"
        )

        @Option(name: .long, help: "The calibration to check (dualcam YAML or any format `calibration show` reads).")
        var calibration: String

        @OptionGroup var inputs: CalibrateCommand.Inputs

        @Option(name: .long, help: "Target (default: the pattern recorded by dualcam calibrate in the calibration).")
        var pattern: String?

        @Option(name: .customLong("max-epipolar"), parsing: .unconditional, help: "Largest mean epipolar error after rectification, px.")
        var maxEpipolar: Double = 1.0

        @Option(name: .customLong("max-reprojection"), parsing: .unconditional, help: "Largest RMS of the joint (both cameras) reprojection, px.")
        var maxReprojection: Double = 1.0

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            var passed = true
            try reportingErrors {
                for (flag, value) in [("--max-epipolar", maxEpipolar), ("--max-reprojection", maxReprojection)]
                where !(value.isFinite && value > 0) {
                    throw DualcamError.invalidValue(name: "\(flag) \(value)", reason: "expected a positive number of pixels")
                }
                let file = try CalibrationFile.read(URL(fileURLWithPath: calibration))
                let spec = try pattern ?? recordedPattern(file)
                let target = try parseFlag("--pattern", spec) { try BoardTarget(parsing: $0) }
                let observations = try inputs.sources.observations(detector: try PatternDetector(target: target))
                var verifier = CalibrationVerifier()
                verifier.maxEpipolarPixels = maxEpipolar
                verifier.maxReprojectionPixels = maxReprojection
                let report = try verifier.verify(file, observations: observations)
                if json { try printJSON(report) } else { print(report.text) }
                passed = report.passed
            }
            if !passed { throw ExitCode.failure }
        }

        func recordedPattern(_ file: CalibrationFile) throws -> String {
            guard case let .mapping(entries)? = file.extra["calibration_report"], let text = entries["pattern"]?.text else {
                throw DualcamError.invalidValue(
                    name: "--pattern", reason: "missing, and \(calibration) records no pattern (it was not made by dualcam calibrate); give --pattern")
            }
            return text
        }
    }
}
