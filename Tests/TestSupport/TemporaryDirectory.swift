import Foundation

/// A fresh directory under the system temporary directory, removed on deinit.
public final class TemporaryDirectory {
    public let url: URL
    public init(_ label: String = "dualcam-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Names of the regular files in the directory (including hidden ones), sorted.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
