import COpenCVShim
import DualcamSupport

/// What a failing shim call was about, which decides the `DualcamError` it becomes.
package enum ShimErrorContext {
    /// No file involved: every failure is `.openCV(operation:message:)`.
    case operation
    /// Opening, reading or writing the file at the path: a missing or unreadable
    /// file is `.io(path:reason:)`, anything else (undecodable content, no
    /// encoder, OpenCV exceptions) is `.format(path:reason:)`.
    case file(String)
    /// The content of the file at the path (keys, types): always `.format(path:reason:)`.
    case content(String)

    /// The error for shim status `code` with the shim's one-line `message`.
    package func error(operation: String, code: Int32, message: String) -> DualcamError {
        let text = message.isEmpty ? "error code \(code)" : message
        let isOpenCV = code == Int32(DC_ERR_OPENCV) || code == Int32(DC_ERR_STD) || code == Int32(DC_ERR_UNKNOWN)
        switch self {
        case .operation:
            return .openCV(operation: operation, message: text)
        case let .file(path):
            if code == Int32(DC_ERR_NOT_FOUND) || code == Int32(DC_ERR_IO) { return .io(path: path, reason: text) }
            return .format(path: path, reason: isOpenCV ? "OpenCV \(operation) failed: \(text)" : text)
        case let .content(path):
            return .format(path: path, reason: isOpenCV ? "OpenCV \(operation) failed: \(text)" : text)
        }
    }
}

/// Calls into the C shim and turns a non-zero status into a thrown `DualcamError`.
package enum Shim {
    /// Runs `body` with a fresh `dc_error`; when it returns a non-zero status,
    /// throws the error `context` makes of it (by default
    /// `DualcamError.openCV(operation:message:)` carrying the shim's message).
    package static func call(
        _ operation: String, _ context: ShimErrorContext = .operation,
        _ body: (UnsafeMutablePointer<dc_error>) -> Int32
    ) throws {
        var failure = dc_error()
        let status = body(&failure)
        guard status != Int32(DC_OK) else { return }
        let code = failure.code != 0 ? failure.code : status
        throw context.error(operation: operation, code: code, message: message(of: failure))
    }

    /// The NUL-terminated message of a `dc_error`.
    package static func message(of failure: dc_error) -> String {
        withUnsafeBytes(of: failure.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    /// Fetches a string through the shim's two-call buffer protocol: `fill` is
    /// called once with a NULL buffer to learn the length, then with a buffer.
    package static func string(
        _ operation: String, _ context: ShimErrorContext,
        _ fill: (UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>, UnsafeMutablePointer<dc_error>) -> Int32
    ) throws -> String {
        var length = 0
        try call(operation, context) { fill(nil, 0, &length, $0) }
        var buffer = [CChar](repeating: 0, count: length + 1)
        try buffer.withUnsafeMutableBufferPointer { chars in
            try call(operation, context) { fill(chars.baseAddress, chars.count, &length, $0) }
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
