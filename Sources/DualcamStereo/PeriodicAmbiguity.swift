import Dispatch

/// Matches that a repeating pattern makes ambiguous (issue 17's second
/// fault: a chessboard matched a period off passes the left-right and
/// uniqueness checks, because SGBM's paths carry the wrong period as
/// consistently as the right one).
///
/// Test, on both rectified views area-averaged by `factor` (coarse pixels):
/// at each coarse pixel with a measurement (d: the median of the cell's
/// disparities, their mean when they span less than one coarse px; in coarse
/// px) and a textured window, the ZNCC of a (2 r + 1)^2 window of the
/// reference against the other view is computed at every coarse disparity k
/// of the search: the curve z(k). The measurement is ambiguous when some k
/// with |k - d| >= 2 is an interior local maximum of z with
/// - z(k) >= z0 - `margin`, z0 the best of z within one coarse px of d (the
///   other view matches as well a period away);
/// - a valley between k and d at least `dip` below z(k) (a distinct peak, as
///   a periodic curve has, not the shoulder of one broad peak);
/// - the reference itself repeating at that lag: ZNCC of the window against
///   the reference shifted by +-(k - d) (+-1 coarse px) >= `selfSimilarity`,
///   over the window's cells not measured on another surface
///   (`otherSurfaceCoarsePixels`). Without this, a window that straddles a
///   depth edge (two peaks, one per surface) would count as ambiguous.
/// Only computed values of z count: where a window leaves the image or the
/// other view's window is blank, z is unknown; a curve unknown everywhere
/// within one coarse px of d, or with an unknown value in the valley,
/// decides nothing. Ambiguous measurements are
/// removed: unfiltered mode shows none, and the filtered mode fills them from
/// their neighbours and surfaces.
///
/// Written here because OpenCV's matchers expose neither their cost curves
/// nor a test for periodic ones (`StereoSGBM`'s uniqueness ratio compares
/// aggregated costs, in which the wrong period wins by the smoothness terms).
public enum PeriodicAmbiguity {
    public struct Parameters: Sendable, Equatable {
        /// Rectified px per coarse px.
        public var factor = 4
        /// Window radius, coarse px: a 68-px rectified window at the defaults,
        /// several SGBM blocks, so that a random texture rarely repeats in it.
        public var radius = 8
        public var margin: Float = 0.05
        public var dip: Float = 1.0
        public var selfSimilarity: Float = 0.7
        /// Windows (of either view) whose grey-level standard deviation is
        /// below this carry no pattern to repeat.
        public var minimumStandardDeviation: Float = 1
        public init() {}

        /// Whether every value is usable: factor and radius 1-64, thresholds
        /// finite, margin, dip and the standard deviation not negative.
        public var isValid: Bool {
            (1...64).contains(factor) && (1...64).contains(radius) && selfSimilarity.isFinite
                && [margin, dip, minimumStandardDeviation].allSatisfy { $0.isFinite && $0 >= 0 }
        }
    }

    /// The coarse views and their window sums (sum and sum of squares).
    struct CoarseView {
        var grey: [Double], sum: [Double], sumOfSquares: [Double]
    }

