import DualcamDepthMap
import DualcamOpenCV
import DualcamGeometry
import DualcamSupport

/// How `StereoDepthEstimator` works.
public struct StereoDepthOptions: Sendable, Equatable {
    /// The camera the depth is aligned to; nil = the narrower camera (tele on
    /// a wide/tele rig; the left camera when both have the same field of view).
    public var reference: FrameName?
    /// Output size (the reference's aspect ratio); nil = the reference buffer size.
    public var outputSize: PixelSize?
    /// How the output grid relates to the reference camera's buffer
    /// (`Intrinsics.scaled(to:)` or `resampled(to:)`; see docs/conventions.md, "Pixel grids").
    public var outputGrid = OutputGrid.scaled
    /// Filtered (dense, edge-aware, holes filled) or unfiltered (measured values, NaN holes).
    public var filtered = true
    /// Depth range searched, metres (max may be infinity).
    public var minDepthMetres = 0.3
    public var maxDepthMetres = Double.infinity
    /// How error messages name `minDepthMetres`: the flag that set it, or
    /// where it came from (e.g. `dualcam fuse` derives it from the samples).
    public var minDepthLabel = "--min-depth"
    /// Rectified focal length as a fraction of the narrower camera's; nil = automatic:
    /// the rectified image samples the reference at `matchDensity` times the
    /// output's density, at most 1.
    public var matchScale: Double?
    /// Rectified samples per output pixel along each axis when `matchScale` is
    /// nil; nil = automatic: 2, and 1.5 for outputs at most 320 px wide aligned
    /// to the narrower camera (the streaming sizes, where every output pixel is
    /// matched: SGBM, two thirds of the time there, costs about half, and each
    /// refinement window covers more of the scene, so the median error drops
    /// (docs/depth.md) while depth edges soften by a third of an output
    /// pixel). Aligned to the wider camera only the overlap
    /// is matched, in a rectified window already small, so it keeps 2.
    public var matchDensity: Double?
    /// The output width that the automatic match scale and density are set
    /// for; nil: the output's own. A caller that wants its output on a finer
    /// grid than the one its matches are sized for (`TeleStereo`: the fusion
    /// grid) sets the matches' grid here, so the rectification is the one
    /// that grid would get.
    public var matchGridWidth: Int?

