/// Boolean masks (row-major, `width` x `height`).
public enum MaskDilation {
    /// The cells within `radius` (Chebyshev distance) of a true cell of
    /// `mask`: the rows dilated by a sliding count of the true cells within
    /// `radius`, then the columns of that, by counts per column slid down the
    /// rows (each pass reads its rows in memory order). O(cells) for any radius.
    ///
    /// Written by hand: OpenCV's dilate needs an 8-bit Mat and a copy each
    /// way for what is two passes over a [Bool].
    public static func dilated(_ mask: [Bool], width w: Int, height h: Int, radius r: Int) -> [Bool] {
        precondition(mask.count == w * h && r >= 0, "mask of \(w)x\(h) cells and a radius of 0 or more")
        var rows = [Bool](repeating: false, count: w * h), out = rows
        mask.withUnsafeBufferPointer { m in
            rows.withUnsafeMutableBufferPointer { o in
                for y in 0..<h { slide(m, into: o, start: y * w, step: 1, count: w, radius: r) }
            }
        }
        var counts = [Int32](repeating: 0, count: w)
        rows.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                counts.withUnsafeMutableBufferPointer { c in
                    for y in 0..<min(r, h) {
                        for x in 0..<w { c[x] += m[y * w + x] ? 1 : 0 }
                    }
                    for y in 0..<h {
                        if y + r < h {
                            for x in 0..<w { c[x] += m[(y + r) * w + x] ? 1 : 0 }
                        }
                        if y - r - 1 >= 0 {
                            for x in 0..<w { c[x] -= m[(y - r - 1) * w + x] ? 1 : 0 }
                        }
                        for x in 0..<w { o[y * w + x] = c[x] > 0 }
                    }
                }
            }
        }
        return out
    }

    /// One line (`count` cells from `start`, `step` apart): true where a true
    /// cell of `m` on the line lies within `r`.
    private static func slide(_ m: UnsafeBufferPointer<Bool>, into o: UnsafeMutableBufferPointer<Bool>, start: Int,
                              step: Int, count: Int, radius r: Int) {
        var inWindow = 0
        for k in 0..<min(r, count) where m[start + k * step] { inWindow += 1 }
        for k in 0..<count {
            if k + r < count, m[start + (k + r) * step] { inWindow += 1 }
            if k - r - 1 >= 0, m[start + (k - r - 1) * step] { inWindow -= 1 }
            o[start + k * step] = inWindow > 0
        }
    }
}
