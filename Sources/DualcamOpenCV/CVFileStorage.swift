import COpenCVShim
import DualcamSupport
import Foundation

/// An OpenCV FileStorage document (YAML, XML or JSON) as written by OpenCV's
/// calibration samples: top-level keys holding matrices (`M1`, `D1`, `R`, `T`,
/// `camera_matrix`, ...), numbers (`image_width`) and strings.
///
/// Matrices are exchanged as row-major `[Double]`; any numeric depth stored in
/// the file is converted to double, and doubles are written with 17
/// significant digits, so a write/read round trip is exact (except that
/// OpenCV writes -0.0 as 0; infinities and NaN survive in YAML). Errors about a
/// file name its path: a missing key is `.format(path:reason: "missing key 'M1'")`.
/// The handle is freed on deinit (an unreleased writer is flushed then, without
/// error reporting: call `release()` to learn whether the write succeeded).
public final class CVFileStorage {
    public enum Mode: Sendable { case read, write }

    /// The syntax of an in-memory document.
    public enum Format: Sendable {
        case yaml, xml, json
        var code: Int32 {
            switch self {
            case .yaml: return Int32(DC_FS_FORMAT_YAML)
            case .xml: return Int32(DC_FS_FORMAT_XML)
            case .json: return Int32(DC_FS_FORMAT_JSON)
            }
        }
    }

    /// A matrix read from a document: `values` are row-major, `rows * cols` long.
    public struct Matrix: Equatable, Sendable {
        public var rows: Int
        public var cols: Int
        public var values: [Double]
        public init(rows: Int, cols: Int, values: [Double]) {
            self.rows = rows
            self.cols = cols
            self.values = values
        }
    }

    private let handle: OpaquePointer
    /// The path errors are reported against (nil for in-memory documents).
    public let path: String?
    public let mode: Mode

    private var context: ShimErrorContext { path.map { .content($0) } ?? .operation }

    /// Opens a file. For `.read` the syntax is detected from the content. For
    /// `.write` the extension picks it (.yml/.yaml, .xml, .json, each optionally
    /// followed by .gz); the file is created or truncated immediately.
    public convenience init(path: String, mode: Mode) throws {
        try self.init(path: path, mode: mode, reportingAs: path)
    }

    /// Opens `path` but names `reportedPath` in errors (used for atomic writes
    /// through a temporary file).
    package init(path: String, mode: Mode, reportingAs reportedPath: String) throws {
        var handle: OpaquePointer?
        let code = Int32(mode == .read ? DC_FS_READ : DC_FS_WRITE)
        try Shim.call("FileStorage open", .file(reportedPath)) { dc_fs_open(path, code, &handle, $0) }
        self.handle = handle!
        self.path = reportedPath
        self.mode = mode
    }

    /// Parses a document held in memory.
    public init(text: String) throws {
        var handle: OpaquePointer?
        try Shim.call("FileStorage parse") {
            dc_fs_open_memory_read(text, text.utf8.count, &handle, $0)
        }
        self.handle = handle!
        self.path = nil
        self.mode = .read
    }

    /// Starts an in-memory document; finish it with `releaseToString()`.
    public init(writingIn format: Format) throws {
        var handle: OpaquePointer?
        try Shim.call("FileStorage open") { dc_fs_open_memory_write(format.code, &handle, $0) }
        self.handle = handle!
        self.path = nil
        self.mode = .write
    }

    deinit { dc_fs_free(handle) }

    /// Writes a document atomically: `body` fills a storage opened on a
    /// temporary file next to `url` (same extension), which is released and
    /// renamed to `url` only if everything succeeded.
    public static func write(to url: URL, _ body: (CVFileStorage) throws -> Void) throws {
        try AtomicFile.write(to: url) { temporary in
            let storage = try CVFileStorage(path: temporary.path, mode: .write, reportingAs: url.path)
            try body(storage)
            try storage.release()
        }
    }

    // MARK: Reading

    /// Whether `key` exists at the top level.
    public func hasKey(_ key: String) throws -> Bool {
        var present: Int32 = 0
        try Shim.call("FileStorage read", context) { dc_fs_has_key(handle, key, &present, $0) }
        return present != 0
    }

