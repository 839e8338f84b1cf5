import Foundation
import TestSupport
import XCTest

/// The fast tier (`scripts/test-fast.sh`) skips suites by name; a renamed or
/// deleted suite would leave a stale name there and let a slow suite back into
/// the fast tier unnoticed. Every skipped name must still be a test target
/// (a folder in Tests/) or a test class declared in Tests/.
final class FastTierTests: XCTestCase {
    func testEverySkippedNameStillExists() throws {
        let root = DualcamBinary.packageRoot
        let script = try String(contentsOf: root.appendingPathComponent("scripts/test-fast.sh"), encoding: .utf8)
        guard let open = script.range(of: "slow=("), let close = script.range(of: "\n)", range: open.upperBound..<script.endIndex) else {
            return XCTFail("scripts/test-fast.sh has no slow=( ... ) list")
        }
        let names = script[open.upperBound..<close.lowerBound].split(separator: "\n")
            .map { $0.split(separator: "#", maxSplits: 1).first ?? "" }
            .flatMap { $0.split(separator: " ").map(String.init) }
        XCTAssertGreaterThan(names.count, 5, "the slow list was not read: \(names)")
        let tests = root.appendingPathComponent("Tests")
        let targets = Set(try FileManager.default.contentsOfDirectory(atPath: tests.path))
        var classes = Set<String>()
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("class ") && line.contains("XCTestCase") {
                if let name = line.split(separator: "class ").last?.split(separator: ":").first {
                    classes.insert(name.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        for name in names {
            XCTAssert(targets.contains(name) || classes.contains(name),
                      "scripts/test-fast.sh skips \(name), which is neither a folder in Tests/ nor an XCTestCase class")
        }
    }
}
