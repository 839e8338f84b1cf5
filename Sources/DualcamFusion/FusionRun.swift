import DualcamOpenCV
import DualcamGeometry

extension DepthFusion {
    /// What a fusion runs: which stages apply follows from it, decided once (`Plan`).
    enum Mode: Equatable {
        /// Samples and stereo: align, verify, local alignment, smooth stereo, complete, keep precise stereo,
        /// planes, relabel, fill.
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

    /// The stages a fusion runs and their parameters, decided once from the
    /// mode and the options (nil: the stage does not run).
    struct Plan {
        /// The samples-only fill (nil: morphology).
        let samplesFill: CVEdgeAware.SmootherParameters?
        /// Fills whose half-resolution guides are prepared with the others:
        /// the residual field's, with stereo.
        let halfResolutionFills: [CVEdgeAware.SmootherParameters]
        /// Sparse samples beside stereo get the grown radii (`adapted`);
        /// alone, a sample the larger plane test rejects takes the only
        /// measurement of its area with it, so samples alone keep the set
        /// radii (measured in docs/fusion.md).
        let adaptsVerifierRadii: Bool
        let localPlanes: LocalPlanes?
        /// The wide-hole fill, with stereo only. (Samples alone keep the
        /// morphology: on sparse grids the wide-hole fill spreads values too
        /// far; docs/fusion.md.)
        let wideHoleSmoother: CVEdgeAware.SmootherParameters?
        let planeExtrapolation: PlaneExtrapolation?
        let edgeRelabel: EdgeRelabel?

        /// Samples alone keep the plane extension without its colour test: the
        /// test takes sparse grids' pixels from the guided fill, which carries
        /// their surfaces better there than the planes do (docs/fusion.md).
        static func samplesAloneWithoutColourTest(_ p: PlaneExtrapolation, _ withStereo: Bool) -> PlaneExtrapolation {
            var p = p
            if !withStereo { p.colour = nil }
            return p
        }

        init(_ mode: Mode, _ options: Options) {
            let withStereo = mode == .stereo
            samplesFill = mode.samplesFill(options)
            halfResolutionFills = withStereo ? [options.residualSmoother] : []
            adaptsVerifierRadii = withStereo
            wideHoleSmoother = withStereo ? options.wideHoleSmoother : nil
            localPlanes = mode.refines ? options.localPlanes : nil
            planeExtrapolation = mode.refines ? options.planeExtrapolation.map { Self.samplesAloneWithoutColourTest($0, withStereo) } : nil
            edgeRelabel = options.edgeRelabel.radius > 0 && mode.refines ? options.edgeRelabel : nil
        }
    }

    /// What verification decided: one verdict per sample and the samples' noise.
    struct Verification {
        let verdicts: [SampleVerdict]
        let noise: SampleNoise
    }

    /// The first fills, independent of one another: the distance to the
    /// samples, the samples-only fill and (with stereo) the aligned and the
    /// locally aligned stereo.
    struct FirstFills {
        let distance: [Float]
        let samplesOnly: [Float]
        /// D = s d + t (`StereoAlignment.aligned`).
        let aligned: [Float]?
        /// D plus the residual field (`FusionCompletion.locallyAligned`).
        let corrected: [Float]?
    }
}

/// One fusion's input, options and plan, and its stages in the order
/// `DepthFusion.fuse` runs them.
struct FusionRun {
    let input: FusionInput
    let options: DepthFusion.Options
    let plan: DepthFusion.Plan
    var size: PixelSize { input.size }
    /// Each sample's row-major pixel.
    let pixels: [Int]
    let completion: FusionCompletion

    init(_ input: FusionInput, options: DepthFusion.Options) throws {
        self.input = input
        self.options = options
        plan = DepthFusion.Plan(DepthFusion.Mode(input, options), options)
        let samples = input.samples, size = input.size
        // Checked placement (non-finite values are an error, not a trap).
        pixels = try samples.indices.map { try SampleMerging.pixelIndex(samples[$0], index: $0, size: size) }
        completion = try FusionCompletion(size: size, guideRGB: input.guideRGB)
    }

    var pixelCount: Int { size.width * size.height }

