/// Foreground fattening in a measured disparity map (unfiltered mode, issue
/// 17): a matching window that straddles a depth edge and holds texture only
/// on the nearer surface gives the nearer surface's disparity to pixels of a
/// blank farther surface beside it. Such a pixel passes the left-right check
/// and predicts as small a noise as a correct match, but its colour continues
/// the blank, unmatched region beyond its run, not the nearer surface.
///
/// The rule, along each row towards the occlusion side (a half-occlusion
/// lies beside the nearer surface on that side, `CVEdgeSnapParameters.occlusionRight`:
/// there the near run's end meets the unmatched region). A run of
/// measurements ends at x (the next pixel towards that side is a hole or a
/// farther jump); the next measurement beyond
/// x, across any holes, at k, must be farther by a jump (a depth edge). The
/// `sample` pixels after x are the far side: when they are blank (each channel
/// within `colourNoise` of their mean) and the pixel at k has their colour too
/// (the blank region is the farther surface), the run's pixels from x inwards
/// whose colour stays within the far side's tolerance (max(`colourNoise`,
/// twice its spread)) are fattened and set to NaN, at most `reach` of them;
/// the walk stops at the first pixel of another colour (the image's colour
/// edge, the true occluding boundary) or at a jump inside the run.
/// In both directions it also removed correct values of Aloe's uniform
/// leaves (docs/real-data.md, 2026-11-27).
enum ForegroundFattening {
    /// Pixels after a run's end that give the far side's colour.
    static let sample = 4
    /// At most this many pixels of a run are removed from its end (SGBM's
    /// smoothness carries a near disparity several windows across a blank surface).
    static let reach = 12
    /// Colour noise, 8-bit levels per channel: a far side that varies more
    /// than this carries texture of its own, and its matches are its own.
    static let colourNoise: Float = 3

    /// `disparity` (row-major, NaN = no value) with the fattened pixels set to
    /// NaN. `colour`: 8-bit interleaved, `channels` per pixel, same size.
    /// `occlusionSide`: +1 when half-occlusions lie right of the nearer
    /// surface, -1 left. `jump(a, b)`: whether a and b lie on different surfaces.
    static func remove(_ disparity: [Float], width: Int, height: Int, colour: [UInt8], channels: Int,
                       occlusionSide step: Int, jump: (Float, Float) -> Bool) -> [Float] {
        precondition(disparity.count == width * height && colour.count == width * height * channels && abs(step) == 1)
        var out = disparity
        var mean = [Float](repeating: 0, count: channels)
        for y in 0..<height {
            let row = y * width
            func d(_ x: Int) -> Float { disparity[row + x] }
            func c(_ x: Int, _ k: Int) -> Float { Float(colour[(row + x) * channels + k]) }
            for x in 0..<width where d(x).isFinite {
                let n = x + step
                guard n >= 0, n < width, n + step * (sample - 1) >= 0, n + step * (sample - 1) < width else { continue }
                if d(n).isFinite && (d(n) > d(x) || !jump(d(x), d(n))) { continue }
                var k = n
                while k >= 0, k < width, !d(k).isFinite { k += step }
                guard k >= 0, k < width, d(k) < d(x), jump(d(x), d(k)) else { continue }
                var spread: Float = 0
                for ch in 0..<channels {
                    var sum: Float = 0
                    for i in 0..<sample { sum += c(n + step * i, ch) }
                    mean[ch] = sum / Float(sample)
                    for i in 0..<sample { spread = max(spread, abs(c(n + step * i, ch) - mean[ch])) }
                }
                guard spread <= colourNoise else { continue }
                let tolerance = max(colourNoise, 2 * spread)
                func continuesFarSide(_ p: Int) -> Bool { (0..<channels).allSatisfy { abs(c(p, $0) - mean[$0]) < tolerance } }
                guard continuesFarSide(k) else { continue }
                for i in 0..<reach {
                    let p = x - step * i
                    guard p >= 0, p < width, d(p).isFinite, i == 0 || !jump(d(p), d(x)), continuesFarSide(p) else { break }
                    out[row + p] = .nan
                }
            }
        }
        return out
    }
}