    /// `reference`, `other`: rectified 8-bit grey, row-major `width` x
    /// `height`; `disparity`: the reference view's measured disparity (NaN
    /// none), rectified px; `otherIsLeft`: the other view is the left one
    /// (x_other = x + d), else x_other = x - d; `search`: SGBM's (min, count),
    /// disparities min...min + count - 1. Returns the rectified pixels whose
    /// measurement is ambiguous (each coarse cell's verdict on its `factor` x
    /// `factor` pixels).
    static func ambiguous(reference: [UInt8], other: [UInt8], width: Int, height: Int, disparity: [Float],
                          otherIsLeft: Bool, search: (min: Int, count: Int),
                          parameters p: Parameters = Parameters()) -> [Bool] {
        precondition(reference.count == width * height && other.count == width * height && disparity.count == width * height,
                     "images and disparity of one size")
        var flags = [Bool](repeating: false, count: width * height)
        guard p.isValid else { return flags }
        let f = p.factor, r = p.radius
        let wc = width / f, hc = height / f
        guard search.count > 0 else { return flags }
        let kMin = Int((Double(search.min) / Double(f)).rounded(.down))
        let kMax = Int(((Double(search.min) + Double(search.count) - 1) / Double(f)).rounded(.up))
        // A second distinct peak needs a valley between: at least 4 disparities.
        guard wc > 2 * r + 2, hc > 2 * r + 2, kMax - kMin + 1 >= 4 else { return flags }
        // The two views' coarse images and window sums are independent, and
        // so are the two halves of the cells' disparities: one view and one
        // half on each core.
        var views = [CoarseView](repeating: CoarseView(grey: [], sum: [], sumOfSquares: []), count: 2)
        var cellDisparity = [Float](repeating: .nan, count: wc * hc)
        views.withUnsafeMutableBufferPointer { results in
            cellDisparity.withUnsafeMutableBufferPointer { cellBuffer in
                let slots = results, cells = cellBuffer
                DispatchQueue.concurrentPerform(iterations: 2) { v in
                    let grey = coarse(v == 0 ? reference : other, width: width, factor: f, wc: wc, hc: hc)
                    slots[v] = CoarseView(grey: grey, sum: boxSums(grey, wc: wc, hc: hc, r: r),
                                          sumOfSquares: boxSums(grey.map { $0 * $0 }, wc: wc, hc: hc, r: r))
                    coarseDisparity(disparity, width: width, factor: f, wc: wc,
                                    rows: v == 0 ? 0..<(hc / 2) : (hc / 2)..<hc, into: cells)
                }
            }
        }
        let geometry = Geometry(wc: wc, hc: hc, r: r, kMin: kMin, kMax: kMax, shiftSign: otherIsLeft ? 1 : -1,
                                minVariance: Double((2 * r + 1) * (2 * r + 1)) * Double(p.minimumStandardDeviation * p.minimumStandardDeviation))
        let (cells, measured) = candidates(views[0], cellDisparity: cellDisparity, geometry: geometry)
        guard !cells.isEmpty else { return flags }
        let curves = correlationCurves(views[0], views[1], cells: cells, geometry: geometry)
        let kCount = kMax - kMin + 1
        for (c, i) in cells.enumerated() {
            let repeats = { (lag: Int) in
                selfSimilarity(views[0], geometry: geometry, at: i, lag: lag, cellDisparity: cellDisparity,
                               measured: measured[c]) >= p.selfSimilarity
            }
            guard secondPeakLag(curves[(c * kCount)..<((c + 1) * kCount)], measured: measured[c] - Float(kMin),
                                parameters: p, accept: repeats) != nil else { continue }
            let x = i % wc, y = i / wc
            for yy in (y * f)..<(y * f + f) { for xx in (x * f)..<(x * f + f) { flags[yy * width + xx] = true } }
        }
        return flags
    }

    /// The coarse grid, the search in coarse px and the windows' variance floor.
    struct Geometry {
        let wc: Int, hc: Int, r: Int, kMin: Int, kMax: Int
        /// +1: the other view's window at x + k; -1: at x - k.
        let shiftSign: Int
        /// Sum of squared deviations a window needs (`minimumStandardDeviation`).
        let minVariance: Double
        var windowCount: Double { Double((2 * r + 1) * (2 * r + 1)) }
        func variance(_ view: CoarseView, _ i: Int) -> Double {
            view.sumOfSquares[i] - view.sum[i] * view.sum[i] / windowCount
        }
    }

    /// The coarse pixels to test (a textured reference window inside the
    /// image, a measurement in the cell: `cellDisparity`, coarse px) and
    /// their measured disparity.
    static func candidates(_ reference: CoarseView, cellDisparity: [Float], geometry g: Geometry) -> (cells: [Int], measured: [Float]) {
        var cells: [Int] = [], measured: [Float] = []
        for y in g.r..<(g.hc - g.r) {
            for x in g.r..<(g.wc - g.r) {
                let i = y * g.wc + x, k = cellDisparity[i]
                // Outside the search (by more than a coarse px) there is no curve to read.
                guard k.isFinite, k >= Float(g.kMin - 1), k <= Float(g.kMax + 1), g.variance(reference, i) > g.minVariance
                else { continue }
                cells.append(i)
                measured.append(k)
            }
        }
        return (cells, measured)
    }

