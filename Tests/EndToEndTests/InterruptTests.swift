import Foundation
import TestSupport
import XCTest

/// Ctrl-C or SIGTERM in the middle of a long run (a converge sweep writes
/// frames to a hidden staging directory, 22-86 MB) removes the staging and
/// leaves the directory as it was (issue 20).
final class InterruptTests: XCTestCase {
    func interrupted(by signal: Int32) throws {
        let dir = try TemporaryDirectory()
        try Data("mine".utf8).write(to: dir.path("keep.txt"))
        let process = Process()
        process.executableURL = DualcamBinary.url
        process.arguments = ["converge", "--sweep", "0.5m:5m", "--steps", "400", "--demo-size", "320x240", "-o", "sweep"]
        process.currentDirectoryURL = dir.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the staging directory to hold a frame, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        var staged = false
        while Date() < deadline, process.isRunning, !staged {
            let hidden = try dir.fileNames().filter { $0.hasPrefix(".") }
            staged = try hidden.contains { name in
                (try? FileManager.default.contentsOfDirectory(atPath: dir.path(name).path).isEmpty == false) ?? false
            }
            if !staged { usleep(20_000) }
        }
        XCTAssertTrue(staged, "no staging directory appeared (the sweep ended or never started)")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 128 + signal, "exit status after signal \(signal)")
        XCTAssertEqual(try dir.fileNames(), ["keep.txt"], "staging left behind after signal \(signal)")
    }

    func testSIGTERMRemovesStaging() throws { try interrupted(by: SIGTERM) }
    func testSIGINTRemovesStaging() throws { try interrupted(by: SIGINT) }
}
