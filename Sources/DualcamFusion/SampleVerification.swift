import DualcamGeometry
import Foundation

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
///
/// The pairwise test allows for steep surfaces and so is loose far away; a
/// verified sample must also agree with the plane (linear in inverse depth)
/// fitted by least squares to the non-outlier neighbours within
/// `planeRadius` (at least 4, the worst 25 % trimmed once), within
/// max(3 noise v^2, planeTolerance v) for v = 1/z; otherwise it is only
/// unverified (used for the fill, never for high confidence).
public struct SampleVerifier: Equatable, Sendable {
    /// Neighbour radius, pixels: on the 320x240 grid fed from 640x480
    /// samples (8 % of the pixels) its disc holds about four samples.
    public var radius = 4.0
    /// Relative room for the samples' noise between two of one surface.
    public var relativeTolerance = 0.02
    /// The slope allowance assumes surfaces at least this far (metres); a
    /// smaller value allows steeper slopes and lets more pairs agree.
    public var minimumPlaneDistance = 1.0
    /// Supporters needed to verify: one neighbour may agree by chance.
    public var verifiedSupport = 2
    /// The plane test's radius, pixels: larger than `radius`, so that a
    /// trimmed plane has enough points.
    public var planeRadius = 6.0
    /// The plane test's relative tolerance (`DepthFusion.Options.highTolerance`'s scale).
    public var planeTolerance = 0.01
    /// The samples' depth noise sigma, metres.
    public var noiseMetres = 0.01
    /// Focal length in output pixels.
    public var focalPixels: Double

    public init(focalPixels: Double) { self.focalPixels = focalPixels }

    /// One verdict per sample; samples with `excluded[i]` are outliers already
    /// and neither support nor are supported.
    public func verify(_ samples: [MetricSample], size: PixelSize, excluded: [Bool]? = nil) -> [SampleVerdict] {
        verifyWithResiduals(samples, size: size, excluded: excluded).verdicts
    }

    /// `verify`, and per sample the plane check's residual in metres,
    /// |1/p - z| with p the plane's value (NaN where no plane was checked:
    /// the samples the neighbour test did not verify).
    public func verifyWithResiduals(_ samples: [MetricSample], size: PixelSize, excluded: [Bool]? = nil)
        -> (verdicts: [SampleVerdict], residualMetres: [Double]) {
        // Coordinates and inverse depths as flat arrays, read through unsafe
        // buffers in the neighbour loops below (per neighbour, array accesses
        // cost bounds checks and reference counting: most of the verifier's time).
        let xs = samples.map(\.x), ys = samples.map(\.y), inverse = samples.map { 1 / $0.depthMetres }
        let verdicts = neighbourTest(samples, xs: xs, ys: ys, inverse: inverse, size: size, excluded: excluded)
        return planeTest(samples, xs: xs, ys: ys, inverse: inverse, verdicts: verdicts, size: size)
    }

