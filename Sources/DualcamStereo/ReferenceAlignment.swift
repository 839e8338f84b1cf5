import DualcamOpenCV
import DualcamGeometry
import DualcamSupport

/// Where each pixel of the depth output (the reference camera's own geometry
/// at the output size) lies in the rectified reference image.
///
/// The reference camera and its rectified counterpart share the optical centre,
/// so the map has no parallax: output pixel q (intrinsics K_out = the reference
/// K scaled or resampled to the output size (`OutputGrid`), same distortion) goes to
/// p = K_rect R undistort(K_out^-1 q) (cv::undistortPoints). Each output pixel
/// takes the value of the nearest rectified pixel r = round(p) (values are
/// never blended across depth edges). The depth along the reference axis
/// follows from the rectified one: with ray_rect = K_rect^-1 [r 1] and
/// ray_ref = R^T ray_rect, Z_ref = Z_rect ray_ref.z (`depthFactor`).
public struct ReferenceAlignment: Sendable {
    /// The rectified position of a pixel whose ray points behind the
    /// rectified camera: far outside the rectified image, so it is not covered.
    static let behindCamera = -1e9
    public let reference: FrameName
    /// The reference intrinsics at the output size.
    public let outputIntrinsics: Intrinsics
    public var size: PixelSize { outputIntrinsics.referenceSize }
    /// Row-major rectified pixel index (y * rectifiedWidth + x) per output pixel; -1 when
    /// outside the rectified image or outside the overlap (`covered` false).
    public let rectifiedIndex: [Int32]
    /// Pixels of the rectified image (`rectifiedIndex` stays below this).
    let rectifiedPixelCount: Int
    /// Z_ref / Z_rect per output pixel.
    public let depthFactor: [Float]
    /// Output pixels inside the overlap of both cameras.
    public var coveredCount: Int { rectifiedIndex.lazy.filter { $0 >= 0 }.count }
    /// Bounding box of the covered output pixels (nil when none).
    public let coveredRegion: PixelRect?

