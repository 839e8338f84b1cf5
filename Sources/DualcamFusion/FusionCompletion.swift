import DualcamOpenCV
import DualcamGeometry
import Foundation

/// The dense fills of `DepthFusion` over the output grid: the residual
/// field in inverse depth (where stereo is affine), the value fills in log
/// inverse depth (a geometric mean: averaging inverse depth across an edge
/// favours the nearer surface, averaging depth the farther one, log is
/// symmetric), as confidence-weighted fast-global-smoother passes guided by
/// the colour image (see `DepthFusion` for why).
struct FusionCompletion {
    let size: PixelSize
    let guide: CVMat
    let guideRGB: [UInt8]

    /// The guide prepared per colour sigma (`CVEdgeAware.SmootherGuide`):
    /// fills with the same guide and sigma share its affinities.
    private let prepared = PreparedGuides()

    init(size: PixelSize, guideRGB: [UInt8]) throws {
        self.size = size
        self.guideRGB = guideRGB
        guide = try FloatMaps.mat(bytes: guideRGB, channels: 3, size)
    }

    /// Makes the guides that fills with these smoothers will need (see
    /// `PreparedGuides`): they depend only on the image, so `DepthFusion`
    /// prepares them while the fit and the sample verification run.
    func prepare(_ smoothers: [CVEdgeAware.SmootherParameters], halfResolution: [CVEdgeAware.SmootherParameters]) throws {
        for p in smoothers { _ = try prepared.guide(guide, sigmaColor: p.sigmaColor) }
        for p in halfResolution { _ = try prepared.halfResolutionGuide(guide, sigmaColor: p.sigmaColor) }
    }