    /// The neighbour test: verified with at least `verifiedSupport`
    /// supporters, an outlier with neighbours but no supporter (or
    /// `excluded`), unverified otherwise.
    func neighbourTest(_ samples: [MetricSample], xs: [Double], ys: [Double], inverse: [Double], size: PixelSize,
                       excluded: [Bool]?) -> [SampleVerdict] {
        let n = samples.count
        let cell = max(1, Int(radius.rounded(.up)))
        let columns = size.width / cell + 1, rows = size.height / cell + 1
        let buckets = SampleGrid(samples, cell: cell, columns: columns, rows: rows) { !(excluded?[$0] ?? false) }
        let slope = 1 / (focalPixels * minimumPlaneDistance)
        let r2 = radius * radius
        var verdicts = [SampleVerdict](repeating: .unverified, count: n)
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        inverse.withUnsafeBufferPointer { inverse in
        // Samples are judged independently: two halves on two threads.
        verdicts.withUnsafeMutableBufferPointer { verdicts in
        buckets.withBuffers { start, order in
        Concurrently.inHalves(n) { range in
        for i in range {
            if excluded?[i] ?? false { verdicts[i] = .outlier; continue }
            let sx = xs[i], sy = ys[i], v = inverse[i]
            let bx = min(columns - 1, max(0, Int(sx) / cell)), by = min(rows - 1, max(0, Int(sy) / cell))
            var neighbours = 0, support = 0
            for ny in max(0, by - 1)...min(rows - 1, by + 1) {
                for nx in max(0, bx - 1)...min(columns - 1, bx + 1) {
                    let b = ny * columns + nx
                    // Counted without branches (whether a neighbour is in
                    // reach is a coin flip; mispredicted, it was most of the time).
                    for m in start[b]..<start[b + 1] {
                        let j = order[m]
                        let dx = xs[j] - sx, dy = ys[j] - sy
                        let d2 = dx * dx + dy * dy
                        let inReach = (d2 <= r2 ? 1 : 0) & (j != i ? 1 : 0)
                        let agrees = abs(inverse[j] - v) <= relativeTolerance * v + d2.squareRoot() * slope ? 1 : 0
                        neighbours += inReach
                        support += inReach & agrees
                    }
                }
            }
            if support >= verifiedSupport {
                verdicts[i] = .verified
            } else if neighbours >= Self.outlierNeighbours && support == 0 {
                verdicts[i] = .outlier
            }
        }
        }
        }
        }
        }
        }
        }
        return verdicts
    }

    /// The plane test of the verified samples against the non-outliers
    /// around them: a verified sample off its neighbours' plane becomes
    /// unverified. Also the residuals in metres (NaN where no plane was checked).
    func planeTest(_ samples: [MetricSample], xs: [Double], ys: [Double], inverse: [Double], verdicts: [SampleVerdict],
                   size: PixelSize) -> (verdicts: [SampleVerdict], residualMetres: [Double]) {
        let n = samples.count
        let planeCell = max(1, Int(planeRadius.rounded(.up)))
        let pc = size.width / planeCell + 1, pr = size.height / planeCell + 1
        let planeBuckets = SampleGrid(samples, cell: planeCell, columns: pc, rows: pr) { verdicts[$0] != .outlier }
        let pr2 = planeRadius * planeRadius
        var checked = verdicts
        var residualMetres = [Double](repeating: .nan, count: n)
        residualMetres.withUnsafeMutableBufferPointer { residualMetres in
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        inverse.withUnsafeBufferPointer { inverse in
        checked.withUnsafeMutableBufferPointer { checked in
        planeBuckets.withBuffers { start, order in
        Concurrently.inHalves(n) { range in
        // Room for every member and one (a 3x3 block of cells holds fewer).
        let points = UnsafeMutableBufferPointer<(Double, Double, Double)>.allocate(capacity: order.count + 1)
        var scratch = PlaneScratch(capacity: max(1, order.count))
        defer {
            points.deallocate()
            scratch.deallocate()
        }
        for i in range where verdicts[i] == .verified {
            let sx = xs[i], sy = ys[i]
            let bx = min(pc - 1, max(0, Int(sx) / planeCell)), by = min(pr - 1, max(0, Int(sy) / planeCell))
            var count = 0
            for ny in max(0, by - 1)...min(pr - 1, by + 1) {
                for nx in max(0, bx - 1)...min(pc - 1, bx + 1) {
                    let b = ny * pc + nx
                    // Appended without branches: written always, kept when in reach.
                    for m in start[b]..<start[b + 1] {
                        let j = order[m]
                        let dx = xs[j] - sx, dy = ys[j] - sy
                        points[count] = (dx, dy, inverse[j])
                        count += (dx * dx + dy * dy <= pr2 ? 1 : 0) & (j != i ? 1 : 0)
                    }
                }
            }
            let v = inverse[i]
            let tolerance = max(Self.planeNoiseSigmas * noiseMetres * v * v, planeTolerance * v)
            guard let predicted = Self.planeValue(UnsafeBufferPointer(rebasing: points[0..<count]), scratch: &scratch) else {
                checked[i] = .unverified
                continue
            }
            if predicted > 0 { residualMetres[i] = abs(1 / predicted - 1 / v) }
            if abs(predicted - v) > tolerance { checked[i] = .unverified }
        }
        }
        }
        }
        }
        }
        }
        }
        return (checked, residualMetres)
    }

    /// A sample with at least this many neighbours and no supporter is an
    /// outlier: one disagreeing neighbour may itself be the outlier.
    static let outlierNeighbours = 2
    /// The plane test's tolerance allows this many sample noise sigmas.
    static let planeNoiseSigmas = 3.0
    /// A plane is fitted to at least this many points: one more than it
    /// has parameters, so that a point off the plane shows.
    static let minimumPlanePoints = 4
    /// The plane's normal equations are singular (points on a line) below
    /// this determinant relative to n sxx syy.
    static let planeConditioning = 1e-9
    /// Up to this many residuals are sorted by insertion: a few dozen
    /// values, where the standard library's sort costs more than the fits.
    static let insertionSortLimit = 48

    /// The value at (0, 0) of the least-squares plane a + b x + c y through
    /// `points` (x, y, value), refitted once without the worst quarter; nil
    /// with fewer than 4 points or a degenerate layout.
    static func planeValue(_ points: [(Double, Double, Double)]) -> Double? {
        var scratch = PlaneScratch(capacity: max(1, points.count))
        defer { scratch.deallocate() }
        return points.withUnsafeBufferPointer { planeValue($0, scratch: &scratch) }
    }

    /// Buffers for `planeValue`'s residuals, allocated once per thread (the
    /// verifier runs it for every sample), at least as long as the point lists.
    struct PlaneScratch {
        var residuals: UnsafeMutableBufferPointer<Double>
        var sorted: UnsafeMutableBufferPointer<Double>
        init(capacity: Int) {
            residuals = .allocate(capacity: capacity)
            sorted = .allocate(capacity: capacity)
        }
        func deallocate() {
            residuals.deallocate()
            sorted.deallocate()
        }
    }

    static func planeValue(_ points: UnsafeBufferPointer<(Double, Double, Double)>, scratch: inout PlaneScratch) -> Double? {
        guard points.count >= minimumPlanePoints else { return nil }
        let residuals = scratch.residuals
        // Normal equations [n sx sy; sx sxx sxy; sy sxy syy] [a b c] = [sv sxv syv]
        // over the points with residual <= cut, solved by Cramer's rule.
        func fit(cut: Double?) -> (Double, Double, Double)? {
            var sxx = 0.0, sxy = 0.0, syy = 0.0, sx = 0.0, sy = 0.0, n = 0.0, sv = 0.0, sxv = 0.0, syv = 0.0
            for k in 0..<points.count {
                let (x, y, v) = points[k]
                if let cut, residuals[k] > cut { continue }
                sxx += x * x; sxy += x * y; syy += y * y; sx += x; sy += y; n += 1
                sv += v; sxv += x * v; syv += y * v
            }
            guard n >= Double(minimumPlanePoints) || cut == nil else { return nil }
            func det(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                     _ g: Double, _ h: Double, _ i: Double) -> Double {
                a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
            }
            let d = det(n, sx, sy, sx, sxx, sxy, sy, sxy, syy)
            guard abs(d) > planeConditioning * max(1, n * sxx * syy) else { return nil }
            let a = det(sv, sx, sy, sxv, sxx, sxy, syv, sxy, syy) / d
            let b = det(n, sv, sy, sx, sxv, sxy, sy, syv, syy) / d
            let c = det(n, sx, sv, sx, sxx, sxv, sy, sxy, syv) / d
            return (a, b, c)
        }
        guard let first = fit(cut: nil) else { return nil }
        // Refit once without the worst quarter.
        for k in 0..<points.count {
            let (x, y, v) = points[k]
            residuals[k] = abs(v - (first.0 + first.1 * x + first.2 * y))
        }
        var sorted = UnsafeMutableBufferPointer(rebasing: scratch.sorted[0..<points.count])
        _ = sorted.initialize(from: UnsafeBufferPointer(rebasing: residuals[0..<points.count]))
        // Insertion sort for short lists (`insertionSortLimit`).
        if points.count <= insertionSortLimit {
            for k in 1..<points.count {
                let r = sorted[k]
                var m = k
                while m > 0 && sorted[m - 1] > r {
                    sorted[m] = sorted[m - 1]
                    m -= 1
                }
                sorted[m] = r
            }
        } else {
            sorted.sort()
        }
        let cut = sorted[max(0, (points.count * 3) / 4 - 1)]
        return fit(cut: cut)?.0 ?? first.0
    }
}

