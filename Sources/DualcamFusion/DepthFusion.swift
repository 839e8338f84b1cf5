import DualcamCV
import DualcamGeometry
import DualcamSupport
import Foundation

/// Sparse metric samples + wide colour image (+ optional stereo) -> dense metric depth.
///
/// Everything runs in inverse depth v = 1/z (1/m), where stereo is affine in
/// the truth and planes are linear in pixel coordinates:
///
/// 1. Verify samples: robust global alignment of the stereo (IRLS with Tukey
///    weights, LAPACK solves; `ScaleShiftFitter`) flags samples far off the
///    aligned stereo; a neighbour test (`SampleVerifier`) flags samples that
///    agree with none of their neighbours.
/// 2. Align: D = s d + t for every stereo pixel. What one global fit misses
///    (a slowly varying stereo bias, e.g. from a slightly wrong rectification)
///    is the residual field R: the sample residuals v_i - D(p_i) spread with
///    a confidence-weighted edge-aware fill. This is a per-pixel local
///    alignment, which subsumes a per-region fit.
/// 3. Smooth the stereo on its surfaces: S = edge-aware fill of D + R,
///    weighted by its agreement with a samples-only fill (edge fattening and
///    mismatches disagree), which averages the per-pixel stereo noise over
///    each surface; being dense and symmetric it keeps planes planar, where
///    spreading sparse samples with a constant prior bends slanted surfaces.
///    S + R', R' a short-range fill of the sample residuals against S, puts
///    it back onto the samples.
/// 4. Complete: one more confidence-weighted fill of S + R' with the samples
///    in log inverse depth, guided by the colour image and the stereo's depth
///    edges. Stereo weight: inverse variance against a sample (sample sigma
///    noise v^2, stereo sigma the robust residual), at least a floor where the
///    stereo agrees with the samples or lies far from them. Without stereo
///    the samples alone are filled.
/// 5. Local planes: where the samples around a pixel lie on one plane
///    (linear in inverse depth) that agrees with the fill there, the pixel
///    takes that plane (`LocalPlanes`): the fills are piecewise smooth, not
///    piecewise linear, and keep stereo noise at the scale of the texture on
///    slanted surfaces (room 2 %: interior RMSE 3.3 -> 1.8 cm).
/// 6. Edge relabelling: the fills blend or swap surfaces at depth
///    discontinuities; every pixel of a depth-edge region is put on the near
///    or far side by a chroma-weighted colour vote (`FusionCompletion.relabelEdges`).
///
/// Why the fast global smoother (ximgproc FGS, Min et al. 2014) with the
/// normalization of the WLS disparity filter, out = FGS(w v) / FGS(w): it is
/// the confidence-weighted edge-aware least squares solve (the Levin
/// colorization / WLS energy) done as separable 1-D passes in O(N), a few ms
/// at 320x240, where a sparse solve would take seconds; the guided filter
/// blurs across edges at the window size and cannot propagate beyond it.
/// The solves run in `CVEdgeAware.SmootherGuide`, ximgproc's FGS arithmetic
/// with a guide's affinities computed once and shared by the fills on that
/// guide (OpenCV's filter object binds them to one lambda); it is tested
/// against `CVEdgeAware.smootherFill` (ximgproc itself).
/// IP-Basic morphology (`FusionCompletion.morphological`) is faster still but
/// ignores the image; it is offered for samples-only use and serves as the
/// last resort where the edge-aware fill leaves pixels empty.
///
/// Speed (issue 6: 320x240 in at most 15 ms on 2 cores): the guides of the
/// first fills depend only on the image and are prepared on another thread
/// while the fit and the verification run; the distance to the samples, the
/// samples-only fill and the locally aligned stereo run at once; per-pixel
/// exp/log loops run in two halves. Results do not depend on the threads.
///
/// Confidence: high within `highRadius` pixels of a verified sample of
/// confidence >= `lowSampleConfidence` whose value the output reproduces within
/// max(`highTolerance`, `highNoiseSigmas` sample sigmas); medium within
/// `mediumRadius` of any used sample, or where the aligned stereo agrees with
/// the output within `stereoTolerance`; low elsewhere. Unfiltered output =
/// filtered where high, NaN elsewhere.
public enum DepthFusion {
    /// How samples alone are completed.
    public enum SamplesOnlyCompletion: String, Equatable, Sendable, CaseIterable {
        /// The confidence-weighted edge-aware fill guided by the colour image (default).
        case guided
        /// IP-Basic-style morphology (OpenCV dilations, closing, median, blur):
        /// faster, ignores the image; nearer surfaces win at edges.
        case morphology
    }

