import DualcamOpenCV
import DualcamSupport

/// Copies between `Image` (RGB / RGBA) and `CVMat` (OpenCV's BGR / BGRA).
/// Both directions copy the pixels, so the two never share memory; the
/// `CVMat` frees its OpenCV matrix when released.
extension Image {
    /// Copies an OpenCV matrix of uint8, uint16, float16 or float32 values with
    /// 1, 3 or 4 channels, converting BGR(A) to RGB(A).
    public init(_ mat: CVMat) throws {
        self = try Image(keepingChannelOrder: mat).swappingRedAndBlue()
    }

    /// As `init(_:)` but keeps the channels in the matrix's order (no BGR ->
    /// RGB swap): for results of operations that treat channels alike
    /// (resampling), fed by `makeCVMatKeepingChannelOrder()`.
    init(keepingChannelOrder mat: CVMat) throws {
        let element: PixelElement
        switch mat.depth {
        case .uint8: element = .uint8
        case .uint16: element = .uint16
        case .float16: element = .float16
        case .float32: element = .float32
        default:
            throw DualcamError.invalidValue(
                name: "image", reason: "\(mat.depth) pixels are not supported (expected uint8, uint16, float16 or float32)")
        }
        self = try Image(width: mat.cols, height: mat.rows, channels: mat.channels,
                         element: element, bytes: mat.packedBytes())
    }

    /// Copies the image into a new OpenCV matrix, converting RGB(A) to BGR(A).
    public func makeCVMat() throws -> CVMat {
        return try CVMat(rows: height, cols: width, channels: channels, depth: element.cvDepth,
                         bytes: swappingRedAndBlue().bytes)
    }

    /// As `makeCVMat()` but keeps the channels in the image's order (no RGB ->
    /// BGR swap), copying the bytes once: for operations that treat channels
    /// alike, whose result goes back through `init(keepingChannelOrder:)`.
    func makeCVMatKeepingChannelOrder() throws -> CVMat {
        return try withUnsafeBytes { raw in
            try CVMat(rows: height, cols: width, channels: channels, depth: element.cvDepth,
                      data: raw.baseAddress, rowStride: width * channels * element.byteCount)
        }
    }
}

extension PixelElement {
    /// The OpenCV matrix depth holding this element.
    var cvDepth: CVMat.Depth {
        switch self {
        case .uint8: return .uint8
        case .uint16: return .uint16
        case .float16: return .float16
        case .float32: return .float32
        }
    }
}
