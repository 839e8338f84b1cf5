import DualcamFuzzing
import Foundation
import TestSupport
import XCTest

/// The fuzz targets in the normal test run: every seed of the corpus and
/// every input that once crashed a parser (`Fuzz/regressions/<target>/`,
/// named after what it found) goes through its target again. A regression
/// stops the test process (the targets stop on anything but a one-line
/// dualcam error), which fails the run.
final class FuzzCorpusReplayTests: XCTestCase {
    static let fuzz = DualcamBinary.packageRoot.appendingPathComponent("Fuzz")

    static func files(_ kind: String, _ target: String) throws -> [URL] {
        let dir = fuzz.appendingPathComponent(kind).appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: dir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    func testEveryTargetHasSeeds() throws {
        for target in FuzzTargets.all {
            XCTAssertGreaterThan(try Self.files("corpus", target.name).count, 0, "Fuzz/corpus/\(target.name) has no seed")
        }
        // No corpus directory without a target (a renamed target would leave its seeds unused).
        let names = Set(FuzzTargets.all.map(\.name))
        for dir in try FileManager.default.contentsOfDirectory(atPath: Self.fuzz.appendingPathComponent("corpus").path) {
            XCTAssertTrue(names.contains(dir), "Fuzz/corpus/\(dir) matches no target")
        }
    }

    func testCorpusAndRegressionsReplay() throws {
        var count = 0
        for target in FuzzTargets.all {
            for file in try Self.files("corpus", target.name) + Self.files("regressions", target.name) {
                target.run(try Data(contentsOf: file))
                count += 1
            }
        }
        XCTAssertGreaterThan(count, FuzzTargets.all.count)
    }

    /// The seeds exercise the parsers' success paths too (a corpus of
    /// rejected files would fuzz only the first checks): at least one seed
    /// per target parses, and the check below counts them.
    func testSomeSeedsParse() throws {
        for target in FuzzTargets.all {
            let accepted = try Self.files("corpus", target.name).filter { target.accepts(try Data(contentsOf: $0)) }
            XCTAssertFalse(accepted.isEmpty, "no seed of \(target.name) parses")
        }
    }
}
