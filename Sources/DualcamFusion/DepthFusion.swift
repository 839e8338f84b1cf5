import DualcamOpenCV
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
///    edges (in occlusion bands, the nearest sample's depth:
///    `StereoCompletion.guideInOcclusionBands`). Stereo weight: a floor
///    times its agreement with the samples, or more far from them; none where the
///    stereo measured nothing and the samples reach (there S is only the
///    smoothing's extension). Without stereo the samples alone are filled.
/// 5. Local planes: where the samples around a pixel lie on one plane
///    (linear in inverse depth) that agrees with the fill there, the pixel
///    takes that plane (`LocalPlanes`): the fills are piecewise smooth, not
///    piecewise linear, and keep stereo noise at the scale of the texture on
///    slanted surfaces (figures in docs/fusion.md).
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
    /// What a fusion runs: which stages apply follows from it, decided once.
    enum Mode: Equatable {
        /// Samples and stereo: align, verify, local alignment, smooth stereo, complete, planes, relabel, fill.
        case stereo
        /// Samples alone, the guided fill: verify, complete, planes, relabel, fill.
        case samplesGuided
        /// Samples alone, IP-Basic morphology: verify, complete (morphology), fill.
        case samplesMorphology

        init(_ input: FusionInput, _ options: Options) {
            if input.stereo != nil {
                self = .stereo
            } else {
                self = options.samplesOnlyCompletion == .morphology ? .samplesMorphology : .samplesGuided
            }
        }

        /// The samples-only fill: the output without stereo, the reference
        /// the stereo is compared with otherwise (nil: morphology).
        func samplesFill(_ options: Options) -> CVEdgeAware.SmootherParameters? {
            switch self {
            case .stereo: return options.samplesReferenceSmoother
            case .samplesGuided: return options.samplesOnlySmoother
            case .samplesMorphology: return nil
            }
        }

        /// Whether the edge-aware refinements (local planes, edge relabelling)
        /// run: not after the morphology, where the nearer surface already wins.
        var refines: Bool { self != .samplesMorphology }
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
        let mode = Mode(input, options)
        var timings = FusionTimings()
        let samples = input.samples
        // Checked placement (non-finite values are an error, not a trap).
        let pixel = try samples.indices.map { try SampleMerging.pixelIndex(samples[$0], index: $0, size: size) }

        // The fills' guides depend only on the image: they are prepared on
        // another thread while the fit and the verification run.
        let completion = try FusionCompletion(size: size, guideRGB: input.guideRGB)
        let samplesFill = mode.samplesFill(options)
        let guides = BackgroundStage {
            try completion.prepare(samplesFill.map { [$0] } ?? [], halfResolution: mode == .stereo ? [options.residualSmoother] : [])
        }
        defer { try? guides.wait() }

        // Align, verify.
        var clock = Stopwatch()
        let alignment = try input.stereo.map { try StereoAlignment(stereo: $0, samples: samples, pixels: pixel, options: options.fitOptions) }
        timings.alignMilliseconds = clock.lap()
        var verifier = SampleVerifier(focalPixels: options.focalPixels)
        verifier.noiseMetres = options.sampleNoiseMetres
        // Sparse samples beside stereo get the grown radii (`adapted`); alone,
        // a sample the larger plane test rejects takes the only measurement
        // of its area with it, so samples alone keep the set radii
        // (measured in docs/fusion.md).
        if mode == .stereo {
            verifier = verifier.adapted(samplesPerPixel: Double(samples.count) / Double(n))
        }
        let (verdicts, planeResiduals) = verifier.verdicts(samples, size: size, gross: alignment?.gross)
        let noise = SampleNoise.estimate(depthsMetres: samples.map(\.depthMetres), residualMetres: planeResiduals,
                                         fallback: SampleNoise(absoluteMetres: options.sampleNoiseMetres))
        try guides.wait()
        timings.verifyMilliseconds = clock.lap()
        let used = UsedSamples(samples, pixels: pixel, count: n, verdicts: verdicts, gross: alignment?.gross)

        // The distance to the samples, the samples-only fill and the locally
        // aligned stereo are independent: they run at once.
        var distance: [Float] = [], inverse: [Float] = []
        var aligned: [Float] = [], corrected: [Float]?
        var stages: [() throws -> Void] = [
            { distance = try FusionConfidence.distanceToSamples(size: size, pixels: pixel) { verdicts[$0] != .outlier } },
            {
                if let samplesFill {
                    inverse = try completion.fillSamples(sampleValue: used.all.value, sampleWeight: used.all.weight, smoother: samplesFill)
                } else {
                    inverse = try FusionCompletion.morphological(used.all, size: size)
                }
            },
        ]
        if let stereo = input.stereo, let alignment {
            stages.append {
                aligned = alignment.aligned(stereo, within: used.inverseRange)
                corrected = try completion.locallyAligned(stereo: aligned, sampleValue: used.fitted.value,
                                                          sampleWeight: used.fitted.weight, smoother: options.residualSmoother)
            }
        }
        try Concurrently.run(stages)
        // Smooth the stereo, complete.
        if let corrected {
            let (agreement, samplesGuide) = StereoCompletion.agreement(
                corrected: corrected, samplesOnly: inverse, distance: distance, stereoConfidence: input.stereoConfidence, options: options)
            let guideInverse = StereoCompletion.guideInOcclusionBands(samplesGuide, corrected: corrected, samples: used.all,
                                                                      usedCount: used.count, size: size, options: options)
            let guided = options.depthGuideGain > 0
                ? try completion.withDepthGuide(guideInverse, depthGain: Float(options.depthGuideGain)) : completion
            let smoothed = try StereoCompletion.smoothed(corrected, agreement: agreement, used: used, completion: guided, options: options)
            inverse = try StereoCompletion.complete(smoothed: smoothed, corrected: corrected, samplesOnly: inverse, agreement: agreement,
                                                    distance: distance, used: used, completion: guided,
                                                    options: options)
        }
        // Local planes of the samples replace the fill where they apply.
        if let planes = options.localPlanes, mode.refines {
            let fitted = planes.fit(reference: inverse, size: size, samples: samples,
                                    sampleNoiseMetres: options.sampleNoiseMetres) { verdicts[$0] != .outlier }
            inverse.withUnsafeMutableBufferPointer { inverse in
                for p in 0..<n where fitted[p].isFinite { inverse[p] = fitted[p] }
            }
        }
        inverse = used.clamped(inverse)
        // Fill what is left. (Samples alone keep the morphology: on sparse
        // grids the wide-hole fill spreads values too far; docs/fusion.md.)
        inverse = try completion.fillRemainingHoles(inverse, wideHoleSmoother: mode == .stereo ? options.wideHoleSmoother : nil)
        // Planes continue into what nothing measures.
        if let extension_ = options.planeExtrapolation, mode.refines {
            let reach = extension_.reach(size: size, usedCount: used.count)
            let unsupported = try extension_.unsupported(size: size, distanceToSamples: distance, reach: reach,
                                                         stereo: mode == .stereo ? aligned : nil)
            inverse = try extension_.apply(inverse, unsupported: unsupported, reach: reach, range: used.inverseRange,
                                           completion: completion)
        }
        var depth = inverse.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        timings.completeMilliseconds = clock.lap()

        // Confidence; edge relabelling of the filtered output, where
        // high-confidence pixels (the unfiltered output, backed by consistent
        // samples) keep their value. (Not at the same time as the levels: the
        // relabelling runs on OpenCV's threads, and the two at once measured slower.)
        let confidence = try FusionConfidence.levels(
            size: size, inverse: inverse, aligned: corrected, distance: distance, samples: samples, pixels: pixel, verdicts: verdicts,
            options: options)
        if options.edgeRelabel.radius > 0 && mode.refines {
            depth = try completion.relabelEdges(depth, keeping: confidence, options.edgeRelabel)
        }
        // Keep verified samples: the filtered output agrees with each within its noise.
        if let sigmas = options.keepVerifiedSigmas {
            depth = KeepVerifiedSamples.apply(depth, size: size, samples: samples, pixels: pixel, verdicts: verdicts, noise: noise, sigmas: sigmas)
        }
        let unfiltered = zip(depth, confidence).map { $1 == .high ? $0 : Float.nan }
        timings.confidenceMilliseconds = clock.lap()
        return FusionResult(size: size, filteredDepth: depth, unfilteredDepth: unfiltered, confidence: confidence,
                            fit: alignment?.fit, stereoInverseRange: alignment == nil ? nil : used.inverseRange, samples: samples,
                            verdicts: verdicts, sampleNoise: noise, timings: timings)
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