    /// Prepares the first fills' guides on another thread.
    func prepareGuidesInBackground() -> BackgroundStage {
        let completion = completion, plan = plan
        return BackgroundStage {
            try completion.prepare(plan.samplesFill.map { [$0] } ?? [], halfResolution: plan.halfResolutionFills)
        }
    }

    /// Stage "align": the global fit of the stereo to the samples (nil without stereo).
    func align() throws -> StereoAlignment? {
        try input.stereo.map { try StereoAlignment(stereo: $0, samples: input.samples, pixels: pixels, options: options.fitOptions) }
    }

    /// Stage "verify": the verdicts (`SampleVerifier.verdicts`) and the noise
    /// the samples show around their local planes (none verified: their
    /// spread against the globally aligned stereo, `SampleNoise.unverified`).
    func verify(alignment: StereoAlignment?) -> DepthFusion.Verification {
        let gross = alignment?.gross
        let samples = input.samples
        var verifier = SampleVerifier(focalPixels: options.focalPixels)
        verifier.noiseMetres = options.sampleNoiseMetres
        if plan.adaptsVerifierRadii {
            verifier = verifier.adapted(samplesPerPixel: Double(samples.count) / Double(pixelCount))
        }
        let (verdicts, planeResiduals) = verifier.verdicts(samples, size: size, gross: gross)
        let noise = SampleNoise.estimate(depthsMetres: samples.map(\.depthMetres), residualMetres: planeResiduals,
                                         fallback: SampleNoise.unverified(alignment?.fit, stated: options.sampleNoiseMetres))
        return DepthFusion.Verification(verdicts: verdicts, noise: noise)
    }

    /// The samples the fills use: all but the outliers, and those the stereo fit kept.
    func used(_ verification: DepthFusion.Verification, gross: [Bool]?) -> UsedSamples {
        UsedSamples(input.samples, pixels: pixels, count: pixelCount, verdicts: verification.verdicts, gross: gross)
    }

    /// The distance to the samples, the samples-only fill and the locally
    /// aligned stereo are independent: they run at once.
    func firstFills(used: UsedSamples, verification: DepthFusion.Verification,
                    alignment: StereoAlignment?) throws -> DepthFusion.FirstFills {
        let size = size, pixels = pixels, completion = completion, options = options
        let verdicts = verification.verdicts, samplesFill = plan.samplesFill
        // Each stage writes only its own variables.
        var distance: [Float] = [], samplesOnly: [Float] = []
        var aligned: [Float]?, corrected: [Float]?
        var stages: [() throws -> Void] = [
            { distance = try FusionConfidence.distanceToSamples(size: size, pixels: pixels) { verdicts[$0] != .outlier } },
            {
                if let samplesFill {
                    samplesOnly = try completion.fillSamples(sampleValue: used.all.value, sampleWeight: used.all.weight,
                                                             smoother: samplesFill)
                } else {
                    samplesOnly = try FusionCompletion.morphological(used.all, size: size)
                }
            },
        ]
        if let stereo = input.stereo, let alignment {
            stages.append {
                let alignedStereo = alignment.aligned(stereo, within: used.inverseRange)
                aligned = alignedStereo
                corrected = try completion.locallyAligned(stereo: alignedStereo, sampleValue: used.fitted.value,
                                                          sampleWeight: used.fitted.weight, smoother: options.residualSmoother,
                                                          priorWeight: Float(options.residualPriorWeight))
            }
        }
        try Concurrently.run(stages)
        return DepthFusion.FirstFills(distance: distance, samplesOnly: samplesOnly, aligned: aligned, corrected: corrected)
    }

    /// Stages "smooth stereo" and "complete" (`StereoCompletion`) with
    /// stereo; samples alone, their fill is the completion.
    func smoothStereoAndComplete(_ first: DepthFusion.FirstFills, used: UsedSamples) throws -> [Float] {
        guard let corrected = first.corrected else { return first.samplesOnly }
        let (agreement, samplesGuide) = StereoCompletion.agreement(
            corrected: corrected, samplesOnly: first.samplesOnly, distance: first.distance,
            stereoConfidence: input.stereoConfidence, options: options)
        let guideInverse = StereoCompletion.guideInOcclusionBands(samplesGuide, corrected: corrected, samples: used.all,
                                                                  usedCount: used.count, size: size, options: options)
        let guided = options.depthGuideGain > 0
            ? try completion.withDepthGuide(guideInverse, depthGain: Float(options.depthGuideGain)) : completion
        let smoothed = try StereoCompletion.smoothed(corrected, agreement: agreement, used: used, completion: guided, options: options)
        return try StereoCompletion.complete(smoothed: smoothed, corrected: corrected, samplesOnly: first.samplesOnly,
                                             agreement: agreement, distance: first.distance, used: used, completion: guided,
                                             options: options)
    }

