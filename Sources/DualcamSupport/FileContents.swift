import Foundation

/// Reading an input file whole, under the size policy: only a regular file
/// (a device such as /dev/zero or a pipe would never end), at most
/// `InputLimits.maxFileBytes`; anything else is a one-line `.io` error
/// naming the file. Every parser of a user's file reads through here.
public enum FileContents {
    /// The bytes of the file at `url`.
    public static func read(_ url: URL) throws -> Data {
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw DualcamError.io(path: path, reason: FileManager.default.fileExists(atPath: path) ? "cannot read: \(error.localizedDescription)" : "no such file")
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?: break
        case .typeDirectory?: throw DualcamError.io(path: path, reason: "is a directory, expected a file")
        default: throw DualcamError.io(path: path, reason: "is not a regular file (a device or a pipe), expected a file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= InputLimits.maxFileBytes else {
            throw DualcamError.io(path: path, reason: "is \(size) bytes, beyond the limit of \(InputLimits.maxFileBytes) (InputLimits.maxFileBytes)")
        }
        // Data(contentsOf:) leaks its read buffer for empty files (swift-foundation, Swift 6.3).
        if size == 0 { return Data() }
        do { return try Data(contentsOf: url) } catch {
            throw DualcamError.io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
    }

    /// The file's text; bytes that are not UTF-8 are a `.format` error
    /// saying what the file should have been (`expected`, e.g. "CSV text").
    public static func text(_ url: URL, expected: String = "UTF-8 text") throws -> String {
        guard let text = String(data: try read(url), encoding: .utf8) else {
            throw DualcamError.format(path: url.path, reason: "not UTF-8 text; expected \(expected)")
        }
        return text
    }
}