    /// The same completion guided by luma and a depth estimate: channels
    /// (Y, c, c) with c = 255 (log v - log v_min) / (log v_max - log v_min)
    /// of `inverse` (NaN = luma only there), so depth edges stop the fill even
    /// where colour does not change and texture inside a surface matters less.
    func withDepthGuide(_ inverse: [Float], depthGain: Float) throws -> FusionCompletion {
        var lo = Float.infinity, hi = -Float.infinity
        for v in inverse where v.isFinite && v > 0 {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        guard lo.isFinite, hi > lo else { return self }
        let a = log(lo), scale = Self.guideLevels / (log(hi) - a) * depthGain
        var bytes = [UInt8](repeating: 0, count: inverse.count * 3)
        // One log per pixel: on two threads.
        bytes.withUnsafeMutableBufferPointer { bytes in
            guideRGB.withUnsafeBufferPointer { rgb in
                Concurrently.inHalves(inverse.count) { range in
                    for p in range {
                        let r = Float(rgb[3 * p]), g = Float(rgb[3 * p + 1]), b = Float(rgb[3 * p + 2])
                        let luma = UInt8(min(Self.guideLevels, max(0, Self.lumaWeights.r * r + Self.lumaWeights.g * g + Self.lumaWeights.b * b)))
                        let v = inverse[p]
                        let c = v.isFinite && v > 0 ? UInt8(min(Self.guideLevels, max(0, (log(v) - a) * scale))) : 0
                        bytes[3 * p] = luma
                        bytes[3 * p + 1] = c
                        bytes[3 * p + 2] = c
                    }
                }
            }
        }
        return FusionCompletion(size: size, guide: try FloatMaps.mat(bytes: bytes, channels: 3, size), guideRGB: guideRGB)
    }

    private init(size: PixelSize, guide: CVMat, guideRGB: [UInt8]) {
        self.size = size
        self.guide = guide
        self.guideRGB = guideRGB
    }

    /// D + R: the globally aligned stereo `stereo` (NaN = missing) plus the
    /// edge-aware fill of the sample residuals v_i - D(p_i), shrunk towards
    /// the global fit: R = FGS(w r) / FGS(w) x W / (W + `priorWeight`), W =
    /// FGS(w) the sample weight reaching the pixel per half-resolution pixel
    /// (the global fit as a prior of that weight); R = 0 where no residual
    /// reaches. Where few samples reach, their mean residual is mostly their
    /// own noise and the global fit is the better guess.
    func locallyAligned(stereo: [Float], sampleValue: [Float], sampleWeight: [Float],
                        smoother: CVEdgeAware.SmootherParameters, priorWeight: Float) throws -> [Float] {
        let n = stereo.count
        var residual = [Float](repeating: 0, count: n)
        var weight = [Float](repeating: 0, count: n)
        for p in 0..<n where sampleWeight[p] > 0 && stereo[p].isFinite {
            residual[p] = sampleValue[p] - stereo[p]
            weight[p] = sampleWeight[p]
        }
        // The residual field varies slowly: solve it at half resolution (a
        // quarter of the work) and interpolate it back.
        return FloatMaps.plusFinite(stereo, try smoothAtHalfResolution(residual, weight, smoother, priorWeight: priorWeight))
    }

    /// The stereo on its surfaces: S = the edge-aware fill of `stereo`
    /// (inverse depth, NaN = missing) with `weight`, which averages the
    /// per-pixel stereo noise over each surface (dense and symmetric, so
    /// planes stay planes), then S + R with R the short-range fill of the
    /// sample residuals v_i - S(p_i), which puts S back onto the samples.
    /// NaN where S has no support.
    func smoothedStereo(_ stereo: [Float], weight: [Float], sampleValue: [Float], sampleWeight: [Float],
                        smoother: CVEdgeAware.SmootherParameters,
                        residualSmoother: CVEdgeAware.SmootherParameters) throws -> [Float] {
        let n = stereo.count
        var values = [Float](repeating: 0, count: n), weights = [Float](repeating: 0, count: n)
        for p in 0..<n where stereo[p].isFinite {
            values[p] = stereo[p]
            weights[p] = weight[p]
        }
        let s = try smooth(values, weights, smoother)
        var residual = [Float](repeating: 0, count: n), residualWeight = [Float](repeating: 0, count: n)
        for p in 0..<n where sampleWeight[p] > 0 && s[p].isFinite {
            residual[p] = sampleValue[p] - s[p]
            residualWeight[p] = sampleWeight[p]
        }
        return FloatMaps.plusFinite(s, try smooth(residual, residualWeight, residualSmoother))
    }

    /// `smooth` on the 2x2-pooled grid (weights summed, values weight-averaged,
    /// the guide area-resized, lambda / 4 for the same reach in full-size
    /// pixels), bilinearly interpolated back; empty pixels are 0. With a
    /// `priorWeight` W0, each filled value v of normalizer W becomes
    /// v W / (W + W0): a prior value 0 of weight W0.
    func smoothAtHalfResolution(_ values: [Float], _ weights: [Float], _ p: CVEdgeAware.SmootherParameters,
                                priorWeight: Float = 0) throws -> [Float] {
        let w = size.width, h = size.height, hw = (w + 1) / 2, hh = (h + 1) / 2
        var pooledValue = [Float](repeating: 0, count: hw * hh), pooledWeight = [Float](repeating: 0, count: hw * hh)
        for y in 0..<h {
            for x in 0..<w where weights[y * w + x] > 0 {
                let q = (y / 2) * hw + x / 2
                pooledWeight[q] += weights[y * w + x]
                pooledValue[q] += weights[y * w + x] * values[y * w + x]
            }
        }
        for q in pooledValue.indices where pooledWeight[q] > 0 { pooledValue[q] /= pooledWeight[q] }
        let half = halfSize
        let fill = try halfResolutionFill(pooledValue, pooledWeight, p)
        let filled = zip(fill.values, fill.weight).map { v, weight -> Float in
            guard v.isFinite else { return 0 }
            return priorWeight > 0 ? v * weight / (weight + priorWeight) : v
        }
        return FloatMaps.floats(try CVImgproc.resize(try FloatMaps.mat(filled, half), width: w, height: h, interpolation: .linear))
    }

    /// The grid of the half-resolution fills: ((w + 1) / 2, (h + 1) / 2).
    var halfSize: PixelSize { PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2) }