    public struct Options: Equatable, Sendable {
        public var samplesOnlyCompletion = SamplesOnlyCompletion.guided
        /// Focal length in output pixels (for the neighbour test's slope bound).
        public var focalPixels: Double
        public var residualSmoother = CVEdgeAware.SmootherParameters(lambda: 600, sigmaColor: 12, iterations: 2)
        public var fillSmoother = CVEdgeAware.SmootherParameters(lambda: 60, sigmaColor: 8, iterations: 2)
        /// The completion of samples alone (the output when there is no stereo).
        public var samplesOnlySmoother = CVEdgeAware.SmootherParameters(lambda: 300, sigmaColor: 10)
        /// The samples-only fill that the stereo is compared with (its
        /// agreement weight): one pass, whose wider blur at edges makes the
        /// comparison more tolerant there (room 2 %: RMSE 0.162 -> 0.145 m
        /// against three passes).
        public var samplesReferenceSmoother = CVEdgeAware.SmootherParameters(lambda: 300, sigmaColor: 10, iterations: 1)
        /// The smoothing of the locally aligned stereo on its surfaces
        /// (inverse depth, weighted by its agreement with the samples-only
        /// fill) and the short-range fill of the sample residuals against it.
        public var stereoSmoother = CVEdgeAware.SmootherParameters(lambda: 300, sigmaColor: 8, iterations: 1)
        public var stereoResidualSmoother = CVEdgeAware.SmootherParameters(lambda: 8, sigmaColor: 8, iterations: 1)
        /// Floor of the smoothed stereo's weight in the final fill (relative
        /// to a sample of confidence 1), times its agreement with the
        /// samples-only fill or, far from samples (where that fill is
        /// uncertain), min(1, distance / `smoothedStereoSampleDistance` px).
        public var smoothedStereoWeight = 0.2
        public var smoothedStereoSampleDistance = 4.0
        /// The stereo's agreement (times its confidence) where the
        /// samples-only fill has no value: no sample reaches there (beyond
        /// the sensor's range, or walled in by edges), so nothing contradicts
        /// the stereo. With 0 it was dropped there and the surface took the
        /// nearest samples' depth: the room's 6 m wall with samples limited
        /// to 5 m came out 1.5 m short (abs rel 25 % beyond 5.1 m against
        /// 1.9 % now). 0.25 rather than 1: the same figures, `--tele` abs rel
        /// 1.18 % against 1.21 %.
        public var unreachedStereoAgreement = 0.25
        /// The half-resolution fill of holes that neither stereo nor samples
        /// reach (`FusionCompletion.fillWideHoles`), with stereo only. With
        /// `--tele` stereo and samples up to 5 m, beyond 5.1 m in the room:
        /// abs rel 14.3 -> 11.6 % (lambda 600: the same; 9600: 12.6 %; colour
        /// sigma 24: 15.2 %); nil leaves them to the last-resort morphology.
        public var wideHoleSmoother: CVEdgeAware.SmootherParameters? = .init(lambda: 2400, sigmaColor: 12, iterations: 2)
        /// Weight of a stereo pixel relative to a sample of confidence 1, before inverse-variance weighting.
        public var stereoWeight = 0.05
        /// The samples' depth noise (sigma, metres) for the inverse-variance weighting.
        public var sampleNoiseMetres = 0.01
        /// Weight of the aligned stereo's depth edges in the final fill's guide (0: colour only).
        public var depthGuideGain = 1.0
        public var highRadius = 1.5
        public var mediumRadius = 4.0
        public var highTolerance = 0.01
        /// High confidence also allows the samples' noise: tolerance max(highTolerance, highNoiseSigmas sampleNoise / z).
        public var highNoiseSigmas = 2.0
        public var stereoTolerance = 0.03
        /// The final edge relabelling (`FusionCompletion.relabelEdges`; not
        /// after the morphological fill, where the nearer surface already wins).
        public var edgeRelabel = EdgeRelabel()
        /// Samples below this confidence never make a pixel high-confidence.
        public var lowSampleConfidence = 0.4
        public var fitOptions = ScaleShiftFitter.Options()
        /// Planes through the samples where the surface is one (`LocalPlanes`); nil turns them off.
        public var localPlanes: LocalPlanes? = LocalPlanes()

        public init(focalPixels: Double) { self.focalPixels = focalPixels }
    }

