import DualcamOpenCV
import DualcamGeometry

/// The plain-OpenCV yardstick for fusion: normalized guided filtering of the
/// rasterized samples, z = GF(m z) / GF(m) with m the sample mask and the
/// colour image as guide (cv::ximgproc::guidedFilter), no stereo, no
/// outlier handling. Used by `dualcam bench fuse` as the reference job.
public enum GuidedFilterFill {
    /// The yardstick's window radius (pixels; a 17x17 window) and
    /// regularization (8-bit levels squared: colour steps below about
    /// sqrt(eps) = 10 levels count as texture, not edges).
    public static let defaultRadius = 8, defaultEps = 100.0
    /// Where the mask's filtered weight is at most this, no sample reaches: NaN.
    static let minimumWeight: Float = 1e-3

    public static func fill(size: PixelSize, guideRGB: [UInt8], samples: [MetricSample], radius: Int = defaultRadius,
                            eps: Double = defaultEps) throws -> [Float] {
        let n = size.width * size.height
        var value = [Float](repeating: 0, count: n), mask = [Float](repeating: 0, count: n)
        for s in samples {
            let x = Int(min(Double(size.width - 1), max(0, s.x.rounded()))), y = Int(min(Double(size.height - 1), max(0, s.y.rounded())))
            value[y * size.width + x] = Float(s.depthMetres)
            mask[y * size.width + x] = 1
        }
        let guide = try FloatMaps.mat(bytes: guideRGB, channels: 3, size)
        let numerator = FloatMaps.floats(try CVEdgeAware.guidedFilter(guide: guide, values: try FloatMaps.mat(value, size),
                                                                       radius: radius, eps: eps))
        let denominator = FloatMaps.floats(try CVEdgeAware.guidedFilter(guide: guide, values: try FloatMaps.mat(mask, size),
                                                                         radius: radius, eps: eps))
        return (0..<n).map { denominator[$0] > minimumWeight ? numerator[$0] / denominator[$0] : .nan }
    }
}
