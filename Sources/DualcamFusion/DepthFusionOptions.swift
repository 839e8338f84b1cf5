import DualcamOpenCV

extension DepthFusion {
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
        /// The residual field's fill (stage "align"): a long reach, since the
        /// stereo bias it corrects varies slowly across the image.
        public var residualSmoother = CVEdgeAware.SmootherParameters(lambda: 600, sigmaColor: 12, iterations: 2)
        /// The global fit's weight as the prior of the residual field
        /// (`FusionCompletion.locallyAligned`), in sample weight per
        /// half-resolution pixel: one unit-weight sample per 50 such pixels
        /// (a 0.5 % sample density) counts half. 0.005-1 all gave the same
        /// within 0.02 points on Aloe and the room (docs/fusion.md).
        public var residualPriorWeight = 0.02
        /// The final fill of smoothed stereo and samples (stage "complete"):
        /// a short reach, so that each sample corrects only its surroundings.
        public var fillSmoother = CVEdgeAware.SmootherParameters(lambda: 60, sigmaColor: 8, iterations: 2)
        /// The completion of samples alone (the output when there is no stereo).
        public var samplesOnlySmoother = CVEdgeAware.SmootherParameters(lambda: 300, sigmaColor: 10)
        /// The samples-only fill that the stereo is compared with (its
        /// agreement weight): one pass, whose wider blur at edges makes the
        /// comparison more tolerant there than three passes would.
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
        /// nearest samples' depth (a wall beyond the samples' range came out
        /// far too near). A quarter rather than all of it measured slightly
        /// better with `--tele` (figures in docs/fusion.md).
        public var unreachedStereoAgreement = 0.25
        /// The half-resolution fill of holes that neither stereo nor samples
        /// reach (`FusionCompletion.fillWideHoles`), with stereo only: surfaces
        /// beyond the samples' range take the stereo's shape rather than the
        /// nearest value; nil leaves them to the last-resort morphology.
        public var wideHoleSmoother: CVEdgeAware.SmootherParameters? = .init(lambda: 2400, sigmaColor: 12, iterations: 2)
        /// Where the locally aligned stereo replaces the completion, given its
        /// predicted noise (`FusionInput.stereoRelativeSigma`); nil: never.
        public var stereoTrust: StereoTrust? = StereoTrust()
        /// The samples' depth noise (sigma, metres): the verifier's plane test,
        /// high confidence, the local planes, `SampleNoise`'s fallback.
        public var sampleNoiseMetres = 0.01
        /// Weight of the aligned stereo's depth edges in the final fill's guide (0: colour only).
        public var depthGuideGain = 1.0
        /// Occlusion bands at least this many sample spacings wide take the
        /// nearest sample in the depth guide (`StereoCompletion.guideInOcclusionBands`);
        /// nil turns it off. Half a spacing measured as well as or slightly
        /// better than one (docs/fusion.md, "Figures behind the defaults").
        public var occlusionBandMinimumSpacings: Double? = 0.5
        /// High confidence within this many pixels of a verified sample: its
        /// own pixel and the eight around it.
        public var highRadius = 1.5
        /// Medium confidence within this many pixels of any used sample (the
        /// verifier's neighbour radius).
        public var mediumRadius = 4.0
        /// High confidence needs the output within this fraction of the sample's depth.
        public var highTolerance = 0.01
        /// High confidence also allows the samples' noise: tolerance max(highTolerance, highNoiseSigmas sampleNoise / z).
        public var highNoiseSigmas = 2.0
        /// The aligned stereo agrees with the output (medium confidence; the
        /// agreement weights and depth steps of `StereoCompletion`) within
        /// this fraction of the inverse depth.
        public var stereoTolerance = 0.03
        /// The final edge relabelling (`FusionCompletion.relabelEdges`; not
        /// after the morphological fill, where the nearer surface already wins).
        public var edgeRelabel = EdgeRelabel()
        /// Samples below this confidence never make a pixel high-confidence.
        public var lowSampleConfidence = 0.4
        public var fitOptions = ScaleShiftFitter.Options()
        /// Filtered output at a verified sample's pixel stays within this
        /// many noise sigmas of it (`KeepVerifiedSamples`); nil: not enforced.
        public var keepVerifiedSigmas: Double? = 3
        /// Planes continued into what neither samples nor stereo reach (`PlaneExtrapolation`); nil turns it off.
        public var planeExtrapolation: PlaneExtrapolation? = PlaneExtrapolation()
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
        /// Half-size of the window whose depth range marks an edge region
        /// (a 5x5 window); 0 turns the pass off.
        public var radius = 2
        /// Half-size of the colour vote's window (11x11): wide enough to
        /// reach both sides' interiors.
        public var voteRadius = 5
        /// Colour sigma, 8-bit units.
        public var sigma = 10.0
        /// Luma's weight against chroma in the colour distance (see above).
        public var lumaWeight = 0.1
        /// A window spanning max / min at least this is an edge region (15 %
        /// in depth: more than the fills' smoothing of one surface).
        public var ratio = 1.15
        /// Pixels within this fraction of the window's log range of either
        /// extreme vote for that side; those in between (blended) do not.
        public var margin = 0.1
        /// Passes of the relabelling.
        public var iterations = 1
        /// A relabelled pixel keeps its value where one plane fits its
        /// window's inverse depths within this fraction (`SlantedWindows`):
        /// a slanted surface spans the depth ratio too, at low resolution,
        /// and is no discontinuity. 3 %, the tolerance within which the
        /// stereo agrees (`stereoTolerance`); nil: no such test.
        public var planeTolerance: Double? = 0.03
        public init() {}
    }

}