    /// `otherValid`: the other camera's rectified data mask (uint8, non-zero =
    /// data); a pixel counts as covered when the other camera has data there.
    public init(rectification: StereoRectification, reference: FrameName, outputSize: PixelSize,
                grid: OutputGrid = .scaled, otherValid: CVMat) throws {
        self.reference = reference
        let model = try rectification.model(of: reference)
        let k = grid == .scaled ? try model.intrinsics.scaled(to: outputSize) : try model.intrinsics.resampled(to: outputSize)
        outputIntrinsics = k
        let rotation = try rectification.rotation(of: reference)
        let rect = rectification.intrinsics
        let (w, h) = (outputSize.width, outputSize.height)
        var grid = [Double](repeating: 0, count: 2 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                grid[2 * (y * w + x)] = Double(x)
                grid[2 * (y * w + x) + 1] = Double(y)
            }
        }
        var positions: [Double]
        switch model.distortion {
        case .none, .brownConrady:
            var coefficients: [Double] = []
            if case let .brownConrady(b) = model.distortion, !b.isIdentity {
                coefficients = b.isRational ? [b.k1, b.k2, b.p1, b.p2, b.k3, b.k4, b.k5, b.k6] : [b.k1, b.k2, b.p1, b.p2, b.k3]
            }
            positions = try CVStereo.undistortRectifyPoints(grid, k: k.matrix.rowMajor, distortion: coefficients,
                                                            r: rotation.matrix.rowMajor, p: rect.matrix.rowMajor)
        case .radialLookupTable:
            positions = grid
            let h3 = rect.matrix * rotation.matrix
            for i in 0..<(w * h) {
                let ideal = try model.distortion.undistortPixel(Vector2(grid[2 * i], grid[2 * i + 1]), intrinsics: k)
                let n = k.normalized(fromPixel: ideal)
                let p = h3 * Vector3(n.x, n.y, 1)
                positions[2 * i] = p.z > 0 ? p.x / p.z : Self.behindCamera
                positions[2 * i + 1] = p.z > 0 ? p.y / p.z : Self.behindCamera
            }
        }
        let (rw, rh) = (rect.referenceSize.width, rect.referenceSize.height)
        let back = rotation.inverse.matrix.row2
        let othValid = otherValid.packedBytes()
        var index = [Int32](repeating: -1, count: w * h)
        var factor = [Float](repeating: .nan, count: w * h)
        var lo = (x: Int.max, y: Int.max), hi = (x: -1, y: -1)
        for i in 0..<(w * h) {
            let px = positions[2 * i], py = positions[2 * i + 1]
            guard px.isFinite, py.isFinite else { continue }
            let rx = Int((px + 0.5).rounded(.down)), ry = Int((py + 0.5).rounded(.down))
            guard rx >= 0, ry >= 0, rx < rw, ry < rh else { continue }
            let r = ry * rw + rx
            // The reference's own pixels always have data (the nearest rectified pixel of a
            // border pixel may sample a fraction outside the sensor); the other camera must see it.
            guard othValid[r] != 0 else { continue }
            index[i] = Int32(r)
            let n = rect.normalized(fromPixel: Vector2(Double(rx), Double(ry)))
            factor[i] = Float(back.dot(Vector3(n.x, n.y, 1)))
            let (x, y) = (i % w, i / w)
            lo = (min(lo.x, x), min(lo.y, y))
            hi = (max(hi.x, x), max(hi.y, y))
        }
        rectifiedIndex = index
        rectifiedPixelCount = rw * rh
        depthFactor = factor
        coveredRegion = hi.x < 0 ? nil : PixelRect(x: lo.x, y: lo.y, width: hi.x - lo.x + 1, height: hi.y - lo.y + 1)
    }

    /// uint8 mask over the rectified image: 255 at the pixels the output samples.
    public func sampledMask(rectifiedSize: PixelSize) throws -> CVMat {
        var mask = [UInt8](repeating: 0, count: rectifiedSize.width * rectifiedSize.height)
        for r in rectifiedIndex where r >= 0 { mask[Int(r)] = 255 }
        return try CVMat(rows: rectifiedSize.height, cols: rectifiedSize.width, channels: 1, depth: .uint8, bytes: mask)
    }

    /// Samples a rectified float32 map at the output pixels (NaN where not covered).
    public func sample(_ map: CVMat) -> [Float] {
        // A continuous map is read in place (no copy of the whole rectified map).
        guard map.step == map.rowByteCount else {
            return map.floats().withUnsafeBufferPointer { sample($0) }
        }
        return map.withUnsafeBytes { sample($0.bindMemory(to: Float.self)) }
    }

    /// `sample` of the row-major rectified values `values`, over raw buffers
    /// (no per-element bounds checks and appends of a map over the indices).
    func sample(_ values: UnsafeBufferPointer<Float>) -> [Float] {
        rectifiedIndex.withUnsafeBufferPointer { index in
            precondition(values.count >= rectifiedPixelCount, "a rectified map of the rectified size")
            return [Float](unsafeUninitializedCapacity: index.count) { out, initialized in
                for i in 0..<index.count { out[i] = index[i] >= 0 ? values[Int(index[i])] : .nan }
                initialized = index.count
            }
        }
    }
}

extension CVMat {
    /// The values of a float32 1-channel matrix, row-major (a continuous
    /// matrix is copied once, from its own memory).
    func floats() -> [Float] {
        guard step == rowByteCount else { return packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        return withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Whether each element of an 8-bit 1-channel matrix is non-zero, row-major.
    func nonzero() -> [Bool] {
        precondition(depth == .uint8 && channels == 1, "an 8-bit 1-channel mask")
        guard step == rowByteCount else { return packedBytes().map { $0 != 0 } }
        return withUnsafeBytes { $0.map { $0 != 0 } }
    }

    /// A float32 1-channel matrix from row-major values.
    static func floats(_ values: [Float], width: Int, height: Int) throws -> CVMat {
        try values.withUnsafeBytes {
            try CVMat(rows: height, cols: width, channels: 1, depth: .float32, data: $0.baseAddress, rowStride: width * 4)
        }
    }
}
