import DualcamGeometry
import DualcamImaging

/// The refinement of `AutoConvergence`: a finer sweep around each coarse
/// candidate at (up to) full resolution and the sub-step maximum of its curve.
extension AutoConvergence {
    /// The refinement's level keeps at most this many pixels (400k: a
    /// 640x480 region at full resolution, 1920x1440 at a quarter).
    static let fineLevelPixels = 400_000.0
    /// Regions up to this many canvas pixels are refined with `.direct` tables.
    static let directRegionPixels = 640.0 * 480
    /// The refinement's level scale: full resolution, or the largest
    /// power-of-two reduction that keeps the region within 1024 pixels on its
    /// longer side and `fineLevelPixels`.
    static func fineScale(_ region: CanvasWindow) -> Double {
        let longer = Double(max(region.width, region.height))
        let area = Double(region.width * region.height)
        return [1, 0.5, 0.25, 0.125].first { longer * $0 <= 1024 && area * $0 * $0 <= Self.fineLevelPixels } ?? 0.125
    }

    /// Refines the candidate at coarse inverse distance `q0`: a finer sweep
    /// over +-1.5 coarse steps (`refine`), then, with a window, again on the
    /// pixels that register there when part of the window shows something else.
    static func refineCandidate(q0: Double, setup s: SweepSetup) throws -> Refined {
        let g = s.g, qMin = s.qMin, qMax = s.qMax, dq = s.dq, rate = s.rate
        let fineScale = fineScale(s.region)
        let area = Double(s.region.width * s.region.height)
        // Regions up to 640x480 (taps, small pairs) are refined on the
        // registration the user sees (one undistort + warp table per step,
        // about 23 ns per level pixel); larger ones, refined at a reduced
        // level anyway, on the moving image undistorted once (one perspective
        // warp per step, ten times cheaper).
        let fineMode: SweepLevel.Mode = area <= Self.directRegionPixels ? .direct : .pretransformed
        let lo = max(qMin, q0 - 1.5 * dq), hi = min(qMax, q0 + 1.5 * dq)
        let fine = try SweepLevel(geometry: g, fixed: s.fixedImage, moving: s.movingImage, canvasScale: fineScale,
                                  movingScale: min(1, fineScale * s.magnification), region: s.region,
                                  inverseDistances: lo...hi, mode: fineMode)
        let fineSteps = min(61, max(7, Int(((hi - lo) * rate * fineScale / 0.2).rounded(.up)) + 1))
        let qs = (0..<fineSteps).map { $0 == fineSteps - 1 ? hi : lo + Double($0) * (hi - lo) / Double(fineSteps - 1) }
        var r = try refine(fine, qs, range: qMin...qMax, rate: rate, windowed: s.windowed)
        // The pixels that register at that distance: when part of the
        // window shows something else, refine on the subject alone.
        guard s.windowed, let warped = try fine.warpedValues(inverseDistance: r.candidate.inverseDistance) else { return r }
        let q = r.candidate.inverseDistance, step = 1.5 / rate  // 1.5 px of parallax
        let neighbours = try [q - step, q + step].filter { $0 >= 0 }.compactMap { try fine.warpedValues(inverseDistance: $0) }
        let keep = try SupportMask.agreeing(fixed: fine.fixedValues, moving: warped, neighbours: neighbours,
                                            width: fine.fixed.image.width, height: fine.fixed.image.height)
        let valid = zip(fine.fixedValues, warped).filter { $0.isFinite && $1.isFinite }.count
        let fraction = valid > 0 ? Double(keep.filter { $0 }.count) / Double(valid) : 0
        r.support = fraction
        guard fraction >= 0.25, fraction <= 0.9 else { return r }
        let subject = try refine(fine.restricted(to: keep), qs, range: qMin...qMax, rate: rate, windowed: true)
        if subject.candidate.score > -1 {
            // Ranked by the whole window's score (the subject's own
            // is near 1 for every repeat of a pattern), placed by the subject's.
            let whole = try scan(fine, [subject.candidate.inverseDistance], windowed: true).scores[0]
            r.candidate = DistanceCandidate(distance: subject.candidate.distance,
                                            inverseDistance: subject.candidate.inverseDistance,
                                            score: whole.score > -1 ? whole.score : r.candidate.score)
            r.sharpness = subject.sharpness ?? r.sharpness
        }
        return r
    }

    struct Refined {
        var candidate: DistanceCandidate
        var samples: [ConvergenceScore]
        var sharpness: Double?
        var support: Double?
        /// Kept because the window's centre registers there too (not by score).
        var bySupport = false
    }

    /// Scores `level` at `qs` (uniform), then fits a parabola around the best
    /// sample (sub-step maximum within one step, clamped to `range`) and
    /// scores the level there.
    static func refine(_ level: SweepLevel, _ qs: [Double], range: ClosedRange<Double>, rate: Double,
                       windowed: Bool) throws -> Refined {
        let fineScan = try scan(level, qs, windowed: windowed)
        let samples = fineScan.scores
        let df = qs.count > 1 ? qs[1] - qs[0] : 0
        let j = samples.indices.max { samples[$0].score < samples[$1].score }!
        var q = samples[j].inverseDistance
        var sharpness: Double?
        if samples[j].score > -1, let fit = parabolaPeak(samples.map(\.score), around: j) {
            q = min(range.upperBound, max(range.lowerBound, q + fit.offset * df))
            // NCC lost at one pixel of parallax: the parabola's curvature per (step in pixels)^2.
            let stepPixels = df * rate
            sharpness = -fit.curvature / (stepPixels * stepPixels)
        }
        let chosen = try scan(level, [q], windowed: windowed, minCount: fineScan.minCount).scores[0]
        let pick = chosen.score > -1 ? chosen : samples[j]
        return Refined(candidate: DistanceCandidate(distance: pick.distance, inverseDistance: pick.inverseDistance, score: pick.score),
                       samples: samples, sharpness: sharpness, support: nil)
    }

    /// The sub-sample offset (in samples, within [-1, 1]) of the maximum of a
    /// least-squares parabola s(t) = a + b t + c t^2 through samples j-2...j+2
    /// (those that exist, at least 3, t relative to j), and its curvature c
    /// (per sample squared); nil when the fit has no maximum (c >= 0) or too
    /// few samples.
    static func parabolaPeak(_ scores: [Double], around j: Int) -> (offset: Double, curvature: Double)? {
        let idx = (max(0, j - 2)...min(scores.count - 1, j + 2)).filter { scores[$0] > -1 }
        guard idx.count >= 3, idx.contains(j - 1) || idx.contains(j + 1) else { return nil }
        // Normal equations of the quadratic fit.
        var s = [Double](repeating: 0, count: 5), r = [Double](repeating: 0, count: 3)
        for i in idx {
            let t = Double(i - j), v = scores[i]
            var p = 1.0
            for k in 0..<5 { s[k] += p; if k < 3 { r[k] += p * v }; p *= t }
        }
        let m = Matrix3(rows: Vector3(s[0], s[1], s[2]), Vector3(s[1], s[2], s[3]), Vector3(s[2], s[3], s[4]))
        guard let inv = m.inverse else { return nil }
        let coef = inv * Vector3(r[0], r[1], r[2])
        guard coef.z < 0 else { return nil }
        return (min(1, max(-1, -coef.y / (2 * coef.z))), coef.z)
    }
}
