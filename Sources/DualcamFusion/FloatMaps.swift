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
        var out = [Float](repeating: 0, count: mat.rows * mat.cols)
        out.withUnsafeMutableBytes { dst in
            mat.withUnsafeBytes { src in
                let rowBytes = mat.cols * 4
                for y in 0..<mat.rows {
                    (dst.baseAddress! + y * rowBytes).copyMemory(from: src.baseAddress! + y * mat.step, byteCount: rowBytes)
                }
            }
        }
        return out
    }
}
