import DualcamSupport
import Foundation
import TestSupport
import XCTest

final class StagedDirectoryTests: XCTestCase {
    func write(_ text: String, _ url: URL) throws { try Data(text.utf8).write(to: url) }

    /// Files appear in the output only on publish; the staging directory
    /// (hidden, beside the output) is registered until discarded.
    func testPublishMovesTheNamedFilesAndDiscardRemovesTheRest() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("maps")
        let staged = try StagedDirectory(beside: output, tag: "partial")
        XCTAssertEqual(staged.url.deletingLastPathComponent().path, dir.url.path)
        XCTAssertTrue(staged.url.lastPathComponent.hasPrefix(".maps.partial-"), staged.url.lastPathComponent)
        XCTAssertTrue(StagingRegistry.registered.contains(staged.url.path))
        try write("a", staged.url(for: "a.pfm"))
        try write("left", staged.url(for: "left.tmp"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        try staged.publish(["a.pfm"], to: output)
        XCTAssertEqual(try String(contentsOf: output.appendingPathComponent("a.pfm"), encoding: .utf8), "a")
        staged.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: staged.url.path))
        XCTAssertFalse(StagingRegistry.registered.contains(staged.url.path))
        XCTAssertEqual(try dir.fileNames(), ["maps"])
    }

    /// A file in the output's place, or a missing parent, fails before anything is made.
    func testDestinationChecks() throws {
        let dir = try TemporaryDirectory()
        try write("x", dir.path("file"))
        XCTAssertThrowsError(try StagedDirectory(beside: dir.path("file"), tag: "partial")) {
            XCTAssertTrue("\($0)".contains("exists and is not a directory"), "\($0)")
        }
        XCTAssertNoThrow(try StagedDirectory.checkDestination(dir.path("file"), allowFile: true))
        XCTAssertThrowsError(try StagedDirectory.checkDestination(dir.path("none/out"))) {
            XCTAssertTrue("\($0)".contains("parent directory"), "\($0)")
        }
        XCTAssertEqual(try dir.fileNames(), ["file"])
    }
}
