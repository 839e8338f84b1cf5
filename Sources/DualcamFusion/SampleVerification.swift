import DualcamGeometry

/// Local consistency of sparse samples (hand-written: a neighbour count over
/// a bucket grid; no library offers this test).
///
/// Inverse depth is linear in pixel coordinates on any plane: for a plane
/// n.X = h (distance h from the camera centre), 1/z = n.K^-1 p / h, so its
/// gradient is at most 1 / (f h) per pixel. Sample j *supports* sample i
/// when they lie within `radius` pixels and
///   |1/z_j - 1/z_i| <= relativeTolerance / z_i + distance_ij / (f minimumPlaneDistance),
/// i.e. they could lie on one surface at least `minimumPlaneDistance` from the
/// camera. A sample with at least `verifiedSupport` supporters is verified; a
/// sample with neighbours but no supporter is an outlier (a LiDAR multipath or
/// mixed-pixel return); anything else stays unverified.
public struct SampleVerifier: Equatable, Sendable {
    public var radius = 4.0
    public var relativeTolerance = 0.02
    public var minimumPlaneDistance = 1.0
    public var verifiedSupport = 2
    /// Focal length in output pixels.
    public var focalPixels: Double

    public init(focalPixels: Double) { self.focalPixels = focalPixels }

    /// One verdict per sample; samples with `excluded[i]` are outliers already
    /// and neither support nor are supported.
    public func verify(_ samples: [MetricSample], size: PixelSize, excluded: [Bool]? = nil) -> [SampleVerdict] {
        let cell = max(1, Int(radius.rounded(.up)))
        let columns = size.width / cell + 1, rows = size.height / cell + 1
        var buckets = [[Int]](repeating: [], count: columns * rows)
        for (i, s) in samples.enumerated() where !(excluded?[i] ?? false) {
            let bx = min(columns - 1, max(0, Int(s.x) / cell)), by = min(rows - 1, max(0, Int(s.y) / cell))
            buckets[by * columns + bx].append(i)
        }
        let slope = 1 / (focalPixels * minimumPlaneDistance)
        let r2 = radius * radius
        var verdicts = [SampleVerdict](repeating: .unverified, count: samples.count)
        for (i, s) in samples.enumerated() {
            if excluded?[i] ?? false { verdicts[i] = .outlier; continue }
            let v = 1 / s.depthMetres
            let bx = min(columns - 1, max(0, Int(s.x) / cell)), by = min(rows - 1, max(0, Int(s.y) / cell))
            var neighbours = 0, support = 0
            for ny in max(0, by - 1)...min(rows - 1, by + 1) {
                for nx in max(0, bx - 1)...min(columns - 1, bx + 1) {
                    for j in buckets[ny * columns + nx] where j != i {
                        let o = samples[j]
                        let dx = o.x - s.x, dy = o.y - s.y
                        let d2 = dx * dx + dy * dy
                        guard d2 <= r2 else { continue }
                        neighbours += 1
                        if abs(1 / o.depthMetres - v) <= relativeTolerance * v + d2.squareRoot() * slope { support += 1 }
                    }
                }
            }
            if support >= verifiedSupport {
                verdicts[i] = .verified
            } else if neighbours >= 2 && support == 0 {
                verdicts[i] = .outlier
            }
        }
        return verdicts
    }
}
