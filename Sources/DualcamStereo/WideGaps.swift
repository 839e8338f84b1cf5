/// The holes of a disparity map (row-major, NaN = hole, at the output size),
/// told apart by whether a half-occlusion explains them.
///
/// A half-occluded strip beside a foreground object is as wide as the jump of
/// disparity between its two ends, in output pixels (`scale` output pixels per
/// rectified pixel of disparity), widened by the matches that fail where a
/// window straddles the edge. The row's background fill is right there. A
/// gap wider than `occlusionWidthFactor` x jump x scale + `margin` is a
/// surface the matcher could not measure (a blank wall, a uniform panel);
/// so is a gap reaching the row's end or the covered area's edge that is
/// wider than `margin`.
enum WideGaps {
    /// A row gap up to this many times its ends' jump may be a half-occlusion:
    /// twice, for the strip's widening by failed matches at its rims.
    static let occlusionWidthFactor: Float = 2

    /// True at the holes (where `keep` holds) in gaps too wide for a
    /// half-occlusion; `margin` in output pixels.
    static func mask(_ values: [Float], width w: Int, keep: [Bool], scale: Float, margin: Float) -> [Bool] {
        var wide = [Bool](repeating: false, count: values.count)
        forEachGap(values, width: w, keep: keep) { start, end, left, right in
            let jump = left.isFinite && right.isFinite ? abs(left - right) : 0
            if Float(end - start) > occlusionWidthFactor * jump * scale + margin {
                for i in start..<end { wide[i] = true }
            }
        }
        return wide
    }

    /// Calls `body` with each row gap: indices start..<end of holes where
    /// `keep` holds, and the values just left and right of it (NaN at the
    /// row's ends or where `keep` ends the gap).
    static func forEachGap(_ values: [Float], width w: Int, keep: [Bool],
                           _ body: (_ start: Int, _ end: Int, _ left: Float, _ right: Float) -> Void) {
        let h = values.count / w
        for y in 0..<h {
            let row = y * w
            var x = 0
            while x < w {
                guard !values[row + x].isFinite, keep[row + x] else { x += 1; continue }
                let x0 = x
                while x < w, !values[row + x].isFinite, keep[row + x] { x += 1 }
                let left: Float = x0 > 0 ? values[row + x0 - 1] : .nan
                let right: Float = x < w ? values[row + x] : .nan
                body(row + x0, row + x, left, right)
            }
        }
    }
}