/// Sample indices bucketed by grid cell in one flat array (a counting sort:
/// no allocation per cell, which dominated the verifier's time).
struct SampleGrid {
    private var start: [Int]
    private var order: [Int]

    init(_ samples: [MetricSample], cell: Int, columns: Int, rows: Int, include: (Int) -> Bool) {
        func bucket(_ s: MetricSample) -> Int {
            min(rows - 1, max(0, Int(s.y) / cell)) * columns + min(columns - 1, max(0, Int(s.x) / cell))
        }
        start = [Int](repeating: 0, count: columns * rows + 1)
        var keys = [Int](repeating: -1, count: samples.count)
        for i in samples.indices where include(i) {
            keys[i] = bucket(samples[i])
            start[keys[i] + 1] += 1
        }
        for b in 0..<(columns * rows) { start[b + 1] += start[b] }
        var next = start
        order = [Int](repeating: 0, count: start[columns * rows])
        for i in samples.indices where keys[i] >= 0 {
            order[next[keys[i]]] = i
            next[keys[i]] += 1
        }
    }

    /// `start` (bucket b's members are order[start[b]..<start[b + 1]]) and
    /// `order` as unsafe buffers, for the verifier's and `LocalPlanes`' neighbour loops.
    func withBuffers<R>(_ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>) -> R) -> R {
        start.withUnsafeBufferPointer { start in order.withUnsafeBufferPointer { order in body(start, order) } }
    }
}

