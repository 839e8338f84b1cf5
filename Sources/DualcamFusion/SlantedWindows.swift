import DualcamGeometry

/// The edge relabelling's guard against slanted surfaces: a window that
/// spans the relabelling's depth ratio on one slanted plane (at low
/// resolution a steep surface does) is no discontinuity, and relabelling
/// it puts a staircase into the plane (measured in docs/fusion.md,
/// "Issue 19, the grid round", item 3).
///
/// Test, in inverse depth v = 1/z over the (2r+1)^2 window around a pixel
/// (clamped at the image's border): the least-squares plane v = c + a x + b y
/// (x, y the offsets from the centre; on the symmetric grid c is the mean,
/// a = sum(x v) / sum(x^2), b = sum(y v) / sum(y^2)); the window is slanted
/// when every |v - plane| <= `tolerance` x c.
struct SlantedWindows {
    let size: PixelSize
    let radius: Int
    let tolerance: Float

    /// Whether the window of `inverse` around (x, y) is one plane within the
    /// tolerance; false where a value is missing.
    func isSlanted(_ inverse: UnsafeBufferPointer<Float>, x: Int, y: Int) -> Bool {
        let w = size.width, h = size.height, r = radius
        var sum: Float = 0, sx: Float = 0, sy: Float = 0, sxx: Float = 0
        for dy in -r...r {
            let row = min(h - 1, max(0, y + dy)) * w
            for dx in -r...r {
                let v = inverse[row + min(w - 1, max(0, x + dx))]
                guard v.isFinite, v > 0 else { return false }
                sum += v
                sx += Float(dx) * v
                sy += Float(dy) * v
            }
            sxx += Float(dy * dy) * Float(2 * r + 1)
        }
        let c = sum / Float((2 * r + 1) * (2 * r + 1)), a = sx / sxx, b = sy / sxx
        let limit = tolerance * c
        for dy in -r...r {
            let row = min(h - 1, max(0, y + dy)) * w
            for dx in -r...r where abs(inverse[row + min(w - 1, max(0, x + dx))] - (c + a * Float(dx) + b * Float(dy))) > limit {
                return false
            }
        }
        return true
    }

    /// Puts `original`'s value (depth, metres) back wherever `depth` changed
    /// it and the window of the original is slanted.
    func restore(_ depth: inout [Float], original: [Float]) {
        let w = size.width
        let inverse = original.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        inverse.withUnsafeBufferPointer { inverse in
            for p in 0..<depth.count where depth[p] != original[p] && isSlanted(inverse, x: p % w, y: p / w) {
                depth[p] = original[p]
            }
        }
    }
}
