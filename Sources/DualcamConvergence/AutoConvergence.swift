import DualcamGeometry
import DualcamImaging

/// The automatic convergence distance: a plane sweep over inverse distance.
///
/// 1. Coarse: q = 1/d takes `coarseSteps` values uniformly from 1/far (0 for
///    infinity) to 1/near. For each, the moving image is warped onto the
///    scored view with the plane homography for d = 1/q and scored against
///    that view's own image by zero-mean normalised cross-correlation over
///    the window (or the whole overlap), on a resized pair (`SweepLevel`).
/// 2. Texture: when the best coarse score is less than
///    `minimumCurveContrast` above the curve's median, the curve singles out
///    no distance (`lowTexture`; `LowTexturePolicy` says what follows).
/// 3. Candidates: the curve's peaks (`ScoreCurve`, prominence at least half
///    the ambiguity margin) scoring within `ambiguityMargin` of the best, at
///    most four. A regular pattern gives one peak per repetition along the
///    baseline, all about equally high: nothing in the window tells them
///    apart, so they are all kept and reported.
/// 3. Refine each candidate: around it (+-1.5 coarse steps), a finer sweep at
///    full resolution (reduced by powers of two when the scored region is
///    longer than 1024 pixels) with steps moving the image by at most 0.2
///    pixels; then a least-squares parabola through the best sample and its
///    neighbours (up to 2 on each side) gives the sub-step maximum, kept within
///    one fine step of the best sample. Candidates whose refined score falls
///    more than the margin below the best refined score are dropped; the
///    best is the answer, `ambiguous` when others remain.
///
/// Parallax is linear in q (about f_canvas * baseline * q along the
/// baseline), which is why the sweep is uniform in inverse distance.
extension ConvergenceWarp {
    public func autoDistance(wide: Image, tele: Image, options: AutoConvergenceOptions = AutoConvergenceOptions(),
                             wideIntrinsics: Intrinsics? = nil, teleIntrinsics: Intrinsics? = nil) throws -> AutoConvergenceResult {
        let g = try geometry(wideSize: PixelSize(width: wide.width, height: wide.height),
                             teleSize: PixelSize(width: tele.width, height: tele.height),
                             wideIntrinsics: wideIntrinsics, teleIntrinsics: teleIntrinsics)
        return try AutoConvergence.run(geometry: g, wide: wide, tele: tele, options: options)
    }
}

enum AutoConvergence {
    /// The refinement's level keeps at most this many pixels (400k: a
    /// 640x480 region at full resolution, 1920x1440 at a quarter).
    static let fineLevelPixels = 400_000.0
    /// Regions up to this many canvas pixels are refined with `.direct` tables.
    static let directRegionPixels = 640.0 * 480
    /// At most this many candidates are refined and reported.
    static let maximumCandidates = 6
    /// A window whose texture keeps less than this fraction of its contrast
    /// (standard deviation) at the moving camera's resolution is low texture:
    /// the pattern there is finer than that camera resolves (see
    /// `AutoConvergenceResult.resolvableTexture`).
    static let minimumResolvableTexture = 0.5

    static func run(geometry g: ConvergenceGeometry, wide: Image, tele: Image,
                    options o: AutoConvergenceOptions) throws -> AutoConvergenceResult {
        guard o.near < o.far else {
            throw ConvergenceError.invalidOption("auto distance: near (\(o.near)) must be closer than far (\(o.far))")
        }
        guard o.ambiguityMargin >= 0, o.ambiguityMargin < 2, o.minimumCurveContrast >= 0, o.minimumCurveContrast < 2 else {
            throw ConvergenceError.invalidOption(
                "auto distance: ambiguity margin and minimum curve contrast must be in [0, 2), got \(o.ambiguityMargin) and \(o.minimumCurveContrast)")
        }
        let tap = try o.tap.map { try TapGeometry($0, canvasGeometry: g) }
        if tap != nil, o.window < 8 {
            throw ConvergenceError.invalidOption("auto distance: window must be at least 8 pixels, got \(o.window)")
        }
        let region = tap.map { $0.window(side: o.window) }
        var result = try sweep(tap?.sweep ?? g, wide: wide, tele: tele, region: region, options: o)
        if result.lowTexture, o.lowTexture != .accept {
            let what = region.map { "the \($0.width)x\($0.height) window around \(o.tap!.text) (\(result.scoredIn) view)" }
                ?? "the whole overlap"
            let moving = result.scoredIn == .tele ? "wide" : "tele"
            let message = result.curveContrast >= o.minimumCurveContrast
                ? "auto distance: the texture of \(what) is finer than the \(moving) camera resolves (it keeps "
                    + String(format: "%.0f %%", 100 * (result.resolvableTexture ?? 0)) + " of its contrast at the \(moving) camera's resolution)"
                : "auto distance: \(what) has no texture along the baseline (the score curve rises "
                    + String(format: "%.3f", result.curveContrast) + " above its median, needs "
                    + String(format: "%.3f", o.minimumCurveContrast) + ")"
            guard o.lowTexture == .wholeOverlap, region != nil else {
                throw ConvergenceError.lowTexture(message + (region != nil ? "; tap a textured part of the subject" : ""))
            }
            result = try sweep(g, wide: wide, tele: tele, region: nil, options: o)
            guard !result.lowTexture else {
                throw ConvergenceError.lowTexture(message + ", and neither has the whole overlap")
            }
            result.fallbackReason = message
        }
        result.tap = try tap?.landing(inverseDistance: result.candidates[0].inverseDistance, canvas: g.canvas)
        return result
    }

