import DualcamSupport
import Foundation

/// File reading and error wording shared by the codecs.
enum FileAccess {
    /// The whole file, or `.io(path:reason:)`: "no such file", "is a directory", ...
    static func readBytes(_ url: URL) throws -> [UInt8] {
        try checkReadable(url)
        return [UInt8](try FileContents.read(url))
    }

    /// Throws `.io(path:reason: "no such file")` for a missing path and
    /// `.io` for a directory, so that every codec reports these alike.
    static func checkReadable(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DualcamError.io(path: url.path, reason: "no such file")
        }
        if isDirectory.boolValue {
            throw DualcamError.io(path: url.path, reason: "is a directory, expected an image file")
        }
    }

    /// Attaches `path` to an error that has none, so that its one-line
    /// description names the file.
    static func locate(_ error: Error, at path: String) -> Error {
        guard let error = error as? DualcamError else {
            return DualcamError.io(path: path, reason: "\(error)")
        }
        switch error {
        case let .openCV(operation, message):
            return DualcamError.format(path: path, reason: "OpenCV \(operation) failed: \(message)")
        default:
            return error.located(at: path)
        }
    }

    /// Runs `body`, attaching `path` to any error it throws.
    static func at<R>(_ path: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            throw locate(error, at: path)
        }
    }
}