    /// The automatic `matchDensity` for an output `width` pixels wide aligned
    /// to the narrower camera or not.
    public static func automaticMatchDensity(outputWidth width: Int, referenceIsNarrower: Bool) -> Double {
        width <= DepthOutputSize.streamingWidth && referenceIsNarrower ? streamingMatchDensity : defaultMatchDensity
    }
    // SGBM settings (see `CVStereoParameters` for their meaning):
    /// 5x5 blocks: the smallest SGBM window that still averages sensor noise,
    /// so edges stay sharp; the refinement window adds the rest of the support.
    public var blockSize = 5
    /// 10 % margin over the second-best cost: OpenCV's usual setting, strict
    /// enough to drop flat ties and loose enough to keep textured matches.
    public var uniqueness = 10
    /// Removes disparity islands smaller than 100 px (about a 10x10 patch):
    /// below that, an isolated blob is more often a mismatch than an object
    /// (the value of OpenCV's stereo_match sample).
    public var speckleWindow = 100
    /// A speckle is a region whose disparities stay within 2 px of each other.
    public var speckleRange = 2.0
    /// A pixel passes the left-right check when the two directions agree within
    /// 1 px: one pixel of quantisation each way before refinement.
    public var leftRightTolerance = 1.0
    /// A region of measurements (speckle-connected) at least half of whose
    /// pixels the other view cannot see is removed: what the other camera
    /// does not see was not measured (`dck_remove_occluded_regions`: hidden
    /// where every cell within this margin of the pixel's landing point holds
    /// a measurement nearer by at least the margin). 2 px, twice the
    /// left-right tolerance: two consistent measurements do not overlap by
    /// that much. 0 = off.
    public var occlusionMarginPixels = 2.0
    /// Subpixel refinement (symmetric ZNCC Lucas-Kanade); false: SGBM's parabola.
    public var refine = true
    /// Refinement window radius in rectified pixels; nil = automatic: 5 for
    /// rectified images at least 1200 px wide, 3 below (the window's share of
    /// the view stays similar, and the streaming size keeps its frame rate).
    public var refineRadius: Int?
    /// Refined matches whose window correlation falls below 0.6 are dropped:
    /// below it the two windows no longer look like one surface.
    public var minZNCC = 0.6
    /// The finer-sampled view (on a wide/tele rig the tele) is blurred to the
    /// other's sampling footprint before rectification
    /// (`SamplingFootprint`; a same-lens pair is unchanged): matching a sharp
    /// profile to a blurred one is biased beside edges and thin lines. On by
    /// default; false leaves both views as they are (for comparisons).
    public var equalizesFootprints = true
    /// Matches a repeating pattern makes ambiguous (the other view matches as
    /// well a period away, `PeriodicAmbiguity`) are removed before both modes;
    /// nil keeps them (for comparisons).
    public var periodicAmbiguity: PeriodicAmbiguity.Parameters? = PeriodicAmbiguity.Parameters()
    /// Unfiltered mode keeps a measurement only when its calibrated predicted
    /// relative depth noise DisparityNoise.calibration x sigma_d / d is at
    /// most this (`DisparityNoise.isPrecise`); nil = every value that bounds
    /// its depth (`DisparityNoise.boundsDepth`). 5 %: the accuracy an
    /// unfiltered value claims (issue 17: measured values at most 5 % off).
    /// Filtered mode's fill still weighs the imprecise ones by their
    /// confidence (dropping them there cost the office's blank walls,
    /// docs/real-data.md), and its `unfilteredDisparityPixels` are all it used.
    public var unfilteredRelativeDepthNoise: Double? = 0.05
    /// Unfiltered mode also removes measurements that a depth edge's nearer
    /// surface carried onto a blank farther one on the half-occluded side
    /// (`ForegroundFattening`; filtered mode's fill never sees the difference).
    public var unfilteredRemovesFattening = true
    /// Fast global smoother fill: regularisation and colour sigma (guide levels).
    public var fillLambda = 300.0
    public var fillSigmaColor = 6.0
    /// Filtered mode: snapping to the surfaces at depth discontinuities
    /// (`CVStereo.edgeSnap`); nil = off.
    public var edgeSnap: CVEdgeSnapParameters? = CVEdgeSnapParameters()
    /// Filtered mode, nil = off: measured values within about this many
    /// rectified pixels of the smoothed surface count as noise around it and
    /// take the smoothed value; farther ones are kept in proportion to their
    /// confidence (see `StereoDepthEstimator.fill`). About 0.3 px (3x the
    /// refinement's noise) suits the nominal rig: it lowers the interior's
    /// error, but the edge band keeps its error, so the band over interior
    /// ratio of the acceptance rises; off by default for that reason
    /// (figures in docs/depth.md).
    public var fillResidualPixels: Double?
    /// Filtered mode keeps measurements: a measured value m of confidence c
    /// moves by at most this / c rectified pixels (about 2 sigma of the
    /// refinement's noise at c = 1), and a high-confidence one by at most
    /// `highConfidenceTolerance` x m; nil = the smoother's blend alone.
    public var measuredTolerancePixels: Double? = 0.1
    /// Relative bound on how far filtering moves a high-confidence measurement.
    public var highConfidenceTolerance = 0.0099
    /// Confidence of measurements in the edge snap's zone (within its margin
    /// of a jump of the measured disparity) is at most this: their window may
    /// straddle two surfaces (medium at best).
    public var edgeZoneConfidence: Float = 0.5
    /// Valid fraction (unfiltered, over the covered region) from which quality is `high`.
    public var highQualityValidFraction = 0.5

    public init() {}

    /// Validates the depth range: 0 < min < max.
    public func validate() throws {
        guard minDepthMetres >= Self.smallestMinDepthMetres, minDepthMetres.isFinite else {
            throw DualcamError.invalidValue(name: "--min-depth", reason: "expected a finite distance of at least 1 mm, got \(minDepthMetres) m")
        }
        guard maxDepthMetres > minDepthMetres, !maxDepthMetres.isNaN else {
            throw DualcamError.invalidValue(name: "--max-depth", reason: "expected more than --min-depth (\(minDepthMetres) m), got \(maxDepthMetres) m")
        }
        if let w = matchGridWidth, w <= 0 {
            throw DualcamError.invalidValue(name: "match grid width", reason: "expected a positive number of pixels, got \(w)")
        }
        if let d = matchDensity, !Self.matchDensityRange.contains(d) {
            throw DualcamError.invalidValue(name: "match density", reason: "expected 0.5 to 4 samples per output pixel, got \(d)")
        }
        if let tau = fillResidualPixels, !(tau > 0 && tau.isFinite) {
            throw DualcamError.invalidValue(name: "fill residual", reason: "expected a positive number of pixels, got \(tau)")
        }
        if let q = unfilteredRelativeDepthNoise, !(q > 0 && q.isFinite) {
            throw DualcamError.invalidValue(name: "unfiltered relative depth noise", reason: "expected a positive fraction, got \(q)")
        }
        if let a = periodicAmbiguity, !a.isValid {
            throw DualcamError.invalidValue(
                name: "periodic ambiguity",
                reason: "expected factor and radius of 1 to 64, margin, dip and standard deviation finite and not negative, "
                    + "a finite self-similarity; got factor \(a.factor), radius \(a.radius), margin \(a.margin), dip \(a.dip), "
                    + "self-similarity \(a.selfSimilarity), standard deviation \(a.minimumStandardDeviation)")
        }
        if let s = matchScale, !(s > 0 && s <= Self.maximumMatchScale) {
            throw DualcamError.invalidValue(name: "match scale", reason: "expected more than 0 and at most 4, got \(s)")
        }
    }

