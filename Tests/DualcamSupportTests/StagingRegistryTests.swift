import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// What a signal handler's `removeAll` leaves while another thread is still
/// writing into the staging (the main thread of an interrupted `converge
/// --sweep` is; CI once saw the staging survive a SIGTERM that way).
final class StagingRegistryTests: XCTestCase {
    func testRemovalWinsAgainstAWriterStillAddingFiles() throws {
        for round in 0..<20 {
            let dir = try TemporaryDirectory()
            let staging = dir.path(".out.sweep-\(round)")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            StagingRegistry.register(staging)
            let started = DispatchSemaphore(value: 0)
            let writer = Thread {
                // Writes frames by path, as the encoders do, until a write fails.
                var n = 0
                while n < 5_000 {
                    let url = staging.appendingPathComponent(String(format: "frame-%05d.png", n))
                    guard FileManager.default.createFile(atPath: url.path, contents: Data(count: 256)) else { break }
                    if n == 20 { started.signal() }
                    n += 1
                }
            }
            writer.start()
            started.wait()
            StagingRegistry.removeAll()
            while writer.isExecuting { usleep(1_000) }
            XCTAssertEqual(try dir.fileNames(), [], "round \(round): staging left behind")
            XCTAssertTrue(StagingRegistry.registered.isEmpty)
        }
    }
}
