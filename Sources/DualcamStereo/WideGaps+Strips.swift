/// The half-occluded strips of a disparity map's holes (`WideGaps`), which
/// filtered mode fills with the farther surface.
extension WideGaps {
    /// The half-occluded strips, with the disparities of their two surfaces.
    struct Strips {
        /// The farther end's value at a strip's pixels, NaN elsewhere.
        var far: [Float]
        /// The nearer end's value at a strip's pixels, NaN elsewhere.
        var near: [Float]
    }

    /// Where a gap's far end may be a false one, the gap is no strip.
    struct StripGates: Sendable, Equatable {
        /// Half-size (output px) of the reference windows compared at the far
        /// end and a jump away from it.
        var windowRadius = 6
        /// The reference repeating itself at the jump's lag (ZNCC of the two
        /// windows at least this): the far end may be a period off.
        var maximumSelfSimilarity: Float = 0.5
        /// A window whose grey-level variance is below this (grey levels^2)
        /// is flat: the far end's match, or the test of it, rests on
        /// nothing, so no strip.
        var minimumVariance: Float = 25
    }

    /// The half-occluded strips: in gaps with both ends measured, the nearer
    /// end (larger disparity) on the side where half-occlusions lie
    /// (`occlusionRight`: false, the strip lies left of the nearer surface, so
    /// the right end is the nearer one) and no wider than `mask` allows, whose
    /// far end the reference `grey` (row-major, the map's size) neither leaves
    /// flat nor repeats at the jump's lag: the jump x scale pixels beside the
    /// farther end (the rest of the gap: matches that failed at the nearer
    /// surface's rim). The depth-edge zone's half-occlusion runs split a gap
    /// the same way.
    static func halfOcclusions(_ values: [Float], width w: Int, keep: [Bool], scale: Float, margin: Float,
                               occlusionRight: Bool, grey: [Float], gates: StripGates = StripGates()) -> Strips {
        precondition(grey.count == values.count && keep.count == values.count, "a grey value and a keep flag per pixel")
        var strips = Strips(far: [Float](repeating: .nan, count: values.count),
                            near: [Float](repeating: .nan, count: values.count))
        forEachGap(values, width: w, keep: keep) { start, end, left, right in
            guard left.isFinite, right.isFinite, occlusionRight ? left > right : right > left else { return }
            let jump = abs(left - right)
            guard Float(end - start) <= occlusionWidthFactor * jump * scale + margin else { return }
            let lag = Int((jump * scale).rounded())
            let farIndex = occlusionRight ? end : start - 1
            if !farEndHolds(grey, width: w, at: farIndex, lag: occlusionRight ? -lag : lag, gates: gates) { return }
            let n = min(end - start, lag)
            for i in occlusionRight ? (end - n)..<end : start..<(start + n) {
                strips.far[i] = min(left, right)
                strips.near[i] = max(left, right)
            }
        }
        return strips
    }

    /// Whether the far end at pixel `index` of `grey` (row-major, `w` wide)
    /// holds as one: false when the window there or the one `lag` px along
    /// the row is flat (variance below `gates.minimumVariance`), or when the
    /// two correlate (ZNCC >= `gates.maximumSelfSimilarity`). Windows leaving
    /// the image decide nothing (true).
    static func farEndHolds(_ grey: [Float], width w: Int, at index: Int, lag: Int, gates: StripGates) -> Bool {
        let r = gates.windowRadius, h = grey.count / w
        let x0 = index % w, y0 = index / w, x1 = x0 + lag
        guard lag != 0, min(x0, x1) - r >= 0, max(x0, x1) + r < w, y0 - r >= 0, y0 + r < h else { return true }
        // Sums in Float over at most a few hundred 8-bit values centred on the
        // window's centre keep far more precision than the gate needs.
        let ca = grey[index], cb = grey[y0 * w + x1]
        var sa: Float = 0, sb: Float = 0, saa: Float = 0, sbb: Float = 0, sab: Float = 0
        for dy in -r...r {
            let row = (y0 + dy) * w
            for dx in -r...r {
                let a = grey[row + x0 + dx] - ca, b = grey[row + x1 + dx] - cb
                sa += a; sb += b; saa += a * a; sbb += b * b; sab += a * b
            }
        }
        let n = Float((2 * r + 1) * (2 * r + 1))
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        if va < gates.minimumVariance * n || vb < gates.minimumVariance * n { return false }
        return (sab - sa * sb / n) / (va * vb).squareRoot() < gates.maximumSelfSimilarity
    }
}
