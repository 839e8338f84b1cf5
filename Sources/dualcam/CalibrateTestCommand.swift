import ArgumentParser
import DualcamCalibrationSolver
import DualcamSupport
import Foundation

extension CalibrateCommand {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run calibration test suites (Calibration/suites/*.yaml) and print a pass/fail table; exit 1 on a failure.",
            discussion: "Example: dualcam calibrate test Calibration/suites/synthetic-nominal.yaml"
        )

        @Argument(help: "Suite manifests.")
        var suites: [String]

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            var passed = true
            try reportingErrors {
                guard !suites.isEmpty else {
                    throw DualcamError.invalidValue(name: "SUITE", reason: "give at least one suite file (Calibration/suites/*.yaml)")
                }
                let parsed = try suites.map { try CalibrationSuite.read(URL(fileURLWithPath: $0)) }
                var outcomes: [CalibrationSuiteRunner.Outcome] = []
                for suite in parsed {
                    let outcome = try CalibrationSuiteRunner.run(suite)
                    if !json { print(outcome.table) }
                    outcomes.append(outcome)
                }
                if json { try printJSON(outcomes) }
                passed = outcomes.allSatisfy(\.passed)
            }
            if !passed { throw ExitCode.failure }
        }
    }
}
