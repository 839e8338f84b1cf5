import Dispatch
import DualcamOpenCV
import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// The one-pass undistort + rectify resampling of one camera into the common
/// rectified camera: rectified pixel p samples the sensor at
/// K distort(R^T K_rect^-1 p) (R = rectFromCamera). Brown-Conrady models go
/// through OpenCV's initUndistortRectifyMap; radial lookup tables (which
/// OpenCV does not model) are evaluated here with `LensDistortion.distortPixel`.
/// The maps are prepared once in OpenCV's fixed-point form and applied with
/// cv::remap by cubic convolution: bilinear interpolation blurs by an amount
/// that depends on the sample's fraction (none at a whole pixel, most at a
/// half), which biases matches towards whole-pixel shifts; the cubic kernel's
/// blur is nearly independent of it (docs/real-data.md, "Both views rectified
/// to one footprint").
public struct RectificationTable: @unchecked Sendable {
    let table: CVRemapTable
    /// uint8, 255 where the sensor position lies inside the image. Within a
    /// pixel of the image's edge the cubic kernel's outer taps read the black
    /// outside with a small negative weight (at most 0.11 per axis); the mask
    /// is not shrunk for it, which would cost the filtered map its last rows
    /// and columns (docs/real-data.md).
    public let valid: CVMat
    public let size: PixelSize
    /// Gaussian sigma (camera px) applied to the image before resampling
    /// (`SamplingFootprint.cameraBlurs`); 0 = none.
    public let footprintBlur: Double
    /// Largest `footprintBlur` (camera px): sqrt(r^2 - 1) / sqrt(12) for a
    /// focal length ratio r of about 55.
    public static let maximumFootprintBlur = 16.0

    /// Throws when `footprintBlur` is not from 0 to `maximumFootprintBlur`.
    public init(model: CameraModel, rotation: Rotation, rectified: Intrinsics, footprintBlur: Double = 0) throws {
        guard footprintBlur >= 0, footprintBlur <= Self.maximumFootprintBlur else {
            throw DualcamError.invalidValue(
                name: "rectification footprint blur \(footprintBlur) px",
                reason: "must be 0 to \(Int(Self.maximumFootprintBlur)) px (a camera whose focal length is over 55x the other's is not a stereo pair)")
        }
        self.footprintBlur = footprintBlur
        size = rectified.referenceSize
        let (w, h) = (size.width, size.height)
        let maps: (x: CVMat, y: CVMat)
        switch model.distortion {
        case .none, .brownConrady:
            var coefficients: [Double] = []
            if case let .brownConrady(b) = model.distortion, !b.isIdentity {
                coefficients = b.isRational ? [b.k1, b.k2, b.p1, b.p2, b.k3, b.k4, b.k5, b.k6] : [b.k1, b.k2, b.p1, b.p2, b.k3]
            }
            maps = try CVStereo.rectifyMaps(k: model.intrinsics.matrix.rowMajor, distortion: coefficients,
                                            r: rotation.matrix.rowMajor, p: rectified.matrix.rowMajor, width: w, height: h)
        case .radialLookupTable:
            maps = try Self.genericMaps(model: model, rotation: rotation, rectified: rectified)
        }
        table = try CVRemapTable(mapX: maps.x, mapY: maps.y)
        let maxX = Float(model.size.width - 1), maxY = Float(model.size.height - 1)
        var mask = [UInt8](repeating: 0, count: w * h)
        maps.x.withUnsafeBytes { xs in
            maps.y.withUnsafeBytes { ys in
                for y in 0..<h {
                    let rx = UnsafeRawBufferPointer(rebasing: xs[(y * maps.x.step)...]).bindMemory(to: Float.self)
                    let ry = UnsafeRawBufferPointer(rebasing: ys[(y * maps.y.step)...]).bindMemory(to: Float.self)
                    for x in 0..<w {
                        let sx = rx[x], sy = ry[x]
                        if sx >= 0, sx <= maxX, sy >= 0, sy <= maxY { mask[y * w + x] = 255 }
                    }
                }
            }
        }
        valid = try CVMat(rows: h, cols: w, channels: 1, depth: .uint8, bytes: mask)
    }

    /// Resamples an 8-bit grey image of the camera's buffer size, blurred by
    /// `footprintBlur` first; black outside.
    public func apply(_ grey: CVMat) throws -> CVMat {
        let source = footprintBlur > 0 ? try CVImgproc.gaussianBlur(grey, sigma: footprintBlur) : grey
        return try table.apply(source, interpolation: .cubic, border: .zero)
    }

    /// Maps for distortion models OpenCV lacks, row bands in parallel.
    static func genericMaps(model: CameraModel, rotation: Rotation, rectified: Intrinsics) throws -> (x: CVMat, y: CVMat) {
        let (w, h) = (rectified.referenceSize.width, rectified.referenceSize.height)
        var xs = [Float](repeating: RemapTable.outsideCoordinate, count: w * h), ys = xs
        let back = rotation.inverse
        let k = model.intrinsics
        xs.withUnsafeMutableBufferPointer { xOut in
            ys.withUnsafeMutableBufferPointer { yOut in
                DispatchQueue.concurrentPerform(iterations: h) { y in
                    for x in 0..<w {
                        let n = rectified.normalized(fromPixel: Vector2(Double(x), Double(y)))
                        let ray = back * Vector3(n.x, n.y, 1)
                        guard ray.z > 0 else { continue }
                        let ideal = k.pixel(fromNormalized: Vector2(ray.x / ray.z, ray.y / ray.z))
                        guard let p = try? model.distortion.distortPixel(ideal, intrinsics: k) else { continue }
                        xOut[y * w + x] = Float(p.x)
                        yOut[y * w + x] = Float(p.y)
                    }
                }
            }
        }
        let mx = try xs.withUnsafeBytes {
            try CVMat(rows: h, cols: w, channels: 1, depth: .float32, data: $0.baseAddress, rowStride: w * 4)
        }
        let my = try ys.withUnsafeBytes {
            try CVMat(rows: h, cols: w, channels: 1, depth: .float32, data: $0.baseAddress, rowStride: w * 4)
        }
        return (mx, my)
    }
}

extension Image {
    /// 255 / 65535 = 1 / 257: uint16 levels to 8-bit ones.
    static let sixteenToEightBit = 1.0 / 257
    /// Float images whose values stay at or below this are in [0, 1] (with
    /// headroom for overshoot) and are scaled by 255; others are 8-bit levels already.
    static let unitRangeTop: Float = 1.5

    /// 8-bit grey copy as an OpenCV matrix (uint16 scaled by 1/257, float by 255 when in [0, 1]).
    func greyCVMat() throws -> CVMat {
        try ImageOps.grayCVMat(eightBit())
    }

    /// 8-bit copy (uint16 scaled by 1/257, float by 255 when its values lie in [0, 1]).
    func eightBit() throws -> Image {
        switch element {
        case .uint8: return self
        case .uint16: return converted(to: .uint8, scale: Self.sixteenToEightBit)
        default:
            let values = try pixels(as: Float.self)
            let top = values.lazy.filter(\.isFinite).max() ?? 0
            return converted(to: .uint8, scale: top <= Self.unitRangeTop ? 255 : 1)
        }
    }
}