extension SampleVerifier {
    /// Samples within `radius` on average from which the radii grow with
    /// sparser samples (`adapted`).
    public static let expectedNeighbours = 4.0
    /// The adapted neighbour radius is at most this many times `radius`:
    /// farther apart, the slope allowance lets almost anything agree, and a
    /// grid of samples about one radius apart loses accuracy with either a
    /// larger or a smaller bound (docs/fusion.md, "Figures behind the defaults").
    public static let maximumRadiusGrowth = 2.5

    /// The test for `samplesPerPixel` samples per output pixel: the neighbour
    /// radius is at least `radius` and large enough that its disc holds
    /// `expectedNeighbours` samples on average, sqrt(k / (pi rho)); the plane
    /// radius grows by the same factor. (The radii were set for the 320x240
    /// grid fed from 640x480 samples, 8 % per pixel; at a native 1280x960 grid
    /// the set radii left most samples without the two neighbours needed;
    /// docs/fusion.md.)
    public func adapted(samplesPerPixel rho: Double) -> SampleVerifier {
        guard rho > 0, rho.isFinite else { return self }
        let needed = min(Self.maximumRadiusGrowth * radius, (Self.expectedNeighbours / (Double.pi * rho)).squareRoot())
        guard needed > radius else { return self }
        var v = self
        v.planeRadius *= needed / radius
        v.radius = needed
        return v
    }

    /// Stage "verify" of `DepthFusion`: the neighbour and plane tests
    /// (`verify`), then the global stereo fit's verdict: a sample the aligned
    /// stereo contradicts (`gross`) is an outlier unless its neighbours
    /// confirm it (the stereo itself fails near depth edges); then it is used
    /// for the fill but not trusted for high confidence (unverified).
    func verdicts(_ samples: [MetricSample], size: PixelSize, gross: [Bool]?) -> (verdicts: [SampleVerdict], residualMetres: [Double]) {
        let (verdicts, residuals) = verifyWithResiduals(samples, size: size)
        return (verdicts.enumerated().map { i, v in
            gross?[i] ?? false ? (v == .verified ? SampleVerdict.unverified : .outlier) : v
        }, residuals)
    }
}
