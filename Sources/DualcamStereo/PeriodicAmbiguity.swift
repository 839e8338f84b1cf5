import Dispatch

/// Matches that a repeating pattern makes ambiguous (issue 17's second
/// fault: a chessboard matched a period off passes the left-right and
/// uniqueness checks, because SGBM's paths carry the wrong period as
/// consistently as the right one).
///
/// Test, on both rectified views area-averaged by `factor` (coarse pixels):
/// at each coarse pixel with a measurement (the cell's median disparity d,
/// in coarse px), the ZNCC of a (2 r + 1)^2 window of the reference against
/// the other view is computed at every coarse disparity k of the search:
/// the curve z(k). The measurement is ambiguous when some k with
/// |k - d| >= 2 is a local maximum of z with
/// - z(k) >= z0 - `margin`, z0 the best of z within one coarse px of d (the
///   other view matches as well a period away);
/// - a valley between k and d at least `dip` below z(k) (a distinct peak, as
///   a periodic curve has, not the shoulder of one broad peak);
/// - the reference itself repeating at that lag: ZNCC of the window against
///   the reference shifted by +-(k - d) (+-1 coarse px) >= `selfSimilarity`.
///   Without this, a window that straddles a depth edge (two peaks, one per
///   surface) would count as ambiguous.
/// Ambiguous measurements are removed: unfiltered mode shows none, and the
/// filtered mode fills them from their neighbours and surfaces.
///
/// Written here because OpenCV's matchers expose neither their cost curves
/// nor a test for periodic ones (`StereoSGBM`'s uniqueness ratio compares
/// aggregated costs, where the wrong period wins by the smoothness terms).
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
        /// Windows whose grey-level standard deviation is below this carry
        /// no pattern to repeat.
        public var minimumStandardDeviation: Float = 1
        public init() {}
    }

    /// `reference`, `other`: rectified 8-bit grey, row-major `width` x
    /// `height`; `disparity`: the reference view's measured disparity (NaN
    /// none), rectified px; `otherIsLeft`: the other view is the left one
    /// (x_other = x + d), else x_other = x - d; `search`: SGBM's (min, count).
    /// Returns the rectified pixels whose measurement is ambiguous (each
    /// coarse cell's verdict on its `factor` x `factor` pixels).
    public static func ambiguous(reference: [UInt8], other: [UInt8], width: Int, height: Int, disparity: [Float],
                                 otherIsLeft: Bool, search: (min: Int, count: Int),
                                 parameters p: Parameters = Parameters()) -> [Bool] {
        precondition(reference.count == width * height && other.count == width * height && disparity.count == width * height,
                     "images and disparity of one size")
        let f = p.factor, r = p.radius
        let wc = width / f, hc = height / f
        var out = [Bool](repeating: false, count: width * height)
        guard f >= 1, r >= 1, wc > 2 * r + 2, hc > 2 * r + 2 else { return out }
        // The two views' coarse images and window sums are independent: both at once.
        var views = [([Double], [Double], [Double])](repeating: ([], [], []), count: 2)
        views.withUnsafeMutableBufferPointer { out in
            let results = out
            DispatchQueue.concurrentPerform(iterations: 2) { v in
                let image = coarse(v == 0 ? reference : other, width: width, factor: f, wc: wc, hc: hc)
                results[v] = (image, boxSums(image, wc: wc, hc: hc, r: r), boxSums(image.map { $0 * $0 }, wc: wc, hc: hc, r: r))
            }
        }
        let (rc, sumR, sumRR) = views[0], (oc, sumO, sumOO) = views[1]
        let n = Double((2 * r + 1) * (2 * r + 1))
        let minVariance = n * Double(p.minimumStandardDeviation * p.minimumStandardDeviation)

        // Candidates: coarse pixels with a measurement and a textured window.
        var candidates: [Int] = [], measured: [Float] = []
        var cell = [Float](repeating: 0, count: f * f)
        disparity.withUnsafeBufferPointer { dp in
            cell.withUnsafeMutableBufferPointer { cb in
                for y in r..<(hc - r) {
                    for x in r..<(wc - r) {
                        let i = y * wc + x
                        guard sumRR[i] - sumR[i] * sumR[i] / n > minVariance,
                              let d = cellMedian(dp, width: width, x: x, y: y, factor: f, buffer: cb) else { continue }
                        candidates.append(i)
                        measured.append(d / Float(f))
                    }
                }
            }
        }
        let kMin = Int((Double(search.min) / Double(f)).rounded(.down))
        let kMax = Int((Double(search.min + search.count) / Double(f)).rounded(.up))
        let kCount = kMax - kMin + 1
        // A second distinct peak needs a valley between: at least 4 disparities.
        guard !candidates.isEmpty, kCount >= 4 else { return out }
        var curves = [Float](repeating: -2, count: candidates.count * kCount)
        // The disparities are independent: two workers take every other one
        // (this stage runs alone, after both views were matched).
        curves.withUnsafeMutableBufferPointer { out in
            let curvesOut = out
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                var product = [Double](repeating: 0, count: wc * hc)
                for k in stride(from: kMin + worker, through: kMax, by: 2) {
                    let shift = otherIsLeft ? k : -k
                    rc.withUnsafeBufferPointer { a in
                        oc.withUnsafeBufferPointer { b in
                            product.withUnsafeMutableBufferPointer { pr in
                                for y in 0..<hc {
                                    let row = y * wc
                                    for x in 0..<wc {
                                        let xo = x + shift
                                        pr[row + x] = xo >= 0 && xo < wc ? a[row + x] * b[row + xo] : 0
                                    }
                                }
                            }
                        }
                    }
                    let sums = boxSums(product, wc: wc, hc: hc, r: r)
                    for (c, i) in candidates.enumerated() {
                        let x = i % wc, xo = x + shift
                        guard xo - r >= 0, xo + r < wc else { continue }
                        let io = i + shift
                        let vr = sumRR[i] - sumR[i] * sumR[i] / n, vo = sumOO[io] - sumO[io] * sumO[io] / n
                        guard vo > 0 else { continue }
                        curvesOut[c * kCount + k - kMin] = Float((sums[i] - sumR[i] * sumO[io] / n) / (vr * vo).squareRoot())
                    }
                }
            }
        }
        for (c, i) in candidates.enumerated() {
            let curve = curves[(c * kCount)..<((c + 1) * kCount)]
            let base = c * kCount
            let kd = Int(measured[c].rounded()) - kMin
            guard kd >= 0, kd < kCount else { continue }
            var z0: Float = -2
            for j in max(0, kd - 1)...min(kCount - 1, kd + 1) { z0 = max(z0, curve[base + j]) }
            for j in 0..<kCount where abs(j - kd) >= 2 {
                let z = curve[base + j]
                let left = j > 0 ? curve[base + j - 1] : -2, right = j + 1 < kCount ? curve[base + j + 1] : -2
                guard z >= left, z >= right, z >= z0 - p.margin else { continue }
                var valley: Float = 2
                for m in (min(j, kd) + 1)..<max(j, kd) { valley = min(valley, curve[base + m]) }
                guard valley <= z - p.dip,
                      selfSimilarity(rc, sumR: sumR, sumRR: sumRR, wc: wc, r: r, at: i, lag: j - kd) >= p.selfSimilarity
                else { continue }
                let x = i % wc, y = i / wc
                for yy in (y * f)..<(y * f + f) { for xx in (x * f)..<(x * f + f) { out[yy * width + xx] = true } }
                break
            }
        }
        return out
    }

    /// The best ZNCC of the reference window at coarse pixel `i` against the
    /// reference shifted by +-`lag` (+-1) coarse px.
    static func selfSimilarity(_ rc: [Double], sumR: [Double], sumRR: [Double], wc: Int, r: Int, at i: Int, lag: Int) -> Float {
        let n = Double((2 * r + 1) * (2 * r + 1))
        let x = i % wc, y = i / wc
        let vr = sumRR[i] - sumR[i] * sumR[i] / n
        var best: Float = -2
        for shift in [-lag - 1, -lag, -lag + 1, lag - 1, lag, lag + 1] where shift != 0 {
            let xs = x + shift
            guard xs - r >= 0, xs + r < wc else { continue }
            let j = i + shift
            var cross = 0.0
            for yy in (y - r)...(y + r) {
                let row = yy * wc
                for dx in -r...r { cross += rc[row + x + dx] * rc[row + xs + dx] }
            }
            let vs = sumRR[j] - sumR[j] * sumR[j] / n
            guard vs > 0 else { continue }
            best = max(best, Float((cross - sumR[i] * sumR[j] / n) / (vr * vs).squareRoot()))
        }
        return best
    }

    /// The image area-averaged by `factor` (the last partial cells dropped).
    static func coarse(_ image: [UInt8], width: Int, factor f: Int, wc: Int, hc: Int) -> [Double] {
        var out = [Double](repeating: 0, count: wc * hc)
        let scale = 1 / Double(f * f)
        image.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<(hc * f) {
                    let row = y * width, crow = (y / f) * wc
                    for cx in 0..<wc {
                        var s = 0
                        for x in (cx * f)..<(cx * f + f) { s += Int(src[row + x]) }
                        dst[crow + cx] += Double(s) * scale
                    }
                }
            }
        }
        return out
    }

    /// Sums over the (2 r + 1)^2 window centred at each pixel (zero outside).
    static func boxSums(_ values: [Double], wc: Int, hc: Int, r: Int) -> [Double] {
        var rows = [Double](repeating: 0, count: wc * hc)
        var out = [Double](repeating: 0, count: wc * hc)
        values.withUnsafeBufferPointer { v in
            rows.withUnsafeMutableBufferPointer { rw in
                for y in 0..<hc {
                    let base = y * wc
                    var s = 0.0
                    for x in 0..<min(r, wc) { s += v[base + x] }
                    for x in 0..<wc {
                        if x + r < wc { s += v[base + x + r] }
                        if x - r - 1 >= 0 { s -= v[base + x - r - 1] }
                        rw[base + x] = s
                    }
                }
                out.withUnsafeMutableBufferPointer { o in
                    for x in 0..<wc {
                        var s = 0.0
                        for y in 0..<min(r, hc) { s += rw[y * wc + x] }
                        for y in 0..<hc {
                            if y + r < hc { s += rw[(y + r) * wc + x] }
                            if y - r - 1 >= 0 { s -= rw[(y - r - 1) * wc + x] }
                            o[y * wc + x] = s
                        }
                    }
                }
            }
        }
        return out
    }

    /// The median of the finite disparities of a coarse cell, nil when fewer
    /// than a quarter of its pixels have one.
    static func cellMedian(_ disparity: UnsafeBufferPointer<Float>, width: Int, x: Int, y: Int, factor f: Int,
                           buffer b: UnsafeMutableBufferPointer<Float>) -> Float? {
        var count = 0
        var low = Float.infinity, high = -Float.infinity, sum: Float = 0
        for yy in (y * f)..<(y * f + f) {
            let row = yy * width
            for xx in (x * f)..<(x * f + f) {
                let v = disparity[row + xx]
                if v.isFinite { b[count] = v; count += 1; low = min(low, v); high = max(high, v); sum += v }
            }
        }
        guard count * 4 >= f * f else { return nil }
        // Within one coarse pixel the mean serves (the median's cost dominated
        // this function); cells across a jump take the median.
        if high - low < Float(f) { return sum / Float(count) }
        // Insertion sort: a cell holds a few values (16 at factor 4).
        for i in 1..<max(1, count) {
            let v = b[i]
            var j = i - 1
            while j >= 0 && b[j] > v { b[j + 1] = b[j]; j -= 1 }
            b[j + 1] = v
        }
        return b[count / 2]
    }
}