    /// z(k) for each cell, k = kMin...kMax (row-major by cell; NaN where the
    /// other window leaves the image or is blank). The disparities are
    /// independent: two workers take every other one (this stage runs alone,
    /// after both views were matched).
    static func correlationCurves(_ reference: CoarseView, _ other: CoarseView, cells: [Int], geometry g: Geometry) -> [Float] {
        let kCount = g.kMax - g.kMin + 1, n = g.windowCount
        let cellVariance = cells.map { g.variance(reference, $0) }
        var curves = [Float](repeating: .nan, count: cells.count * kCount)
        curves.withUnsafeMutableBufferPointer { buffer in
            let out = buffer
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                var product = [Double](repeating: 0, count: g.wc * g.hc)
                for k in stride(from: g.kMin + worker, through: g.kMax, by: 2) {
                    let shift = g.shiftSign * k
                    reference.grey.withUnsafeBufferPointer { a in
                        other.grey.withUnsafeBufferPointer { b in
                            product.withUnsafeMutableBufferPointer { pr in
                                for y in 0..<g.hc {
                                    let row = y * g.wc
                                    for x in 0..<g.wc {
                                        let xo = x + shift
                                        pr[row + x] = xo >= 0 && xo < g.wc ? a[row + x] * b[row + xo] : 0
                                    }
                                }
                            }
                        }
                    }
                    let sums = boxSums(product, wc: g.wc, hc: g.hc, r: g.r)
                    for (c, i) in cells.enumerated() {
                        let xo = i % g.wc + shift
                        guard xo - g.r >= 0, xo + g.r < g.wc else { continue }
                        let io = i + shift
                        let vo = g.variance(other, io)
                        guard vo > g.minVariance else { continue }
                        out[c * kCount + k - g.kMin] = Float((sums[i] - reference.sum[i] * other.sum[io] / n)
                                                             / (cellVariance[c] * vo).squareRoot())
                    }
                }
            }
        }
        return curves
    }

    /// The lag (coarse px, signed) from the measured disparity `measured`
    /// (an offset from `curve.startIndex`: 0 = kMin) to the first second peak
    /// as the type's doc defines it that `accept` takes (the self-similarity
    /// test), or nil. z0 is the best computed value within one coarse px of
    /// the measurement; none there, or `measured` off the curve by more than
    /// one, decides nothing.
    static func secondPeakLag(_ curve: ArraySlice<Float>, measured: Float, parameters p: Parameters,
                              accept: (Int) -> Bool = { _ in true }) -> Int? {
        let base = curve.startIndex, count = curve.count
        guard count >= 4, measured.isFinite, measured >= -1, measured <= Float(count) else { return nil }
        let kd = Int(measured.rounded())
        let low = max(0, kd - 1), high = min(count - 1, kd + 1)
        guard low <= high else { return nil }
        var z0 = -Float.infinity
        for j in low...high where curve[base + j].isFinite { z0 = max(z0, curve[base + j]) }
        guard z0.isFinite else { return nil }
        for j in 1..<(count - 1) where abs(j - kd) >= 2 {
            let z = curve[base + j], left = curve[base + j - 1], right = curve[base + j + 1]
            guard z.isFinite, left.isFinite, right.isFinite, z >= left, z >= right, z >= z0 - p.margin else { continue }
            var valley = Float.infinity
            for m in (min(j, kd) + 1)..<max(j, kd) where m >= 0 && m < count {
                let v = curve[base + m]
                // An unknown value in the valley decides nothing.
                guard v.isFinite else { valley = .nan; break }
                valley = min(valley, v)
            }
            guard valley.isFinite, valley <= z - p.dip, accept(j - kd) else { continue }
            return j - kd
        }
        return nil
    }

    /// Cells measured farther than this (coarse px) from the measurement lie
    /// on another surface: the self-similarity test leaves them out. Below
    /// the 2 coarse px a second peak needs, so cells measured a period away
    /// are left out too. The cells are compared with the measurement of the
    /// window's centre, so a surface whose disparity changes by more than
    /// this over the window's radius (8 coarse px) loses its far cells.
    static let otherSurfaceCoarsePixels: Float = 1.5

    /// The best ZNCC of the reference window at coarse pixel `i` against the
    /// reference shifted by +-`lag` (+-1) coarse px, over the window's cells
    /// not measured on another surface: unmeasured (`cellDisparity` NaN) or
    /// measured within `otherSurfaceCoarsePixels` of `measured`. A window
    /// across the edge of a repeating pattern (a chessboard's border)
    /// repeats on the pattern's side only. Only the reference-side cells are
    /// chosen: the shift away from the edge keeps the shifted window on the
    /// pattern. With fewer than a third of the window left (a small island
    /// of measurements), the whole window. Both windows' variance over the
    /// cells must reach the texture floor (`Geometry.minVariance`, for that
    /// share of the window); otherwise the shift does not count.
    static func selfSimilarity(_ view: CoarseView, geometry g: Geometry, at i: Int, lag: Int,
                               cellDisparity: [Float], measured: Float) -> Float {
        let r = g.r, wc = g.wc
        let x = i % wc, y = i / wc
        let window = ((y - r)...(y + r)).flatMap { yy in ((x - r)...(x + r)).map { yy * wc + $0 } }
        var cells = window.filter { q in
            let d = cellDisparity[q]
            return !d.isFinite || abs(d - measured) <= otherSurfaceCoarsePixels
        }
        if cells.count * 3 < window.count { cells = window }
        let n = Double(cells.count)
        let floor = g.minVariance * n / g.windowCount
        var sa = 0.0, saa = 0.0
        for q in cells { sa += view.grey[q]; saa += view.grey[q] * view.grey[q] }
        let va = saa - sa * sa / n
        guard va > floor else { return -.infinity }
        var best = -Float.infinity
        for shift in [-lag - 1, -lag, -lag + 1, lag - 1, lag, lag + 1] where shift != 0 {
            let xs = x + shift
            guard xs - r >= 0, xs + r < wc else { continue }
            var sb = 0.0, sbb = 0.0, sab = 0.0
            for q in cells {
                let b = view.grey[q + shift]
                sb += b; sbb += b * b; sab += view.grey[q] * b
            }
            let vb = sbb - sb * sb / n
            guard vb > floor else { continue }
            best = max(best, Float((sab - sa * sb / n) / (va * vb).squareRoot()))
        }
        return best
    }
}