    /// The guide area-resized to `halfSize` (made once, shared with the half-resolution fills).
    func halfResolutionGuideImage() throws -> CVMat { try prepared.halfImage(guide) }

    /// The confidence-weighted fill (FGS(w v) / FGS(w), and FGS(w)) of
    /// `values` on the `halfSize` grid, guided by the area-reduced guide,
    /// with lambda / 4 for the same reach in full-size pixels; NaN where the
    /// normalizer is at most `minimumWeight`.
    func halfResolutionFill(_ values: [Float], _ weights: [Float], _ p: CVEdgeAware.SmootherParameters,
                            minimumWeight: Double = minimumFillWeight) throws -> (values: [Float], weight: [Float]) {
        var q = p
        q.lambda = p.lambda / Self.halfResolutionLambdaDivisor
        let result = try prepared.halfResolutionGuide(guide, sigmaColor: q.sigmaColor).fill(
            values: try FloatMaps.mat(values, halfSize), weights: try FloatMaps.mat(weights, halfSize), parameters: q,
            minimumWeight: minimumWeight)
        return (FloatMaps.floats(result.values), FloatMaps.floats(result.weight))
    }

    /// The fill of the stereo (weight `stereoWeight` where finite) together
    /// with the samples (weight `sampleWeight`), in log inverse depth: per
    /// pixel the weighted geometric mean of the two, then the log-domain fill.
    func fill(stereo: [Float], stereoWeight: [Float], sampleValue: [Float], sampleWeight: [Float],
              smoother: CVEdgeAware.SmootherParameters) throws -> [Float] {
        let n = stereo.count
        var value = [Float](repeating: 0, count: n)
        var weight = [Float](repeating: 0, count: n)
        for p in 0..<n {
            let ws = sampleWeight[p]
            let wd: Float = stereo[p].isFinite ? stereoWeight[p] : 0
            let w = ws + wd
            guard w > 0 else { continue }
            weight[p] = w
            if ws > 0 && wd > 0 {
                value[p] = exp((ws * log(max(sampleValue[p], FusionConstants.logDomainFloor))
                    + wd * log(max(stereo[p], FusionConstants.logDomainFloor))) / w)
            } else {
                value[p] = max(ws > 0 ? sampleValue[p] : stereo[p], FusionConstants.logDomainFloor)
            }
        }
        return try smooth(value, weight, smoother, logDomain: true)
    }

    /// The fill of the samples alone (log inverse depth).
    func fillSamples(sampleValue: [Float], sampleWeight: [Float],
                     smoother: CVEdgeAware.SmootherParameters) throws -> [Float] {
        try smooth(sampleValue.map { max($0, FusionConstants.logDomainFloor) }, sampleWeight, smoother, logDomain: true)
    }

    /// The 8-bit guide's levels: the depth channel spans them all.
    static let guideLevels: Float = 255
    /// Rec. 601 luma (OpenCV's RGB to grey) for the depth guide's luma channel.
    static let lumaWeights: (r: Float, g: Float, b: Float) = (0.299, 0.587, 0.114)
    /// The smoother's lambda weighs squared neighbour distances: on the
    /// half-size grid a quarter of it reaches as far in full-size pixels.
    static let halfResolutionLambdaDivisor = 4.0