    /// Stage "keep precise stereo" (`StereoTrust`), with stereo whose noise is predicted.
    func keepPreciseStereo(_ inverse: inout [Float], first: DepthFusion.FirstFills, verification: DepthFusion.Verification) {
        guard let trust = options.stereoTrust, let corrected = first.corrected, let sigma = input.stereoRelativeSigma,
              sigma.count == corrected.count else { return }
        trust.apply(&inverse, corrected: corrected, relativeSigma: sigma, noise: verification.noise)
    }

    /// Stage "local planes": planes of the samples replace the fill where they apply.
    func localPlanes(_ inverse: inout [Float], verification: DepthFusion.Verification) {
        guard let planes = plan.localPlanes else { return }
        let verdicts = verification.verdicts
        let fitted = planes.fit(reference: inverse, size: size, samples: input.samples,
                                sampleNoiseMetres: options.sampleNoiseMetres) { verdicts[$0] != .outlier }
        inverse.withUnsafeMutableBufferPointer { inverse in
            for p in 0..<pixelCount where fitted[p].isFinite { inverse[p] = fitted[p] }
        }
    }

    /// Stage "fill": what is left, then planes continued into what nothing measures.
    func fillRemaining(_ inverse: [Float], first: DepthFusion.FirstFills, used: UsedSamples) throws -> [Float] {
        let filled = try completion.fillRemainingHoles(inverse, wideHoleSmoother: plan.wideHoleSmoother)
        guard let extension_ = plan.planeExtrapolation else { return filled }
        let reach = extension_.reach(size: size, usedCount: used.count)
        // The colour gate is made once, and only when a pixel needs it.
        var made: ColourGate??
        func gate() throws -> ColourGate? {
            if let made { return made }
            let gate = try extension_.gate(completion)
            made = .some(gate)
            return gate
        }
        let unsupported = try extension_.unsupported(size: size, distanceToSamples: first.distance, reach: reach,
                                                     stereo: first.aligned, sampleWeight: used.all.weight, gate: gate)
        guard unsupported.contains(true) else { return filled }
        return try extension_.apply(filled, unsupported: unsupported, reach: reach, range: used.inverseRange,
                                    completion: completion, gate: try gate())
    }

    /// Confidence levels of the completed inverse depth (`FusionConfidence.levels`).
    func confidence(_ inverse: [Float], first: DepthFusion.FirstFills,
                    verification: DepthFusion.Verification) throws -> [FusionConfidenceLevel] {
        try FusionConfidence.levels(size: size, inverse: inverse, aligned: first.corrected, distance: first.distance,
                                    samples: input.samples, pixels: pixels, verdicts: verification.verdicts, options: options)
    }

    /// Stage "relabel edges" of the filtered output, where high-confidence
    /// pixels (the unfiltered output, backed by consistent samples) keep their value.
    func relabelEdges(_ depth: [Float], keeping confidence: [FusionConfidenceLevel]) throws -> [Float] {
        guard let relabel = plan.edgeRelabel else { return depth }
        return try completion.relabelEdges(depth, keeping: confidence.map { $0 == .high }, relabel)
    }

    /// Keep verified samples: the filtered output agrees with each within its noise.
    func keepVerifiedSamples(_ depth: [Float], verification: DepthFusion.Verification) -> [Float] {
        guard let sigmas = options.keepVerifiedSigmas else { return depth }
        return KeepVerifiedSamples.apply(depth, size: size, samples: input.samples, pixels: pixels,
                                         verdicts: verification.verdicts, noise: verification.noise, sigmas: sigmas)
    }
}
