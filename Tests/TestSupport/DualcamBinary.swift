import Foundation

/// Runs the built `dualcam` executable the way a user would, for end-to-end tests.
public enum DualcamBinary {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public var timedOut: Bool { status == -1 }
    }

    /// The `dualcam` binary next to the test bundle in the build products directory.
    public static var url: URL {
        var dir = Bundle.main.bundleURL
        // On Linux the test runner lives in the products directory itself;
        // on Darwin it is inside an .xctest bundle.
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let binary = candidate.appendingPathComponent("dualcam")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return dir.appendingPathComponent("dualcam")
    }

    /// The package root (for files under Calibration/ and the like).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `dualcam`; with `timeoutSeconds`, a run still going then is
    /// sent SIGKILL and reported with status -1 (`Result.timedOut`), so a
    /// test of a former hang fails instead of hanging itself.
    @discardableResult
    /// `environment` adds (or replaces) variables of this process's environment.
    public static func run(_ arguments: [String], currentDirectory: URL? = nil, timeoutSeconds: Double? = nil,
                           environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        final class Flag: @unchecked Sendable { var value = false }
        let killed = Flag()
        if let timeoutSeconds {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) {
                if process.isRunning {
                    killed.value = true
                    kill(pid, SIGKILL)
                }
            }
        }
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Result(status: killed.value ? -1 : process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
