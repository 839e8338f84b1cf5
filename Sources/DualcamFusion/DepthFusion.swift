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
///    Where the stereo's predicted noise is below the samples' (the
///    refinement's Gauss-Newton sigma, calibrated), D + R replaces the
///    completion: averaging costs accuracy on clean stereo (`StereoTrust`);
///    where its matches also place depth edges within a pixel, the
///    relabelling (6) leaves those pixels.
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
    public static func fuse(_ input: FusionInput, options: Options) throws -> FusionResult {
        try validate(input)
        let run = try FusionRun(input, options: options)
        // The fills' guides depend only on the image: they are prepared on
        // another thread while the fit and the verification run.
        let guides = run.prepareGuidesInBackground()
        defer { try? guides.wait() }
        var timings = FusionTimings()
        var clock = Stopwatch()
        let alignment = try run.align()
        timings.alignMilliseconds = clock.lap()
        let verification = run.verify(alignment: alignment)
        try guides.wait()
        timings.verifyMilliseconds = clock.lap()
        let used = run.used(verification, gross: alignment?.gross)

        let first = try run.firstFills(used: used, verification: verification, alignment: alignment)
        var inverse = try run.smoothStereoAndComplete(first, used: used)
        run.keepPreciseStereo(&inverse, first: first, verification: verification)
        run.localPlanes(&inverse, verification: verification)
        inverse = try run.fillRemaining(used.clamped(inverse), first: first, used: used)
        var depth = inverse.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        timings.completeMilliseconds = clock.lap()

        // (The relabelling does not run at the same time as the levels: it
        // runs on OpenCV's threads, and the two at once measured slower.)
        let confidence = try run.confidence(inverse, first: first, verification: verification)
        depth = try run.relabelEdges(depth, keeping: confidence)
        depth = run.keepVerifiedSamples(depth, verification: verification)
        let unfiltered = zip(depth, confidence).map { $1 == .high ? $0 : Float.nan }
        timings.confidenceMilliseconds = clock.lap()
        return FusionResult(size: input.size, filteredDepth: depth, unfilteredDepth: unfiltered, confidence: confidence,
                            fit: alignment?.fit, stereoInverseRange: alignment == nil ? nil : used.inverseRange,
                            samples: input.samples, verdicts: verification.verdicts, sampleNoise: verification.noise,
                            timings: timings)
    }

    /// The input's sizes agree and it has samples.
    static func validate(_ input: FusionInput) throws {
        let size = input.size
        let n = size.width * size.height
        guard input.guideRGB.count == n * 3 else {
            throw DualcamError.invalidValue(name: "guide image", reason: "expected \(size) RGB pixels")
        }
        if let stereo = input.stereo, stereo.count != n {
            throw DualcamError.invalidValue(name: "stereo", reason: "expected \(size) values, got \(stereo.count)")
        }
        if let sigma = input.stereoRelativeSigma, sigma.count != n {
            throw DualcamError.invalidValue(name: "stereo noise", reason: "expected \(size) values, got \(sigma.count)")
        }
        guard !input.samples.isEmpty else {
            throw DualcamError.invalidValue(name: "samples", reason: "no samples inside the image")
        }
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
