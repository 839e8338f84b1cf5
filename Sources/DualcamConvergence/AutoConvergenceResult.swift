import DualcamGeometry

/// One sample of the score curve.
public struct ConvergenceScore: Equatable, Sendable {
    /// q = 1/d in 1/m (0 for the plane at infinity); uniform along the sweep.
    public var inverseDistance: Double
    public var distance: Distance
    /// NCC between the registered grey images over the scored region, in
    /// [-1, 1]; -1 when fewer than a quarter of the region's pixels overlap.
    public var score: Double
}

/// A distance the score curve cannot rule out: a peak of the curve, refined
/// at full resolution.
public struct DistanceCandidate: Equatable, Sendable {
    public var distance: Distance
    /// q = 1/d, 1/m.
    public var inverseDistance: Double
    /// NCC at `distance` (refinement level; coarse level when not refined).
    public var score: Double
}

/// How far the automatic distance can be trusted (ARKit-style levels).
///
/// - `low`: `ambiguous` (several peaks within `ambiguityMargin`) or
///   `lowTexture` (the curve does not single out a distance);
/// - `medium`: one answer, but the second-highest peak is within twice the
///   margin of it, or the peak's NCC is below 0.5, or less than 80 % of the
///   window registers at the distance (`supportFraction`: the window also
///   shows other depths, which pull the distance towards them);
/// - `high`: otherwise.
public enum ConvergenceConfidence: String, Equatable, Sendable, Codable {
    case low, medium, high
}

/// Where a tapped point is and where it lands at the chosen distance.
public struct TapLanding: Equatable, Sendable {
    /// The point as given.
    public var tap: TapPoint
    /// The camera whose view was scored around the tap: the tapped camera
    /// for `.wide` / `.tele` taps, the canvas camera for `.canvas` taps.
    public var camera: ConvergenceCanvas
    /// The tap in that camera's image (sensor pixels).
    public var pixel: Vector2
    /// The tap in that camera's ideal (undistorted) pixels: the window's centre.
    public var idealPixel: Vector2
    /// The other camera.
    public var otherCamera: ConvergenceCanvas
    /// Where the tapped point of the convergence plane is seen in the other
    /// camera's image (sensor pixels), nil when it falls behind it.
    public var otherPixel: Vector2?
    /// True when `otherPixel` lies inside the other camera's image.
    public var otherInside: Bool
    /// The point on the warp's canvas (ideal canvas pixels), nil when it
    /// falls behind the canvas camera.
    public var canvasPixel: Vector2?
}

/// What the automatic convergence chose and why.
public struct AutoConvergenceResult: Sendable {
    /// The chosen convergence distance (the best candidate).
    public var distance: Distance
    /// The score at `distance` (NCC at the refinement's resolution, or at the
    /// coarse level when not refined).
    public var score: Double
    /// The coarse sweep, nearest first (uniform in inverse distance).
    public var curve: [ConvergenceScore]
    /// The samples of the refinement around the chosen candidate (full
    /// resolution unless the scored region is longer than 1024 pixels),
    /// nearest first; empty when not refined.
    public var refinement: [ConvergenceScore]
    /// The scored region, pixels of `scoredIn`'s ideal view (the whole
    /// canvas without a tap).
    public var window: CanvasWindow
    /// The camera whose ideal view the window is in: the canvas, unless the
    /// tap was in the moving camera's image.
    public var scoredIn: ConvergenceCanvas
    /// The resize factor of the coarse sweep.
    public var coarseScale: Double
    /// Every distance the curve cannot rule out, best first: peaks within
    /// `ambiguityMargin` of the best, each refined. One element unless
    /// `ambiguous`.
    public var candidates: [DistanceCandidate]
    /// More than one candidate: the window's content repeats along the
    /// baseline (a regular pattern) and the score cannot tell which
    /// repetition is the right one. `distance` is then only the best-scoring
    /// candidate.
    public var ambiguous: Bool { candidates.count > 1 }
    /// The highest other peak of the coarse curve (prominence at least half
    /// the ambiguity margin), whatever its score; nil when the curve has one peak.
    public var secondPeak: DistanceCandidate?
    /// Second peak / best peak, NCC on the coarse curve (nil without a second
    /// peak or when the best is not positive); near 1 = ambiguous.
    public var peakRatio: Double?
    /// Best peak minus second peak, NCC on the coarse curve (nil without a
    /// second peak); below `ambiguityMargin` = ambiguous.
    public var peakMargin: Double?
    /// How fast the score falls off the chosen peak: the NCC lost at 1 pixel
    /// of misregistration along the baseline (pixels of the scored view),
    /// from the refinement's parabola; nil when not refined or no parabola fits.
    public var sharpnessPerPixel: Double?
    /// Best coarse score minus the curve's median: how far the curve singles
    /// out a distance.
    public var curveContrast: Double
    /// Spacing of the candidates' peaks in pixels of parallax (scored view),
    /// the period of the repeating content along the baseline; nil unless ambiguous.
    public var patternPeriodPixels: Double?
    /// The curve does not rise `minimumCurveContrast` above its median: no
    /// texture along the baseline in the window (only with `LowTexturePolicy.accept`).
    public var lowTexture: Bool
    /// The tap's window had no texture and the whole overlap was scored instead.
    public var fellBackToWholeOverlap: Bool { fallbackReason != nil }
    /// Why the tap's window was refused (the `ConvergenceError.lowTexture`
    /// message) when the whole overlap was scored instead.
    public var fallbackReason: String?
    /// The fraction of the window's pixels that register at `distance`
    /// (`SupportMask`); when it is between 0.25 and 0.9 the window also shows
    /// other depths and `distance` was refined on the registering pixels
    /// alone. Nil without a tap or refinement.
    public var supportFraction: Double?
    /// With a tap, when the moving camera is coarser than the scored view
    /// (magnification m above 1.2): the window's grey-level standard
    /// deviation after a Gaussian blur of sigma m / 2 pixels (about the
    /// moving camera's sampling), over the deviation before. Below 0.5 the
    /// window's texture is mostly finer than the moving camera resolves (a
    /// pattern near its Nyquist period), which is `lowTexture`.
    public var resolvableTexture: Double?
    /// The tap and where it lands at `distance`; nil without a tap.
    public var tap: TapLanding?
    /// Parallax at the window's centre per unit inverse distance, pixels of
    /// the scored view per 1/m (about f * baseline): converts q to pixels.
    public var parallaxRate: Double
    /// The margin used for `candidates`.
    public var ambiguityMargin: Double

    /// See `ConvergenceConfidence`.
    public var confidence: ConvergenceConfidence {
        if ambiguous || lowTexture { return .low }
        if let margin = peakMargin, margin < 2 * ambiguityMargin { return .medium }
        if let support = supportFraction, support < 0.8 { return .medium }
        return score < 0.5 ? .medium : .high
    }
}
