import DualcamGeometry
import DualcamImaging

/// Options of the automatic convergence distance (`--distance auto [--at x,y]`).
public struct AutoConvergenceOptions: Equatable, Sendable {
    /// Nearest distance swept (default 0.2 m).
    public var near: Distance
    /// Farthest distance swept (default infinity: the plane at infinity is a candidate).
    public var far: Distance
    /// Score only a window around this canvas pixel (tap-to-converge); nil
    /// scores the whole overlap.
    public var at: Vector2?
    /// Side of the window around `at`, canvas pixels (default 96).
    public var window: Int
    /// Coarse sweep steps; nil picks max(64, enough for a step to move the
    /// moving image by at most half a pixel of the coarse level), at most 1024.
    public var coarseSteps: Int?
    /// Resize factor of the canvas for the coarse sweep; nil picks the
    /// smallest of 1, 1/2, 1/4, 1/8 that keeps the scored region at least
    /// 48 pixels (window) or 120 pixels (whole overlap) on its shorter side.
    public var coarseScale: Double?
    /// Refine around the best coarse step at full resolution (default true).
    public var refine: Bool

    public init(near: Distance = try! Distance(metres: 0.2), far: Distance = .infinity, at: Vector2? = nil,
                window: Int = 96, coarseSteps: Int? = nil, coarseScale: Double? = nil, refine: Bool = true) {
        self.near = near
        self.far = far
        self.at = at
        self.window = window
        self.coarseSteps = coarseSteps
        self.coarseScale = coarseScale
        self.refine = refine
    }
}

/// One sample of the score curve.
public struct ConvergenceScore: Equatable, Sendable {
    /// q = 1/d in 1/m (0 for the plane at infinity); uniform along the sweep.
    public var inverseDistance: Double
    public var distance: Distance
    /// NCC between the registered grey images over the scored region, in
    /// [-1, 1]; -1 when fewer than a quarter of the region's pixels overlap.
    public var score: Double
}

/// What the automatic convergence chose and why.
public struct AutoConvergenceResult: Sendable {
    /// The chosen convergence distance.
    public var distance: Distance
    /// The score at `distance` (NCC at the refinement's resolution, or at the
    /// coarse level when not refined).
    public var score: Double
    /// The coarse sweep, nearest first (uniform in inverse distance).
    public var curve: [ConvergenceScore]
    /// The samples of the refinement (full resolution unless the scored region
    /// is longer than 1024 pixels), nearest first; empty when not refined.
    public var refinement: [ConvergenceScore]
    /// The scored region in canvas pixels (the whole canvas without `at`).
    public var window: CanvasWindow
    /// The canvas resize factor of the coarse sweep.
    public var coarseScale: Double
}

/// The automatic convergence distance: a plane sweep over inverse distance.
///
/// 1. Coarse: q = 1/d takes `coarseSteps` values uniformly from 1/far (0 for
///    infinity) to 1/near. For each, the moving image is warped onto the
///    canvas with the plane homography for d = 1/q and scored against the
///    canvas camera's image by zero-mean normalised cross-correlation over the
///    window (or the whole overlap), on a resized pair (`SweepLevel`).
/// 2. Refine: around the best coarse sample (+-1.5 steps), a finer sweep at
///    full resolution (reduced by powers of two when the scored region is
///    longer than 1024 pixels) with steps moving the image by at most 0.2
///    pixels; then a least-squares parabola through the best sample and its
///    neighbours (up to 2 on each side) gives the sub-step maximum, kept within
///    one fine step of the best sample.
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
    static func run(geometry g: ConvergenceGeometry, wide: Image, tele: Image,
                    options o: AutoConvergenceOptions) throws -> AutoConvergenceResult {
        guard o.near < o.far else {
            throw ConvergenceError.invalidOption("auto distance: near (\(o.near)) must be closer than far (\(o.far))")
        }
        let qMin = o.far.isInfinite ? 0 : 1 / o.far.metres, qMax = 1 / o.near.metres
        let canvas = g.canvasSize
        // The scored region in full-size canvas pixels.
        var window: CanvasWindow? = nil
        if let at = o.at {
            guard at.x.isFinite, at.y.isFinite, at.x >= 0, at.y >= 0,
                  at.x <= Double(canvas.width - 1), at.y <= Double(canvas.height - 1) else {
                throw ConvergenceError.invalidOption(
                    "auto distance: point (\(at.x), \(at.y)) is outside the \(canvas) canvas")
            }
            guard o.window >= 8 else {
                throw ConvergenceError.invalidOption("auto distance: window must be at least 8 pixels, got \(o.window)")
            }
            let side = min(o.window, canvas.width, canvas.height)
            let x0 = min(max(0, Int((at.x - Double(side) / 2 + 0.5).rounded(.down))), canvas.width - side)
            let y0 = min(max(0, Int((at.y - Double(side) / 2 + 0.5).rounded(.down))), canvas.height - side)
            window = CanvasWindow(x: x0, y: y0, width: side, height: side)
        }
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
        guard let best = curve.indices.max(by: { curve[$0].score < curve[$1].score }), curve[best].score > -1 else {
            throw ConvergenceError.noOverlap(
                "auto distance: the \(g.wideCamera) and \(g.teleCamera) views do not overlap in the scored region "
                    + "(\(region.width)x\(region.height) at \(region.x),\(region.y) of the \(g.canvas) canvas)")
        }
        var result = AutoConvergenceResult(distance: curve[best].distance, score: curve[best].score,
                                           curve: curve.reversed(), refinement: [], window: region,
                                           coarseScale: coarseScale)
        guard o.refine else { return result }

        // Refinement around the best coarse sample, at full resolution (or the
        // largest power-of-two reduction that keeps the region within 1024
        // pixels on its longer side).
        let longer = Double(max(region.width, region.height))
        let fineScale = [1, 0.5, 0.25, 0.125].first { longer * $0 <= 1024 } ?? 0.125
        let lo = max(qMin, curve[best].inverseDistance - 1.5 * dq)
        let hi = min(qMax, curve[best].inverseDistance + 1.5 * dq)
        let fine = try SweepLevel(geometry: g, fixed: fixedImage, moving: movingImage, canvasScale: fineScale,
                                  movingScale: min(1, fineScale * magnification), region: region,
                                  inverseDistances: lo...hi, mode: .direct)
        let fineSteps = min(61, max(7, Int(((hi - lo) * rate * fineScale / 0.2).rounded(.up)) + 1))
        let df = (hi - lo) / Double(fineSteps - 1)
        let fineScan = try scan(fine, (0..<fineSteps).map { $0 == fineSteps - 1 ? hi : lo + Double($0) * df },
                                windowed: window != nil)
        let samples = fineScan.scores
        let j = samples.indices.max { samples[$0].score < samples[$1].score }!
        var q = samples[j].inverseDistance
        if samples[j].score > -1, let offset = parabolaPeak(samples.map(\.score), around: j) {
            q = min(qMax, max(qMin, q + offset * df))
        }
        let chosen = try scan(fine, [q], windowed: window != nil, minCount: fineScan.minCount).scores[0]
        if chosen.score > -1 {
            result.distance = chosen.distance
            result.score = chosen.score
        }
        result.refinement = samples.reversed()
        return result
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
    /// (those that exist, at least 3, t relative to j); nil when the fit has
    /// no maximum (c >= 0) or too few samples.
    static func parabolaPeak(_ scores: [Double], around j: Int) -> Double? {
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
        return min(1, max(-1, -coef.y / (2 * coef.z)))
    }
}
