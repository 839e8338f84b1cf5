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

    /// The sweep over `region` of `g`'s canvas (nil: all of it): coarse
    /// scan, texture check, candidates, refinement of each.
    static func sweep(_ g: ConvergenceGeometry, wide: Image, tele: Image, region window: CanvasWindow?,
                      options o: AutoConvergenceOptions) throws -> AutoConvergenceResult {
        let s = try SweepSetup(g, wide: wide, tele: tele, region: window, options: o)
        let coarse = try SweepLevel(geometry: g, fixed: s.fixedImage, moving: s.movingImage, canvasScale: s.coarseScale,
                                    movingScale: min(1, s.coarseScale * s.magnification), region: s.region,
                                    inverseDistances: s.qMin...s.qMax, mode: .pretransformed)
        let steps = s.steps
        let coarseScan = try scan(coarse, (0..<steps).map { $0 == steps - 1 ? s.qMax : s.qMin + Double($0) * s.dq },
                                  windowed: s.windowed)
        let curve = coarseScan.scores
        let shape = ScoreCurve(curve.map(\.score))
        var peaks = shape.peaks(minimumProminence: o.ambiguityMargin / 2)
        if peaks.isEmpty, let top = shape.peaks(minimumProminence: 0).first { peaks = [top] }  // a flat curve
        guard let best = peaks.first, best.score > -1 else {
            throw ConvergenceError.noOverlap(
                "auto distance: the \(g.wideCamera) and \(g.teleCamera) views do not overlap in the scored region "
                    + "(\(s.region.width)x\(s.region.height) at \(s.region.x),\(s.region.y) of the \(g.canvas) view)")
        }
        let resolvable = s.windowed && s.magnification > 1.2 ? try resolvableTexture(s) : nil
        let contrast = best.score - (shape.median ?? best.score)
        let tooFine = (resolvable ?? 1) < minimumResolvableTexture
        let lowTexture = contrast < o.minimumCurveContrast || tooFine
        let supported = !lowTexture && s.windowed
            ? try supportedPeaks(coarse, curve: curve, peaks: peaks, setup: s, options: o) : Set<Int>()
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
            window: s.region, scoredIn: g.canvas, coarseScale: s.coarseScale, candidates: coarseCandidates.map(candidate),
            secondPeak: second.map(candidate), peakRatio: second.flatMap { best.score > 0 ? $0.score / best.score : nil },
            peakMargin: second.map { best.score - $0.score }, sharpnessPerPixel: nil, curveContrast: contrast,
            patternPeriodPixels: nil, lowTexture: lowTexture, fallbackReason: nil, supportFraction: nil, tap: nil,
            parallaxRate: s.rate, ambiguityMargin: o.ambiguityMargin)
        result.resolvableTexture = resolvable
        guard o.refine else { return finish(result, rate: s.rate) }

        var refined = try coarseCandidates.map { c in
            var r = try refineCandidate(q0: curve[c.index].inverseDistance, setup: s)
            r.bySupport = supported.contains(c.index)
            return r
        }
        refined.sort { $0.candidate.score > $1.candidate.score }
        let top = refined[0]
        result.candidates = refined.filter { $0.bySupport || $0.candidate.score >= top.candidate.score - o.ambiguityMargin }
            .map(\.candidate)
        result.refinement = top.samples.reversed()
        result.sharpnessPerPixel = top.sharpness
        result.supportFraction = top.support
        result.resolvableTexture = resolvable
        return finish(result, rate: s.rate)
    }

    /// What the stages of one sweep share: the scored region, the images in
    /// their roles, the inverse-distance range, the parallax rate and the
    /// coarse level's scale and steps.
    struct SweepSetup {
        let g: ConvergenceGeometry
        /// The scored view's image (the canvas) and the one warped onto it.
        let fixedImage: Image, movingImage: Image
        /// Relative magnification of the moving image in the canvas: it is
        /// resized to about the canvas level's sampling (never up).
        let magnification: Double
        let region: CanvasWindow
        /// A window (tap) rather than the whole canvas.
        let windowed: Bool
        let qMin: Double, qMax: Double
        /// Parallax rate (canvas px per 1/m) at the region's centre.
        let rate: Double
        let coarseScale: Double
        let steps: Int
        /// The coarse step in inverse distance.
        var dq: Double { (qMax - qMin) / Double(steps - 1) }

        init(_ g: ConvergenceGeometry, wide: Image, tele: Image, region window: CanvasWindow?,
             options o: AutoConvergenceOptions) throws {
            self.g = g
            qMin = o.far.isInfinite ? 0 : 1 / o.far.metres
            qMax = 1 / o.near.metres
            let canvas = g.canvasSize
            let region = window ?? CanvasWindow(x: 0, y: 0, width: canvas.width, height: canvas.height)
            self.region = region
            windowed = window != nil
            coarseScale = try Self.coarseScale(o, region: region, windowed: window != nil)
            magnification = g.fixedModel.intrinsics.fx / g.movingModel.intrinsics.fx
            fixedImage = g.canvas == .tele ? tele : wide
            movingImage = g.canvas == .tele ? wide : tele
            let centre = Vector2(Double(region.x) + Double(region.width - 1) / 2, Double(region.y) + Double(region.height - 1) / 2)
            let rate = max(1e-9, try g.parallaxPerInverseMetre(at: centre, around: (qMin + qMax) / 2).norm)
            self.rate = rate
            steps = try Self.coarseSteps(o, span: rate * coarseScale * (qMax - qMin))
        }

        /// The coarse level's scale: the option, or the largest power-of-two
        /// reduction keeping the region's shorter side at least 120 pixels
        /// (48 for a window).
        static func coarseScale(_ o: AutoConvergenceOptions, region: CanvasWindow, windowed: Bool) throws -> Double {
            let shorter = Double(min(region.width, region.height))
            return try o.coarseScale.map { s -> Double in
                guard s > 0, s <= 1 else {
                    throw ConvergenceError.invalidOption("auto distance: coarse scale must be in (0, 1], got \(s)")
                }
                return s
            } ?? [1, 0.5, 0.25, 0.125].last { shorter * $0 >= (windowed ? 48 : 120) } ?? 1
        }

        /// The coarse steps: the option, or steps of at most half a level
        /// pixel of parallax over `span` (level pixels), 64 to 1024.
        static func coarseSteps(_ o: AutoConvergenceOptions, span: Double) throws -> Int {
            if let n = o.coarseSteps {
                guard (2...100_000).contains(n) else {
                    throw ConvergenceError.invalidOption("auto distance: steps must be in 2...100000, got \(n)")
                }
                return n
            }
            return min(1024, max(64, Int((span / 0.5).rounded(.up)) + 1))
        }
    }

    /// How much of the window's texture the moving camera can resolve: the
    /// fraction of its standard deviation left after a blur to the moving
    /// camera's sampling (nil: the window is flat).
    static func resolvableTexture(_ s: SweepSetup) throws -> Double? {
        let level = try LevelImage.make(s.fixedImage, model: s.g.fixedModel, region: s.region, scale: 1)
        let values = try level.image.pixels(as: Float.self)
        let blurred = try ImageOps.gaussianBlur(level.image, sigma: 0.5 * s.magnification).pixels(as: Float.self)
        func sd(_ v: [Float]) -> Double {
            let f = v.filter(\.isFinite).map(Double.init)
            guard f.count > 1 else { return 0 }
            let m = f.reduce(0, +) / Double(f.count)
            return (f.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(f.count)).squareRoot()
        }
        let total = sd(values)
        return total > 0 ? sd(blurred) / total : nil
    }

    /// With a tap, the peaks beyond the margin at which the window's centre
    /// registers about as well as at the best one (a repeat of the tapped
    /// pattern that scores lower only because of what else the window shows).
    static func supportedPeaks(_ coarse: SweepLevel, curve: [ConvergenceScore], peaks: [ScoreCurve.Peak], setup s: SweepSetup,
                               options o: AutoConvergenceOptions) throws -> Set<Int> {
        let best = peaks[0]
        var supported = Set<Int>()
        let centre = try centralSupport(coarse, q: curve[best.index].inverseDistance, stepQ: 1.5 / (s.rate * s.coarseScale))
        for p in peaks.dropFirst().prefix(6) where p.score < best.score - o.ambiguityMargin && p.score >= best.score - 0.4 {
            let c = try centralSupport(coarse, q: curve[p.index].inverseDistance, stepQ: 1.5 / (s.rate * s.coarseScale))
            if c >= 0.5, c >= 0.6 * centre { supported.insert(p.index) }
        }
        return supported
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
}