    /// The sweep over `region` of `g`'s canvas (nil: all of it).
    static func sweep(_ g: ConvergenceGeometry, wide: Image, tele: Image, region window: CanvasWindow?,
                      options o: AutoConvergenceOptions) throws -> AutoConvergenceResult {
        let qMin = o.far.isInfinite ? 0 : 1 / o.far.metres, qMax = 1 / o.near.metres
        let canvas = g.canvasSize
        let region = window ?? CanvasWindow(x: 0, y: 0, width: canvas.width, height: canvas.height)
        let shorter = Double(min(region.width, region.height))
        let coarseScale = try o.coarseScale.map { s -> Double in
            guard s > 0, s <= 1 else {
                throw ConvergenceError.invalidOption("auto distance: coarse scale must be in (0, 1], got \(s)")
            }
            return s
        } ?? [1, 0.5, 0.25, 0.125].last { shorter * $0 >= (window == nil ? 120 : 48) } ?? 1

        // Relative magnification of the moving image in the canvas: resize it
        // to about the canvas level's sampling (never up).
        let magnification = g.fixedModel.intrinsics.fx / g.movingModel.intrinsics.fx
        let fixedImage = g.canvas == .tele ? tele : wide, movingImage = g.canvas == .tele ? wide : tele

        // Parallax rate (canvas px per 1/m) at the region's centre.
        let centre = Vector2(Double(region.x) + Double(region.width - 1) / 2, Double(region.y) + Double(region.height - 1) / 2)
        let rate = max(1e-9, try g.parallaxPerInverseMetre(at: centre, around: (qMin + qMax) / 2).norm)

        let steps: Int
        if let n = o.coarseSteps {
            guard (2...100_000).contains(n) else {
                throw ConvergenceError.invalidOption("auto distance: steps must be in 2...100000, got \(n)")
            }
            steps = n
        } else {
            let span = rate * coarseScale * (qMax - qMin)
            steps = min(1024, max(64, Int((span / 0.5).rounded(.up)) + 1))
        }

        let coarse = try SweepLevel(geometry: g, fixed: fixedImage, moving: movingImage, canvasScale: coarseScale,
                                    movingScale: min(1, coarseScale * magnification), region: region,
                                    inverseDistances: qMin...qMax, mode: .pretransformed)
        let dq = (qMax - qMin) / Double(steps - 1)
        let coarseScan = try scan(coarse, (0..<steps).map { $0 == steps - 1 ? qMax : qMin + Double($0) * dq },
                                  windowed: window != nil)
        let curve = coarseScan.scores
        let shape = ScoreCurve(curve.map(\.score))
        var peaks = shape.peaks(minimumProminence: o.ambiguityMargin / 2)
        if peaks.isEmpty, let top = shape.peaks(minimumProminence: 0).first { peaks = [top] }  // a flat curve
        guard let best = peaks.first, best.score > -1 else {
            throw ConvergenceError.noOverlap(
                "auto distance: the \(g.wideCamera) and \(g.teleCamera) views do not overlap in the scored region "
                    + "(\(region.width)x\(region.height) at \(region.x),\(region.y) of the \(g.canvas) view)")
        }
        // How much of the window's texture the moving camera can resolve.
        var resolvable: Double?
        if window != nil, magnification > 1.2 {
            let level = try LevelImage.make(fixedImage, model: g.fixedModel, region: region, scale: 1)
            let values = try level.image.pixels(as: Float.self)
            let blurred = try ImageOps.gaussianBlur(level.image, sigma: 0.5 * magnification).pixels(as: Float.self)
            func sd(_ v: [Float]) -> Double {
                let f = v.filter(\.isFinite).map(Double.init)
                guard f.count > 1 else { return 0 }
                let m = f.reduce(0, +) / Double(f.count)
                return (f.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(f.count)).squareRoot()
            }
            let total = sd(values)
            resolvable = total > 0 ? sd(blurred) / total : nil
        }
        let contrast = best.score - (shape.median ?? best.score)
        let tooFine = (resolvable ?? 1) < minimumResolvableTexture
        let lowTexture = contrast < o.minimumCurveContrast || tooFine
        // Candidates: peaks within the margin; with a tap also peaks at
        // which the window's centre registers about as well as at the best
        // one (a repeat of the tapped pattern that scores lower only
        // because of what else the window shows).
        var supported = Set<Int>()
        if !lowTexture, window != nil {
            let centre = try centralSupport(coarse, q: curve[best.index].inverseDistance, stepQ: 1.5 / (rate * coarseScale))
            for p in peaks.dropFirst().prefix(6) where p.score < best.score - o.ambiguityMargin && p.score >= best.score - 0.4 {
                let c = try centralSupport(coarse, q: curve[p.index].inverseDistance, stepQ: 1.5 / (rate * coarseScale))
                if c >= 0.5, c >= 0.6 * centre { supported.insert(p.index) }
            }
        }
        let coarseCandidates = lowTexture ? [best]
            : Array(peaks.filter { $0.score >= best.score - o.ambiguityMargin || supported.contains($0.index) }
                .prefix(maximumCandidates))
        func candidate(_ peak: ScoreCurve.Peak) -> DistanceCandidate {
            DistanceCandidate(distance: curve[peak.index].distance, inverseDistance: curve[peak.index].inverseDistance,
                              score: peak.score)
        }
        let second = peaks.count > 1 ? peaks[1] : nil
        var result = AutoConvergenceResult(
            distance: curve[best.index].distance, score: best.score, curve: curve.reversed(), refinement: [],
            window: region, scoredIn: g.canvas, coarseScale: coarseScale, candidates: coarseCandidates.map(candidate),
            secondPeak: second.map(candidate), peakRatio: second.flatMap { best.score > 0 ? $0.score / best.score : nil },
            peakMargin: second.map { best.score - $0.score }, sharpnessPerPixel: nil, curveContrast: contrast,
            patternPeriodPixels: nil, lowTexture: lowTexture, fallbackReason: nil, supportFraction: nil, tap: nil,
            parallaxRate: rate, ambiguityMargin: o.ambiguityMargin)
        result.resolvableTexture = resolvable
        guard o.refine else { return finish(result, rate: rate) }

        // Refinement around each candidate, at full resolution (or the
        // largest power-of-two reduction that keeps the region within 1024
        // pixels on its longer side).
        let longer = Double(max(region.width, region.height))
        let area = Double(region.width * region.height)
        let fineScale = [1, 0.5, 0.25, 0.125].first { longer * $0 <= 1024 && area * $0 * $0 <= Self.fineLevelPixels } ?? 0.125
        // Regions up to 640x480 (taps, small pairs) are refined on the
        // registration the user sees (one undistort + warp table per step,
        // about 23 ns per level pixel); larger ones, refined at a reduced
        // level anyway, on the moving image undistorted once (one perspective
        // warp per step, ten times cheaper): 1920x1440 whole overlap, 10 steps
        // of 480x360, 18 ms instead of 40.
        let fineMode: SweepLevel.Mode = area <= Self.directRegionPixels ? .direct : .pretransformed
        var refined: [Refined] = []
        for c in coarseCandidates {
            let q0 = curve[c.index].inverseDistance
            let lo = max(qMin, q0 - 1.5 * dq), hi = min(qMax, q0 + 1.5 * dq)
            let fine = try SweepLevel(geometry: g, fixed: fixedImage, moving: movingImage, canvasScale: fineScale,
                                      movingScale: min(1, fineScale * magnification), region: region,
                                      inverseDistances: lo...hi, mode: fineMode)
            let fineSteps = min(61, max(7, Int(((hi - lo) * rate * fineScale / 0.2).rounded(.up)) + 1))
            let qs = (0..<fineSteps).map { $0 == fineSteps - 1 ? hi : lo + Double($0) * (hi - lo) / Double(fineSteps - 1) }
            var r = try refine(fine, qs, range: qMin...qMax, rate: rate, windowed: window != nil)
            r.bySupport = supported.contains(c.index)
            // The pixels that register at that distance: when part of the
            // window shows something else, refine on the subject alone.
            if window != nil, let warped = try fine.warpedValues(inverseDistance: r.candidate.inverseDistance) {
                let q = r.candidate.inverseDistance, step = 1.5 / rate  // 1.5 px of parallax
                let neighbours = try [q - step, q + step].filter { $0 >= 0 }.compactMap { try fine.warpedValues(inverseDistance: $0) }
                let keep = try SupportMask.agreeing(fixed: fine.fixedValues, moving: warped, neighbours: neighbours,
                                                    width: fine.fixed.image.width, height: fine.fixed.image.height)
                let valid = zip(fine.fixedValues, warped).filter { $0.isFinite && $1.isFinite }.count
                let fraction = valid > 0 ? Double(keep.filter { $0 }.count) / Double(valid) : 0
                r.support = fraction
                if fraction >= 0.25, fraction <= 0.9 {
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
                }
            }
            refined.append(r)
        }
        refined.sort { $0.candidate.score > $1.candidate.score }
        let top = refined[0]
        result.candidates = refined.filter { $0.bySupport || $0.candidate.score >= top.candidate.score - o.ambiguityMargin }
            .map(\.candidate)
        result.refinement = top.samples.reversed()
        result.sharpnessPerPixel = top.sharpness
        result.supportFraction = top.support
        result.resolvableTexture = resolvable
        return finish(result, rate: rate)
    }

