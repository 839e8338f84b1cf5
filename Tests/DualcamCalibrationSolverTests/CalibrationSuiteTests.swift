import DualcamCalibrationSolver
import Foundation
import TestSupport
import XCTest

/// Suite manifests: the shipped ones parse, bad ones fail with the field named.
final class CalibrationSuiteTests: XCTestCase {
    static let suites = DualcamBinary.packageRoot.appendingPathComponent("Calibration/suites")

    func testShippedSuitesParse() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.suites.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertEqual(names, ["opencv-sample.yaml", "synthetic-nominal.yaml", "synthetic-rendered.yaml"])
        for name in names {
            let suite = try CalibrationSuite.read(Self.suites.appendingPathComponent(name))
            XCTAssertFalse(suite.checks.isEmpty, name)
        }
        let nominal = try CalibrationSuite.read(Self.suites.appendingPathComponent("synthetic-nominal.yaml"))
        guard case let .synthetic(views, rig, rendered, _, perturb) = nominal.source else { return XCTFail("not synthetic") }
        XCTAssertEqual(views.views, 20)
        XCTAssertEqual(views.cornerNoisePixels, 0.2)
        XCTAssertNil(rig)
        XCTAssertFalse(rendered)
        XCTAssertEqual(perturb, 0.5)
        let baseline = try XCTUnwrap(try CalibrationSuite.read(Self.suites.appendingPathComponent("opencv-sample.yaml"))
            .checks.first { $0.quantity == "baseline_mm" })
        XCTAssertEqual(try XCTUnwrap(baseline.min), 3.31, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(baseline.max), 3.37, accuracy: 1e-12)
    }

    func testBadManifestsNameTheField() throws {
        let dir = try TemporaryDirectory()
        let cases: [(String, String)] = [
            ("source: {kind: synthetic}\nchecks: [{quantity: pairs_used, min: 1}]", "pattern: missing"),
            ("pattern: chessboard:9x\nsource: {kind: synthetic}\nchecks: [{quantity: pairs_used, min: 1}]", "pattern:"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: moon}\nchecks: [{quantity: pairs_used, min: 1}]", "unknown kind 'moon'"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic}\nchecks: [{quantity: focal, min: 1}]", "checks[0].quantity: unknown quantity 'focal'"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic}\nchecks: [{quantity: baseline_mm, value: 3}]", "checks[0].tolerance"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic}\nchecks: [{quantity: baseline_mm}]", "needs min, max"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: opencv-list}\nchecks: [{quantity: baseline_mm, max: 1}]", "source.list"),
            ("pattern: [", "not valid YAML"),
            // Counts and sizes within InputLimits; numbers never trap on their way to Int.
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic, views: 100000000}\nchecks: [{quantity: pairs_used, min: 1}]",
             "source.views: expected an integer from 1 to 500, got 100000000"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic, views: 1e300}\nchecks: [{quantity: pairs_used, min: 1}]",
             "source.views: expected an integer from 1 to 500"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic, seed: -1}\nchecks: [{quantity: pairs_used, min: 1}]",
             "source.seed: expected an integer"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic, views: 400, held_back_views: 200}\nchecks: [{quantity: pairs_used, min: 1}]",
             "source.held_back_views: expected an integer from 0 to 100"),
            ("pattern: chessboard:5000x5000:1mm\nsource: {kind: synthetic}\nchecks: [{quantity: pairs_used, min: 1}]",
             "InputLimits.maxBoardSide"),
            ("pattern: chessboard:9x6:1mm\nsource: {kind: synthetic, size: 100000x75000}\nchecks: [{quantity: pairs_used, min: 1}]",
             "source.size: size 100000x75000 exceeds the limit of 16384 pixels per side"),
            ("a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + (1...9).map { "a\($0): &a\($0) [" + Array(repeating: "*a\($0 - 1)", count: 9).joined(separator: ",") + "]" }.joined(separator: "\n"),
             "InputLimits.maxYAMLNodes"),
            // A mapping as a key trapped in Yams' constructor (found by fuzzing).
            ("pattern: chessboard:9x6:1mm\n{quantity: x}: y\nsource: {kind: synthetic}\nchecks: [{quantity: pairs_used, min: 1}]",
             "line 2: a mapping key must be plain text"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let url = dir.path("suite\(index).yaml")
            try text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try CalibrationSuite.read(url), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected) && message.contains("suite\(index).yaml"), "\(message) lacks \(expected)")
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
    }
}
