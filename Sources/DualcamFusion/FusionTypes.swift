import DualcamGeometry

/// One metric depth sample in the pixel grid of the fusion output (pixel
/// centres at integers): depth Z along the wide camera's optical axis in
/// metres and a confidence in [0, 1].
public struct MetricSample: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var depthMetres: Double
    public var confidence: Double
    public init(x: Double, y: Double, depthMetres: Double, confidence: Double = 1) {
        self.x = x
        self.y = y
        self.depthMetres = depthMetres
        self.confidence = confidence
    }
}

/// What fusion decided about one sample.
public enum SampleVerdict: String, Equatable, Sendable {
    /// Agrees with its neighbours (and the aligned stereo): trusted for high confidence.
    case verified
    /// Used for the dense fill but not confirmed by enough neighbours (isolated, or at an edge).
    case unverified
    /// Rejected: disagrees with the aligned stereo or with every neighbour.
    case outlier
}

/// ARKit-style confidence levels of a fused depth pixel.
public enum FusionConfidenceLevel: UInt8, Sendable {
    case low = 0, medium = 1, high = 2
}

/// Fusion input, everything in the pixel grid the fusion runs on (row-major, `size`).
public struct FusionInput: Sendable {
    public var size: PixelSize
    /// The wide colour image resampled to `size`, RGB, 8 bits per channel.
    public var guideRGB: [UInt8]
    public var samples: [MetricSample]
    /// Stereo relative inverse depth d (any affine relation to 1/z with
    /// positive scale, e.g. normalized disparity or pixel disparity); NaN = missing.
    public var stereo: [Float]?
    /// Per-pixel stereo confidence in [0, 1] (nil: 1 wherever stereo is finite).
    public var stereoConfidence: [Float]?
    /// Per-pixel predicted relative depth noise sigma_Z / Z of the stereo
    /// (`StereoDepthResult.relativeDepthSigma`, uncalibrated; NaN or nil: unknown).
    public var stereoRelativeSigma: [Float]?

    public init(size: PixelSize, guideRGB: [UInt8], samples: [MetricSample], stereo: [Float]? = nil,
                stereoConfidence: [Float]? = nil, stereoRelativeSigma: [Float]? = nil) {
        self.size = size
        self.guideRGB = guideRGB
        self.samples = samples
        self.stereo = stereo
        self.stereoConfidence = stereoConfidence
        self.stereoRelativeSigma = stereoRelativeSigma
    }
}

/// Wall-clock time of each fusion stage, milliseconds.
public struct FusionTimings: Equatable, Sendable {
    public var verifyMilliseconds = 0.0
    public var alignMilliseconds = 0.0
    public var completeMilliseconds = 0.0
    public var confidenceMilliseconds = 0.0
    public var totalMilliseconds: Double {
        verifyMilliseconds + alignMilliseconds + completeMilliseconds + confidenceMilliseconds
    }
}

/// Fused metric depth in the output grid.
public struct FusionResult: Sendable {
    public var size: PixelSize
    /// Dense, edge-aware smoothed depth (metres); NaN only where nothing could be inferred.
    public var filteredDepth: [Float]
    /// The filtered depth where confidence is high, NaN elsewhere.
    public var unfilteredDepth: [Float]
    public var confidence: [FusionConfidenceLevel]
    /// The robust stereo alignment (nil without stereo).
    public var fit: ScaleShiftFit?
    /// The inverse depths (1/m) the aligned stereo is kept within, [0.5 min, 2 max]
    /// of the used samples' 1/z (`UsedSamples.inverseRange`; nil without stereo).
    public var stereoInverseRange: ClosedRange<Float>?
    /// The samples fused, in the output grid (`FusionPipeline`: one per pixel of the grid the fusion ran on).
    public var samples: [MetricSample]
    /// One verdict per sample of `samples`.
    public var verdicts: [SampleVerdict]
    /// The samples' noise as estimated from them (`SampleNoise`).
    public var sampleNoise: SampleNoise
    public var timings: FusionTimings

    public func count(_ verdict: SampleVerdict) -> Int { verdicts.lazy.filter { $0 == verdict }.count }
}