    /// The top-level keys in document order.
    public func keys() throws -> [String] {
        let joined = try Shim.string("FileStorage read", context) { buffer, capacity, length, error in
            dc_fs_list_top_keys(handle, buffer, capacity, length, error)
        }
        return joined.isEmpty ? [] : joined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A single-channel matrix (or a flat sequence of numbers, read as 1 x n).
    public func readMatrix(_ key: String) throws -> Matrix {
        var rows: Int32 = 0, cols: Int32 = 0
        try Shim.call("FileStorage read", context) { dc_fs_read_matrix(handle, key, &rows, &cols, nil, 0, $0) }
        let count = Int(rows) * Int(cols)
        var values = [Double](repeating: 0, count: count)
        if count > 0 {
            try values.withUnsafeMutableBufferPointer { buffer in
                try Shim.call("FileStorage read", context) {
                    dc_fs_read_matrix(handle, key, &rows, &cols, buffer.baseAddress, buffer.count, $0)
                }
            }
        }
        return Matrix(rows: Int(rows), cols: Int(cols), values: values)
    }

    /// A number (integers are accepted and converted).
    public func readReal(_ key: String) throws -> Double {
        var value = 0.0
        try Shim.call("FileStorage read", context) { dc_fs_read_real(handle, key, &value, $0) }
        return value
    }

    /// An integer (a real value is an error).
    public func readInt(_ key: String) throws -> Int {
        var value: Int64 = 0
        try Shim.call("FileStorage read", context) { dc_fs_read_int(handle, key, &value, $0) }
        return Int(value)
    }

    /// A string.
    public func readString(_ key: String) throws -> String {
        try Shim.string("FileStorage read", context) { buffer, capacity, length, error in
            dc_fs_read_string(handle, key, buffer, capacity, length, error)
        }
    }

    // MARK: Writing

    /// Writes a `rows` x `cols` matrix of doubles given in row-major order.
    public func write(_ key: String, rows: Int, cols: Int, values: [Double]) throws {
        guard rows > 0, cols > 0, let r = Int32(exactly: rows), let c = Int32(exactly: cols),
              rows.multipliedReportingOverflow(by: cols) == (values.count, false) else {
            throw context.error(operation: "FileStorage write", code: Int32(DC_ERR_ARGUMENT),
                                message: "matrix '\(key)' is \(rows)x\(cols) but \(values.count) values were given")
        }
        try Shim.call("FileStorage write", context) { dc_fs_write_matrix(handle, key, r, c, values, $0) }
    }

    /// Writes a matrix read earlier (or built by hand).
    public func write(_ key: String, matrix: Matrix) throws {
        try write(key, rows: matrix.rows, cols: matrix.cols, values: matrix.values)
    }

    public func write(_ key: String, real value: Double) throws {
        try Shim.call("FileStorage write", context) { dc_fs_write_real(handle, key, value, $0) }
    }

    /// Writes an integer; FileStorage stores 32-bit integers only.
    public func write(_ key: String, int value: Int) throws {
        guard let narrow = Int32(exactly: value) else {
            throw context.error(operation: "FileStorage write", code: Int32(DC_ERR_ARGUMENT),
                                message: "integer '\(key)' = \(value) does not fit in 32 bits")
        }
        try Shim.call("FileStorage write", context) { dc_fs_write_int(handle, key, narrow, $0) }
    }

    public func write(_ key: String, string value: String) throws {
        try Shim.call("FileStorage write", context) { dc_fs_write_string(handle, key, value, $0) }
    }

    // MARK: Finishing

    /// Finishes the document; for a file being written, flushes it and reports
    /// whether it was written. Only the first call is valid.
    public func release() throws {
        try Shim.call("FileStorage release", path.map { .file($0) } ?? .operation) { dc_fs_release(handle, $0) }
    }

    /// Finishes an in-memory document started with `init(writingIn:)` and returns its text.
    public func releaseToString() throws -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        try Shim.call("FileStorage release") { dc_fs_release_to_string(handle, &buffer, &length, $0) }
        defer { dc_free_buffer(buffer) }
        guard let buffer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    }
}
