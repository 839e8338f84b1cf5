import DualcamSupport
import Foundation
import TestSupport
import XCTest

final class StagedOutputsTests: XCTestCase {
    func write(_ text: String, _ url: URL) throws { try Data(text.utf8).write(to: url) }
    func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Nothing is published unless every output was written; the existing
    /// destinations keep their content and no temporary file is left.
    func testPublishesAllOrNothing() throws {
        let dir = try TemporaryDirectory()
        try write("old map", dir.path("map.pfm"))
        try write("old sidecar", dir.path("map.pfm.json"))
        let staged = StagedOutputs(inputs: [])
        let map = try staged.stage(dir.path("map.pfm").path, flag: "-o", sidecar: true)
        _ = try staged.stage(dir.path("preview.png").path, flag: "--preview")
        XCTAssertEqual(map.deletingLastPathComponent().path, dir.url.path)
        XCTAssertEqual(map.pathExtension, "pfm")
        try write("new map", map)
        try write("new sidecar", URL(fileURLWithPath: map.path + ".json"))
        // The preview was never written: publishing fails before renaming anything.
        XCTAssertThrowsError(try staged.publish()) { XCTAssertTrue("\($0)".contains("preview.png: was not written"), "\($0)") }
        XCTAssertEqual(try read(dir.path("map.pfm")), "old map")
        XCTAssertEqual(try read(dir.path("map.pfm.json")), "old sidecar")
        staged.discard()
        XCTAssertEqual(try dir.fileNames().sorted(), ["map.pfm", "map.pfm.json"])
    }

    func testPublishReplacesTogether() throws {
        let dir = try TemporaryDirectory()
        try write("old", dir.path("map.pfm"))
        let staged = StagedOutputs(inputs: [])
        let map = try staged.stage(dir.path("map.pfm").path, flag: "-o", sidecar: true)
        let preview = try staged.stage(dir.path("p.png").path, flag: "--preview")
        try write("new", map)
        try write("sidecar", URL(fileURLWithPath: map.path + ".json"))
        try write("preview", preview)
        XCTAssertFalse(StagingRegistry.registered.isEmpty, "temporaries are registered for SIGINT/SIGTERM")
        try staged.publish()
        XCTAssertEqual(try read(dir.path("map.pfm")), "new")
        XCTAssertEqual(try read(dir.path("map.pfm.json")), "sidecar")
        XCTAssertEqual(try read(dir.path("p.png")), "preview")
        XCTAssertEqual(try dir.fileNames().sorted(), ["map.pfm", "map.pfm.json", "p.png"])
        XCTAssertFalse(StagingRegistry.registered.contains { $0.hasPrefix(dir.url.path) })
    }

    /// An output that is an input (by another spelling, a symbolic link or a
    /// hard link), an input's sidecar, another output, or a directory is refused.
    func testRefusesInputsDirectoriesAndDuplicates() throws {
        let dir = try TemporaryDirectory()
        try write("image", dir.path("wide.png"))
        try write("sidecar", dir.path("wide.png.json"))
        try FileManager.default.createSymbolicLink(at: dir.path("link.png"), withDestinationURL: dir.path("wide.png"))
        XCTAssertEqual(link(dir.path("wide.png").path, dir.path("hard.png").path), 0)
        try FileManager.default.createDirectory(at: dir.path("sub"), withIntermediateDirectories: false)
        let staged = StagedOutputs(inputs: [dir.path("wide.png").path])
        for (path, fragment) in [
            (dir.path("wide.png").path, "is the input"),
            (dir.url.path + "/sub/../wide.png", "is the input"),
            (dir.path("link.png").path, "is the input"),
            (dir.path("hard.png").path, "is the input"),
            (dir.path("sub").path, "is an existing directory"),
        ] {
            XCTAssertThrowsError(try staged.stage(path, flag: "-o"), path) { XCTAssertTrue("\($0)".contains(fragment), "\($0)") }
        }
        // A map whose sidecar would overwrite the input's sidecar.
        XCTAssertThrowsError(try staged.stage(dir.path("wide.png").path, flag: "-o", sidecar: true))
        _ = try staged.stage(dir.path("out.pfm").path, flag: "-o", sidecar: true)
        XCTAssertThrowsError(try staged.stage(dir.path("out.pfm").path, flag: "--preview")) {
            XCTAssertTrue("\($0)".contains("is also the output of -o"), "\($0)")
        }
        staged.discard()
        XCTAssertEqual(try read(dir.path("wide.png")), "image")
        XCTAssertEqual(try read(dir.path("wide.png.json")), "sidecar")
    }

    func testFileContentsRefusesDevicesAndDirectories() throws {
        XCTAssertThrowsError(try FileContents.read(URL(fileURLWithPath: "/dev/zero"))) {
            XCTAssertEqual("\($0)", "/dev/zero: is not a regular file (a device or a pipe), expected a file")
        }
        XCTAssertThrowsError(try FileContents.read(URL(fileURLWithPath: "/tmp"))) { XCTAssertTrue("\($0)".contains("is a directory")) }
        XCTAssertThrowsError(try FileContents.read(URL(fileURLWithPath: "/nonexistent/x"))) { XCTAssertTrue("\($0)".contains("no such file")) }
        let dir = try TemporaryDirectory()
        try Data().write(to: dir.path("empty"))
        XCTAssertEqual(try FileContents.read(dir.path("empty")), Data())
    }
}
