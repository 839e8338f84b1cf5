/// A plane of disparity over output pixels, d = c + a (x - x0) + b (y - y0),
/// clamped to [low, high], fitted to the measurements that support a blank
/// surface (`BlankSurfaceFill`).
struct SupportPlane: Equatable {
    /// A supporting measurement: output pixel (x, y), disparity d, weight w.
    struct Point: Equatable {
        var x: Double, y: Double, d: Double, w: Double
    }

    var x0: Double, y0: Double, c: Double, a: Double, b: Double, low: Double, high: Double

    /// The plane at (x, y), clamped to [low, high].
    func value(x: Double, y: Double) -> Float {
        Float(min(max(unclamped(x: x, y: y), low), high))
    }

    func unclamped(x: Double, y: Double) -> Double { c + a * (x - x0) + b * (y - y0) }

    /// A segment with fewer supporting measurements has no plane.
    static let minimumSupport = 12
    /// Reweighting rounds: the fit settles in a few from its start.
    static let iterations = 6
    /// Slope ridge in px^2 per unit weight: negligible against a support
    /// spread over tens of pixels, decisive along a direction the support
    /// does not span (a support along one line leaves that slope at zero:
    /// fronto-parallel across it).
    static let slopeRidge = 1.0
    /// Residuals within this many Cauchy scales are inliers, whose range
    /// clamps the plane.
    static let inlierScales = 3.0

    /// A start candidate's inliers must weigh at least this share of the
    /// best candidate's: a surface's own border against the rims of one
    /// occluder (which may outnumber it), not against stray matches.
    static let candidateShare = 1.0 / 3
    /// Start candidates drawn (`start`): enough to hit a surface holding a
    /// tenth of the support many times over.
    static let candidates = 100

    /// The robust plane of `points` (nil with fewer than `minimumSupport` or
    /// no weight): from the `start` hypothesis, least squares weighted by
    /// w / (1 + (r / s)^2) for the residual r of the previous round, then
    /// clamped to the inliers' range (a plane's extremes over a region lie on
    /// its border, where its support is).
    static func fit(_ points: [Point], scale s: Double) -> SupportPlane? {
        guard points.count >= minimumSupport else { return nil }
        let total = points.reduce(0) { $0 + $1.w }
        guard total > 0 else { return nil }
        let x0 = points.reduce(0) { $0 + $1.w * $1.x } / total
        let y0 = points.reduce(0) { $0 + $1.w * $1.y } / total
        var plane = start(points, x0: x0, y0: y0, scale: s)
        for _ in 0..<iterations {
            // Normal equations of the weighted least squares in (c, a, b).
            var m = [Double](repeating: 0, count: 9), v = [Double](repeating: 0, count: 3), sw = 0.0
            m.withUnsafeMutableBufferPointer { m in
                v.withUnsafeMutableBufferPointer { v in
                    for p in points {
                        let r = p.d - plane.unclamped(x: p.x, y: p.y)
                        let w = p.w / (1 + (r / s) * (r / s))
                        // A vector, not an array: no allocation per point.
                        let f = SIMD3<Double>(1, p.x - x0, p.y - y0)
                        for j in 0..<3 {
                            v[j] += w * f[j] * p.d
                            for k in 0..<3 { m[j * 3 + k] += w * f[j] * f[k] }
                        }
                        sw += w
                    }
                }
            }
            guard sw > 0 else { return nil }
            m[4] += slopeRidge * sw
            m[8] += slopeRidge * sw
            guard let x = solve3(m, v) else { return nil }
            (plane.c, plane.a, plane.b) = (x[0], x[1], x[2])
        }
        let inliers = points.filter { abs($0.d - plane.unclamped(x: $0.x, y: $0.y)) <= inlierScales * s }.map(\.d)
        guard let low = inliers.min(), let high = inliers.max() else { return nil }
        (plane.low, plane.high) = (low, high)
        return plane
    }

    /// The fit's start, a constant plane: of the disparities of `candidates`
    /// support points (drawn by a fixed generator: the same map gives the
    /// same fill), the smallest whose inliers (within `inlierScales` s) weigh
    /// at least `candidateShare` of the best one's. A blank surface lies
    /// behind whatever occludes it; an occluder's rims, measured beside it at
    /// its larger disparity, may outnumber the surface's own border. (Planes
    /// through three points as candidates chose slanted planes across several
    /// groups of the support on the office render: constants only.)
    static func start(_ points: [Point], x0: Double, y0: Double, scale s: Double) -> SupportPlane {
        var generator = SplitMix(seed: UInt64(points.count))
        let levels = (0..<candidates).map { _ in points[Int(generator.next() % UInt64(points.count))].d }
        // Inlier weights from the support sorted by disparity and its running
        // weight sums: W(c) = sum of w over |d - c| <= band, by two binary searches.
        let sorted = points.sorted { $0.d < $1.d }
        var cumulative = [0.0]
        cumulative.reserveCapacity(sorted.count + 1)
        for p in sorted { cumulative.append(cumulative[cumulative.count - 1] + p.w) }
        func firstIndex(where above: (Double) -> Bool) -> Int {
            var (lo, hi) = (0, sorted.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if above(sorted[mid].d) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let band = inlierScales * s
        let weights = levels.map { c in
            cumulative[firstIndex { $0 > c + band }] - cumulative[firstIndex { $0 >= c - band }]
        }
        let best = weights.max() ?? 0
        let c = zip(levels, weights).filter { $0.1 >= candidateShare * best }.map(\.0).min() ?? points[0].d
        return SupportPlane(x0: x0, y0: y0, c: c, a: 0, b: 0, low: 0, high: 0)
    }

    /// Solves the 3x3 system m x = v (row-major) by Cramer's rule; nil when
    /// (nearly) singular.
    static func solve3(_ m: [Double], _ v: [Double]) -> [Double]? {
        func det(_ a: [Double]) -> Double {
            a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6])
                + a[2] * (a[3] * a[7] - a[4] * a[6])
        }
        let d = det(m)
        guard d.isFinite, abs(d) > 1e-12 * max(1, abs(m[0] * m[4] * m[8])) else { return nil }
        return (0..<3).map { j in
            var mj = m
            for r in 0..<3 { mj[r * 3 + j] = v[r] }
            return det(mj) / d
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fixed generator for the
/// hypotheses, so a fill is reproducible.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
