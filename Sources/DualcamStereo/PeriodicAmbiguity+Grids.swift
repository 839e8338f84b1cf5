/// The coarse grids of `PeriodicAmbiguity`: area averages, window sums and
/// each cell's disparity. Written here rather than with cv::resize (area)
/// and cv::boxFilter: the cells must be exact `factor` x `factor` blocks
/// (the ones whose disparities `cellMedian` reads; INTER_AREA spreads a
/// non-integer ratio over neighbouring cells), and the window sums of the
/// ~80 per-disparity products stay in Swift arrays instead of crossing the
/// OpenCV binding for each disparity.
extension PeriodicAmbiguity {
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

    /// The median of the finite disparities of a coarse cell (their mean when
    /// they span less than one coarse px), nil when fewer than a quarter of
    /// its pixels have one. `b` holds at least `f` x `f` values.
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

    /// Each cell's disparity (`cellMedian`, coarse px) for the cell rows
    /// `rows`, written into `out` (`wc` cells per row; cells without one are
    /// left as they are: NaN).
    static func coarseDisparity(_ disparity: [Float], width: Int, factor f: Int, wc: Int, rows: Range<Int>,
                                into out: UnsafeMutableBufferPointer<Float>) {
        var buffer = [Float](repeating: 0, count: f * f)
        disparity.withUnsafeBufferPointer { dp in
            buffer.withUnsafeMutableBufferPointer { b in
                for y in rows {
                    for x in 0..<wc {
                        if let d = cellMedian(dp, width: width, x: x, y: y, factor: f, buffer: b) { out[y * wc + x] = d / Float(f) }
                    }
                }
            }
        }
    }
}