    /// The smoothers blend near and far surfaces at depth discontinuities
    /// into "flying pixels" that belong to neither, and the fills put whole
    /// pixels on the wrong side; this last pass puts each pixel of a window
    /// spanning a large depth ratio onto the near or the far surface,
    /// whichever a colour vote of its neighbourhood picks
    /// (`CVEdgeAware.relabelDepthEdges`). Interior pixels are untouched.
    /// Stage "relabel edges" of `DepthFusion`; pixels where `keeping` is
    /// true keep their value.
    func relabelEdges(_ depthMetres: [Float], keeping: [Bool], _ o: DepthFusion.EdgeRelabel) throws -> [Float] {
        let relabelled = FloatMaps.floats(try CVEdgeAware.relabelDepthEdges(
            guide: guide, depthMetres: try FloatMaps.mat(depthMetres, size), radius: o.radius, voteRadius: o.voteRadius,
            sigma: o.sigma, lumaWeight: o.lumaWeight, minimumRatio: o.ratio, margin: o.margin, iterations: o.iterations))
        // The relabelled map, with the kept pixels and the slanted
        // surfaces' pixels put back.
        var depth = relabelled
        if let tolerance = o.planeTolerance {
            SlantedWindows(size: size, radius: o.radius, tolerance: Float(tolerance)).restore(&depth, original: depthMetres)
        }
        depth.withUnsafeMutableBufferPointer { depth in
            depthMetres.withUnsafeBufferPointer { original in
                keeping.withUnsafeBufferPointer { keeping in
                    for p in 0..<depth.count where keeping[p] { depth[p] = original[p] }
                }
            }
        }
        return depth
    }

    /// Where the fills' normalizer FGS(w) is at most this, they leave the
    /// pixel empty: values spread that far from any weight are worse than
    /// the hole fill's.
    static let minimumFillWeight = 1e-3

    /// The fill's values (its normalizer stays in OpenCV: no fill here uses it).
    private func smooth(_ values: [Float], _ weights: [Float], _ p: CVEdgeAware.SmootherParameters, logDomain: Bool = false) throws
        -> [Float] {
        let result = try prepared.guide(guide, sigmaColor: p.sigmaColor).fill(
            values: try FloatMaps.mat(values, size), weights: try FloatMaps.mat(weights, size), parameters: p, minimumWeight: Self.minimumFillWeight,
            logDomain: logDomain)
        return FloatMaps.floats(result.values)
    }
}

/// `CVEdgeAware.SmootherGuide`s of one guide image (and of its 2x2
/// area-reduced copy), made on first use per colour sigma or ahead of time by
/// `prepare`. Locked: `DepthFusion` prepares guides on one thread while
/// other stages run, then fills on two guides at once.
private final class PreparedGuides: @unchecked Sendable {
    private struct Key: Hashable {
        var sigmaColor: Double
        var halfResolution: Bool
    }
    private var guides: [Key: CVEdgeAware.SmootherGuide] = [:]
    private let lock = NSLock()

    func guide(_ image: CVMat, sigmaColor: Double) throws -> CVEdgeAware.SmootherGuide {
        try guide(Key(sigmaColor: sigmaColor, halfResolution: false)) { image }
    }

    /// The guide of `halfImage(image)`.
    func halfResolutionGuide(_ image: CVMat, sigmaColor: Double) throws -> CVEdgeAware.SmootherGuide {
        try guide(Key(sigmaColor: sigmaColor, halfResolution: true)) { try halfImage(image) }
    }

    private var half: CVMat?

    /// `image` (always this instance's one guide image) area-resized to
    /// ((w + 1) / 2, (h + 1) / 2), made once: the half-resolution fills'
    /// guides and the plane extension's colour share it.
    func halfImage(_ image: CVMat) throws -> CVMat {
        if let half = lock.withLock({ half }) { return half }
        let made = try CVImgproc.resize(image, width: (image.cols + 1) / 2, height: (image.rows + 1) / 2, interpolation: .area)
        return lock.withLock {
            if let half { return half }
            half = made
            return made
        }
    }

    private func guide(_ key: Key, _ image: () throws -> CVMat) throws -> CVEdgeAware.SmootherGuide {
        if let hit = lock.withLock({ guides[key] }) { return hit }
        // Made outside the lock (a fill on a prepared guide need not wait);
        // two threads asking for the same new guide would both make it, the
        // same one, and the first stored is kept.
        let made = try CVEdgeAware.SmootherGuide(guide: try image(), sigmaColor: key.sigmaColor)
        return lock.withLock {
            if let hit = guides[key] { return hit }
            guides[key] = made
            return made
        }
    }
}


