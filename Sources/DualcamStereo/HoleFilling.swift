/// Hole filling helpers for disparity maps (row-major, NaN = hole) at the output size.
enum HoleFilling {
    /// Occlusion-aware pre-fill: each hole in a row takes the smaller (farther)
    /// of the nearest valid disparities to its left and right, the classic
    /// background fill for the half-occluded strips beside foreground objects
    /// (a plain average would mix foreground and background). Pixels where
    /// `keep` is false stay untouched. Returns the filled map and a mask of the
    /// filled pixels.
    static func backgroundFill(_ values: [Float], width w: Int, keep: [Bool]) -> (values: [Float], filled: [Bool]) {
        precondition(keep.count == values.count, "a keep mask of the map's size")
        var out = values
        var filled = [Bool](repeating: false, count: values.count)
        let h = values.count / w
        var leftValue = [Float](repeating: .nan, count: w)
        values.withUnsafeBufferPointer { values in
            keep.withUnsafeBufferPointer { keep in
                out.withUnsafeMutableBufferPointer { out in
                    filled.withUnsafeMutableBufferPointer { filled in
                        leftValue.withUnsafeMutableBufferPointer { leftValue in
                            for y in 0..<h {
                                let row = y * w
                                var last = Float.nan
                                for x in 0..<w {
                                    if values[row + x].isFinite { last = values[row + x] }
                                    leftValue[x] = last
                                }
                                last = .nan
                                for x in stride(from: w - 1, through: 0, by: -1) {
                                    let i = row + x
                                    if values[i].isFinite { last = values[i]; continue }
                                    guard keep[i] else { continue }
                                    let l = leftValue[x]
                                    let v: Float = l.isFinite && last.isFinite ? min(l, last) : (l.isFinite ? l : last)
                                    if v.isFinite { out[i] = v; filled[i] = true }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (out, filled)
    }

    /// Fills the remaining holes where `keep` holds from the nearest valid
    /// value along the row, then along the column (so a map with any value is dense there).
    static func nearestFill(_ values: [Float], width w: Int, keep: [Bool]) -> [Float] {
        guard values.contains(where: { $0.isFinite }) else { return values }
        let (rows, _) = backgroundFill(values, width: w, keep: keep)
        guard zip(rows, keep).contains(where: { !$0.isFinite && $1 }) else { return rows }
        // Columns: transpose, fill, transpose back.
        let h = values.count / w
        var t = [Float](repeating: .nan, count: values.count), tk = [Bool](repeating: false, count: values.count)
        for y in 0..<h { for x in 0..<w { t[x * h + y] = rows[y * w + x]; tk[x * h + y] = keep[y * w + x] } }
        let (cols, _) = backgroundFill(t, width: h, keep: tk)
        var out = rows
        for y in 0..<h { for x in 0..<w { out[y * w + x] = cols[x * h + y] } }
        return out
    }
}