    struct Refined {
        var candidate: DistanceCandidate
        var samples: [ConvergenceScore]
        var sharpness: Double?
        var support: Double?
        /// Kept because the window's centre registers there too (not by score).
        var bySupport = false
    }

    /// The fraction of the central part of the window (the middle half in
    /// each direction) that registers at q (`SupportMask`, against the
    /// moving image stepQ nearer and farther); 0 when nothing can be scored.
    static func centralSupport(_ level: SweepLevel, q: Double, stepQ: Double) throws -> Double {
        guard let warped = try level.warpedValues(inverseDistance: q) else { return 0 }
        let neighbours = try [q - stepQ, q + stepQ].filter { $0 >= 0 }.compactMap { try level.warpedValues(inverseDistance: $0) }
        let w = level.fixed.image.width, h = level.fixed.image.height
        let keep = try SupportMask.agreeing(fixed: level.fixedValues, moving: warped, neighbours: neighbours, width: w, height: h)
        var kept = 0, valid = 0
        for y in (h / 4)..<(h - h / 4) {
            for x in (w / 4)..<(w - w / 4) {
                let i = y * w + x
                guard level.fixedValues[i].isFinite, warped[i].isFinite else { continue }
                valid += 1
                if keep[i] { kept += 1 }
            }
        }
        return valid > 0 ? Double(kept) / Double(valid) : 0
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

    /// Sets the chosen distance from the candidates and the pattern period
    /// (median spacing of the candidates along q, in pixels of parallax).
    static func finish(_ r: AutoConvergenceResult, rate: Double) -> AutoConvergenceResult {
        var r = r
        r.distance = r.candidates[0].distance
        r.score = r.candidates[0].score
        if r.candidates.count > 1 {
            let qs = r.candidates.map(\.inverseDistance).sorted()
            let gaps = zip(qs, qs.dropFirst()).map { $1 - $0 }.sorted()
            r.patternPeriodPixels = gaps[gaps.count / 2] * rate
        }
        return r
    }

    /// Scores `level` at each inverse distance of `qs`. A sample counts only
    /// if at least `minCount` pixels overlap; by default a quarter of the
    /// window (`windowed`) or of the largest overlap in this scan (whole
    /// canvas, where the moving image may cover only part of it), and at
    /// least 16. Others score -1.
    static func scan(_ level: SweepLevel, _ qs: [Double], windowed: Bool,
                     minCount: Int? = nil) throws -> (scores: [ConvergenceScore], minCount: Int) {
        let raw = try qs.map { q in (q, try level.score(inverseDistance: q)) }
        let reference = windowed ? level.pixelCount : raw.map(\.1.count).max() ?? 0
        let threshold = minCount ?? max(16, reference / 4)
        let scores = try raw.map { q, r in
            ConvergenceScore(inverseDistance: q, distance: q > 0 ? try Distance(metres: 1 / q) : Distance.infinity,
                             score: r.count >= threshold ? r.score : -1)
        }
        return (scores, threshold)
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
