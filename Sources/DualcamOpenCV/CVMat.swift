import COpenCVShim
import DualcamSupport

/// An OpenCV matrix (cv::Mat) owned by Swift: created by copying caller memory
/// or returned by a codec, freed when the object is deallocated.
///
/// Channels are interleaved in OpenCV's order, which for colour images is BGR
/// or BGRA. The size and element type never change after creation.
public final class CVMat {
    /// Element types, with raw values equal to OpenCV's depth codes.
    public enum Depth: Int32, CaseIterable, Sendable, CustomStringConvertible {
        case uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, int32 = 4, float32 = 5, float64 = 6, float16 = 7

        /// Bytes per channel value.
        public var byteCount: Int {
            switch self {
            case .uint8, .int8: return 1
            case .uint16, .int16, .float16: return 2
            case .int32, .float32: return 4
            case .float64: return 8
            }
        }

        public var description: String {
            switch self {
            case .uint8: return "uint8"
            case .int8: return "int8"
            case .uint16: return "uint16"
            case .int16: return "int16"
            case .int32: return "int32"
            case .float32: return "float32"
            case .float64: return "float64"
            case .float16: return "float16"
            }
        }
    }

    package let handle: OpaquePointer
    /// Number of rows (image height).
    public let rows: Int
    /// Number of columns (image width).
    public let cols: Int
    /// Interleaved channels per element.
    public let channels: Int
    public let depth: Depth
    /// Bytes between the starts of consecutive rows (>= cols * channels * depth.byteCount).
    public let step: Int
    private let data: UnsafeMutableRawPointer

    /// Takes ownership of a `dc_mat` returned by the shim; frees it if it cannot be described.
    package init(adopting handle: OpaquePointer) throws {
        var info = dc_mat_info()
        do {
            try Shim.call("Mat info") { dc_mat_get_info(handle, &info, $0) }
        } catch {
            dc_mat_free(handle)
            throw error
        }
        guard let depth = Depth(rawValue: info.depth), let data = info.data else {
            dc_mat_free(handle)
            throw DualcamError.openCV(operation: "Mat info", message: "unsupported depth code \(info.depth)")
        }
        self.handle = handle
        self.rows = Int(info.rows)
        self.cols = Int(info.cols)
        self.channels = Int(info.channels)
        self.depth = depth
        self.step = info.step
        self.data = data
    }

    /// Copies a `rows` x `cols` matrix from `data`, whose rows start `rowStride`
    /// bytes apart; a nil `data` makes a zero-filled matrix.
    public convenience init(
        rows: Int, cols: Int, channels: Int, depth: Depth, data: UnsafeRawPointer?, rowStride: Int
    ) throws {
        try self.init(adopting: Self.create(rows: rows, cols: cols, channels: channels, depth: depth,
                                            data: data, rowStride: rowStride))
    }

    /// A zero-filled matrix.
    public convenience init(rows: Int, cols: Int, channels: Int, depth: Depth) throws {
        try self.init(rows: rows, cols: cols, channels: channels, depth: depth, data: nil, rowStride: 0)
    }

    /// Copies packed rows (no padding) from `bytes`, which must hold exactly
    /// rows * cols * channels * depth.byteCount bytes.
    public convenience init(rows: Int, cols: Int, channels: Int, depth: Depth, bytes: [UInt8]) throws {
        let rowBytes = cols.multipliedReportingOverflow(by: channels.multipliedReportingOverflow(by: depth.byteCount).partialValue)
        let total = rowBytes.partialValue.multipliedReportingOverflow(by: rows)
        guard rows > 0, cols > 0, channels > 0, !rowBytes.overflow, !total.overflow,
              total.partialValue == bytes.count else {
            throw DualcamError.openCV(
                operation: "Mat create",
                message: "\(bytes.count) bytes do not fill a \(rows)x\(cols)x\(channels) \(depth) matrix")
        }
        let handle = try bytes.withUnsafeBytes { raw in
            try Self.create(rows: rows, cols: cols, channels: channels, depth: depth,
                            data: raw.baseAddress, rowStride: rowBytes.partialValue)
        }
        try self.init(adopting: handle)
    }

    private static func create(
        rows: Int, cols: Int, channels: Int, depth: Depth, data: UnsafeRawPointer?, rowStride: Int
    ) throws -> OpaquePointer {
        guard let rows32 = Int32(exactly: rows), let cols32 = Int32(exactly: cols),
              let channels32 = Int32(exactly: channels), rowStride >= 0 else {
            throw DualcamError.openCV(
                operation: "Mat create",
                message: "invalid size \(rows)x\(cols)x\(channels) or row stride \(rowStride)")
        }
        var handle: OpaquePointer?
        try Shim.call("Mat create") {
            dc_mat_create(rows32, cols32, channels32, depth.rawValue, data, rowStride, &handle, $0)
        }
        return handle!
    }

    deinit { dc_mat_free(handle) }

    /// Bytes per element (all channels).
    public var elementSize: Int { channels * depth.byteCount }
    /// Bytes of one row without padding.
    public var rowByteCount: Int { cols * elementSize }

    /// The matrix memory from the first byte of row 0 to the last byte of the
    /// last row (rows are `step` bytes apart).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: data, count: (rows - 1) * step + rowByteCount))
    }

    /// Mutable access to the same memory as `withUnsafeBytes`.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: data, count: (rows - 1) * step + rowByteCount))
    }

    /// A copy of the pixels as packed rows (no padding), row-major.
    public func packedBytes() -> [UInt8] {
        let rowBytes = rowByteCount
        return [UInt8](unsafeUninitializedCapacity: rows * rowBytes) { buffer, count in
            guard let destination = buffer.baseAddress else { count = 0; return }
            for row in 0..<rows {
                UnsafeMutableRawPointer(destination + row * rowBytes)
                    .copyMemory(from: UnsafeRawPointer(data + row * step), byteCount: rowBytes)
            }
            count = rows * rowBytes
        }
    }
}