    /// Parameters of the edge relabelling (`CVEdgeAware.relabelDepthEdges`):
    /// a pixel whose (2 radius + 1)^2 window spans max/min >= `ratio` is put on
    /// the near or far side by a colour vote over (2 voteRadius + 1)^2 (pixels
    /// more than `margin` of the log range from both extremes do not vote).
    /// The colour distance weighs luma by `lumaWeight` against chroma: texture
    /// and shading change luma inside a surface far more than chroma, while
    /// object boundaries usually change chroma.
    public struct EdgeRelabel: Equatable, Sendable {
        /// 0 turns the pass off.
        public var radius = 2
        public var voteRadius = 5
        /// Colour sigma, 8-bit units.
        public var sigma = 10.0
        public var lumaWeight = 0.1
        public var ratio = 1.15
        public var margin = 0.1
        public var iterations = 1
        public init() {}
    }

    public static func fuse(_ input: FusionInput, options: Options) throws -> FusionResult {
        let size = input.size
        let n = size.width * size.height
        guard input.guideRGB.count == n * 3 else {
            throw DualcamError.invalidValue(name: "guide image", reason: "expected \(size) RGB pixels")
        }
        if let stereo = input.stereo, stereo.count != n {
            throw DualcamError.invalidValue(name: "stereo", reason: "expected \(size) values, got \(stereo.count)")
        }
        guard !input.samples.isEmpty else {
            throw DualcamError.invalidValue(name: "samples", reason: "no samples inside the image")
        }
        var timings = FusionTimings()
        let samples = input.samples
        // Checked placement (non-finite values are an error, not a trap).
        let pixel = try samples.indices.map { try SampleMerging.pixelIndex(samples[$0], index: $0, size: size) }

        // The fills' guides depend only on the image: they are prepared on
        // another thread while the fit and the verification run.
        let completion = try FusionCompletion(size: size, guideRGB: input.guideRGB)
        let morphology = input.stereo == nil && options.samplesOnlyCompletion == .morphology
        let firstFill = input.stereo == nil ? options.samplesOnlySmoother : options.samplesReferenceSmoother
        let guides = BackgroundStage {
            try completion.prepare(morphology ? [] : [firstFill], halfResolution: input.stereo == nil ? [] : [options.residualSmoother])
        }
        defer { try? guides.wait() }

        // 1. Verification and alignment.
        var clock = Stopwatch()
        var fit: ScaleShiftFit?
        var gross = [Bool](repeating: false, count: samples.count)
        if let stereo = input.stereo {
            let pairs = samples.indices.map { i in
                InverseDepthPair(relative: Double(stereo[pixel[i]]), inverseDepth: 1 / samples[i].depthMetres,
                                 weight: max(0.05, samples[i].confidence))
            }
            let f = try ScaleShiftFitter.fit(pairs, options: options.fitOptions)
            for i in samples.indices where pairs[i].relative.isFinite && !f.inliers[i] { gross[i] = true }
            fit = f
        }
        timings.alignMilliseconds = clock.lap()
        var verifier = SampleVerifier(focalPixels: options.focalPixels)
        verifier.noiseMetres = options.sampleNoiseMetres
        // A sample the aligned stereo contradicts is an outlier unless its
        // neighbours confirm it (the stereo itself fails near depth edges);
        // then it is used for the fill but not trusted for high confidence.
        let verdicts = verifier.verify(samples, size: size).enumerated().map { i, v in
            gross[i] ? (v == .verified ? SampleVerdict.unverified : .outlier) : v
        }
        try guides.wait()
        timings.verifyMilliseconds = clock.lap()

        // Rasterize the used samples: confidence-weighted mean inverse depth
        // per pixel; the residual field only takes samples the global fit kept
        // (a sample on a fattened stereo edge would spread a false correction).
        let all = Raster(samples: samples, pixels: pixel, count: n) { verdicts[$0] != .outlier }
        // Nothing may leave the range the used samples span (with a margin):
        // a near-empty normalizer amplifies rounding into absurd values, and
        // a stereo value far outside it (a match at the image border with
        // almost no disparity: 1e5 m) would flatten the depth guide's scale.
        let used = samples.indices.filter { verdicts[$0] != .outlier }.map { Float(1 / samples[$0].depthMetres) }
        let lowest = 0.5 * (used.min() ?? 0), highest = 2 * (used.max() ?? .infinity)
        let fitted = Raster(samples: samples, pixels: pixel, count: n) { verdicts[$0] != .outlier && !gross[$0] }

        // 2-3. Completion in inverse depth. The distance to the samples, the
        // samples-only fill and the locally aligned stereo are independent:
        // they run at once.
        var distance: [Float] = []
        var inverse: [Float] = []
        var d: [Float] = [], corrected: [Float] = []
        var stages: [() throws -> Void] = [
            { distance = try FusionConfidence.distanceToSamples(size: size, pixels: pixel) { verdicts[$0] != .outlier } },
            {
                if morphology {
                    let sparse = (0..<n).map { all.weight[$0] > 0 ? 1 / all.value[$0] : Float.nan }
                    let maxDepth = Double(sparse.lazy.filter(\.isFinite).max() ?? 10)
                    inverse = try FusionCompletion.morphological(sampleDepth: sparse, size: size, maxDepth: maxDepth)
                        .map { $0.isFinite && $0 > 0 ? 1 / $0 : .nan }
                } else {
                    inverse = try completion.fillSamples(sampleValue: all.value, sampleWeight: all.weight, smoother: firstFill)
                }
            },
        ]
        if let stereo = input.stereo, let fit {
            stages.append {
                d = stereo.map { v -> Float in
                    let a = Float(fit.apply(Double(v)))
                    return v.isFinite && a >= lowest && a <= highest ? a : .nan
                }
                corrected = try completion.locallyAligned(stereo: d, sampleValue: fitted.value, sampleWeight: fitted.weight,
                                                          smoother: options.residualSmoother)
            }
        }
        try Concurrently.run(stages)
        var aligned: [Float]?
        if input.stereo != nil {
            aligned = corrected
            inverse = try fillWithStereo(d: d, corrected: corrected, inverse: inverse, distance: distance, all: all, fitted: fitted,
                                         samples: samples, pixel: pixel, verdicts: verdicts, gross: gross,
                                         stereoConfidence: input.stereoConfidence, completion: completion, options: options)
        }
        // Local planes of the samples replace the fill where they apply.
        if let planes = options.localPlanes, !(input.stereo == nil && options.samplesOnlyCompletion == .morphology) {
            let fitted = planes.fit(reference: inverse, size: size, samples: samples,
                                    sampleNoiseMetres: options.sampleNoiseMetres) { verdicts[$0] != .outlier }
            inverse.withUnsafeMutableBufferPointer { inverse in
                for p in 0..<n where fitted[p].isFinite { inverse[p] = fitted[p] }
            }
        }
        inverse.withUnsafeMutableBufferPointer { v in
            for p in 0..<n {
                v[p] = v[p].isFinite && v[p] >= lowest && v[p] <= highest ? v[p] : (v[p].isFinite ? min(max(v[p], lowest), highest) : .nan)
            }
        }
        // (Samples alone keep the morphology: on the 24x24 grid the wide-hole
        // fill measured RMSE 0.429 -> 0.590 m, abs rel 5.48 -> 5.07 %.)
        inverse = try completion.fillRemainingHoles(inverse, wideHoleSmoother: input.stereo == nil ? nil : options.wideHoleSmoother)
        var depth = inverse.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        timings.completeMilliseconds = clock.lap()

        // Confidence and the unfiltered selection.
        let confidence = try FusionConfidence.levels(
            size: size, inverse: inverse, aligned: aligned, distance: distance, samples: samples, pixels: pixel, verdicts: verdicts,
            options: options)
        // Edge relabelling of the filtered output; high-confidence pixels (the
        // unfiltered output, backed by consistent samples) keep their value.
        // (Not at the same time as the levels: the relabelling runs on
        // OpenCV's threads, and the two at once measured slower.)
        if options.edgeRelabel.radius > 0 && !(input.stereo == nil && options.samplesOnlyCompletion == .morphology) {
            let relabelled = try completion.relabelEdges(depth, options.edgeRelabel)
            depth.withUnsafeMutableBufferPointer { depth in
                relabelled.withUnsafeBufferPointer { relabelled in
                    confidence.withUnsafeBufferPointer { confidence in
                        for p in 0..<n where confidence[p] != .high { depth[p] = relabelled[p] }
                    }
                }
            }
        }
        let unfiltered = zip(depth, confidence).map { $1 == .high ? $0 : Float.nan }
        timings.confidenceMilliseconds = clock.lap()
        return FusionResult(size: size, filteredDepth: depth, unfilteredDepth: unfiltered, confidence: confidence,
                            fit: fit, samples: samples, verdicts: verdicts, timings: timings)
    }
}

/// Milliseconds between laps.
struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds
    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e6
    }
}

/// Samples rasterized to the grid: per pixel the confidence-weighted mean inverse depth and the weight sum.
struct Raster {
    var value: [Float]
    var weight: [Float]
    init(samples: [MetricSample], pixels: [Int], count: Int, include: (Int) -> Bool) {
        value = [Float](repeating: 0, count: count)
        weight = [Float](repeating: 0, count: count)
        for i in samples.indices where include(i) {
            let w = Float(max(0.05, samples[i].confidence))
            weight[pixels[i]] += w
            value[pixels[i]] += w * Float(1 / samples[i].depthMetres)
        }
        for p in 0..<count where weight[p] > 0 { value[p] /= weight[p] }
    }
}