    /// The SGBM search for f B (pixels x metres): disparities from f B / max - 2
    /// to f B / min + 2 (a margin for calibration error), rounded out to whole
    /// pixels and a multiple of 16 disparities.
    public func disparitySearch(pixelsPerInverseMetre fb: Double) throws -> (min: Int, count: Int) {
        let dMin = maxDepthMetres.isInfinite ? 0 : fb / maxDepthMetres
        let dMax = fb / minDepthMetres
        let margin = Self.disparityMarginPixels, granularity = Self.disparityGranularity
        let low = Int(dMin.rounded(.down)) - margin
        let span = Int(dMax.rounded(.up)) + margin - low
        let count = max(granularity, (span + granularity - 1) / granularity * granularity)
        guard count <= Self.maximumDisparities else {
            throw DualcamError.invalidValue(
                name: "\(minDepthLabel) \(minDepthMetres) m",
                reason: "needs a \(Int(dMax.rounded(.up)))-pixel disparity search at this size (at most \(Self.maximumDisparities)); give a larger --min-depth or a smaller --size")
        }
        return (low, count)
    }

    func stereoParameters(search: (min: Int, count: Int), rectifiedWidth: Int) -> CVStereoParameters {
        var p = CVStereoParameters(minDisparity: search.min, numDisparities: search.count)
        p.blockSize = blockSize
        p.uniqueness = uniqueness
        p.speckleWindow = speckleWindow
        p.speckleRange = speckleRange
        p.leftRightTolerance = leftRightTolerance
        p.occlusionMargin = occlusionMarginPixels
        p.occlusionShare = Self.occlusionShare
        p.refine = refine
        p.refineRadius = refineRadius ?? (rectifiedWidth >= Self.largeRefineWidth ? Self.largeRefineRadius : Self.smallRefineRadius)
        p.minZNCC = minZNCC
        return p
    }
}

/// The pixel grid of a depth output at another size than the reference buffer.
public enum OutputGrid: String, Sendable, Equatable {
    /// K_out = diag(W/Wref, H/Href, 1) K (the reference-dimensions rule).
    case scaled
    /// The grid of the reference image resized by OpenCV (`Intrinsics.resampled(to:)`):
    /// the map lines up with an area-resized reference image.
    case resampled
}

/// The fixed numbers of `StereoDepthOptions`' automatic choices and checks.
extension StereoDepthOptions {
    /// Outputs at most `DepthOutputSize.streamingWidth` wide are streaming
    /// sizes (320x240 and below); automatic match densities
    /// (`automaticMatchDensity`): 2 rectified samples per output pixel, 1.5 at
    /// streaming sizes aligned to the narrower camera.
    public static let defaultMatchDensity = 2.0, streamingMatchDensity = 1.5
    /// The share of a region's pixels hidden in the other view that removes
    /// it (`occlusionMarginPixels`): most of it, so a few hidden pixels beside
    /// an edge (a nearer measurement carried a little past it) remove nothing.
    public static let occlusionShare = 0.5
    /// The automatic refinement window radius, for rectified images at least
    /// `largeRefineWidth` wide and below (see `refineRadius`).
    public static let largeRefineRadius = 5, smallRefineRadius = 3, largeRefineWidth = 1200
    /// `matchDensity` and `matchScale` are accepted in these ranges: below,
    /// the output is sampled more finely than matched; above, matching costs
    /// far more for nothing the output can show.
    public static let matchDensityRange = 0.5...4.0, maximumMatchScale = 4.0
    /// The smallest accepted minimum depth (metres): the disparity bound
    /// f B / minDepth must stay a number of pixels (1e-300 m trapped).
    public static let smallestMinDepthMetres = 0.001
    /// The disparity search (`disparitySearch`) reaches `disparityMarginPixels`
    /// beyond f B / max and f B / min (a margin for calibration error), counts
    /// disparities in SGBM's multiples of `disparityGranularity`, and is at most
    /// `maximumDisparities` long: beyond that SGBM's cost volume outgrows
    /// memory and time at these sizes, and a larger minimum depth or a smaller
    /// size is the answer.
    public static let disparityMarginPixels = 2, disparityGranularity = 16, maximumDisparities = 512
}
