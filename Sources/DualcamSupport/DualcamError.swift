import Foundation

/// The errors dualcam reports to a user. Every case renders as one line that
/// names the file or flag involved and says what was expected, which is what
/// the command prints before exiting with a non-zero status.
public enum DualcamError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// A file could not be read or written (missing, unreadable, not writable).
    case io(path: String, reason: String)
    /// A file was read but its content is not what the format requires.
    case format(path: String, reason: String)
    /// A command-line value or an API argument is invalid.
    case invalidValue(name: String, reason: String)
    /// A geometric or numeric precondition does not hold (e.g. a non-orthonormal rotation).
    case invalidGeometry(String)
    /// OpenCV reported an error through the shim.
    case openCV(operation: String, message: String)

    /// One line: control characters that came from a file or a flag (a
    /// newline, a form feed, an escape sequence) are written as escapes, so
    /// no input can split the line or drive the terminal.
    public var description: String {
        let text: String
        switch self {
        case let .io(path, reason): text = "\(path): \(reason)"
        case let .format(path, reason): text = "\(path): \(reason)"
        case let .invalidValue(name, reason): text = "\(name): \(reason)"
        case let .invalidGeometry(reason): text = reason
        case let .openCV(operation, message): text = "OpenCV \(operation) failed: \(message)"
        }
        return PrintableText.escapingControls(text)
    }

    public var errorDescription: String? { description }

    /// Returns the same error with `path` attached when it had none of its own
    /// (used when a parser that works on bytes is called for a file).
    public func located(at path: String) -> DualcamError {
        switch self {
        case let .invalidValue(_, reason): return .format(path: path, reason: reason)
        case let .invalidGeometry(reason): return .format(path: path, reason: reason)
        default: return self
        }
    }
}
