import DualcamOpenCV
import DualcamGeometry

/// Copies between row-major arrays and OpenCV matrices for the fusion stages.
enum FloatMaps {
    static func mat(_ values: [Float], _ size: PixelSize) throws -> CVMat {
        try values.withUnsafeBytes { raw in
            try CVMat(rows: size.height, cols: size.width, channels: 1, depth: .float32,
                      data: raw.baseAddress, rowStride: size.width * 4)
        }
    }

    static func mat(bytes: [UInt8], channels: Int, _ size: PixelSize) throws -> CVMat {
        try bytes.withUnsafeBytes { raw in
            try CVMat(rows: size.height, cols: size.width, channels: channels, depth: .uint8,
                      data: raw.baseAddress, rowStride: size.width * channels)
        }
    }

    static func floats(_ mat: CVMat) -> [Float] {
        // Every element is copied: no zero fill first.
        let count = mat.rows * mat.cols
        guard count > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count) { dst, initialized in
            mat.withUnsafeBytes { src in
                let rowBytes = mat.cols * 4
                let base = UnsafeMutableRawPointer(dst.baseAddress!)
                for y in 0..<mat.rows {
                    (base + y * rowBytes).copyMemory(from: src.baseAddress! + y * mat.step, byteCount: rowBytes)
                }
            }
            initialized = count
        }
    }

    /// Per pixel, the Euclidean distance in pixels to the nearest non-zero
    /// pixel of `mask` (`CVEdgeAware.distanceToNonzero`).
    static func distanceToNonzero(_ mask: [UInt8], _ size: PixelSize) throws -> [Float] {
        floats(try CVEdgeAware.distanceToNonzero(try mat(bytes: mask, channels: 1, size)))
    }

    /// a + (b where finite, else 0), element by element, written straight
    /// into the result (no per-element append or bounds check).
    static func plusFinite(_ a: [Float], _ b: [Float]) -> [Float] {
        let n = a.count
        precondition(b.count == n, "plusFinite: the maps differ in size")
        guard n > 0 else { return [] }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                [Float](unsafeUninitializedCapacity: n) { out, initialized in
                    for p in 0..<n {
                        let r = b[p]
                        out[p] = a[p] + (r.isFinite ? r : 0)
                    }
                    initialized = n
                }
            }
        }
    }
}
