/// Stage "align" of `DepthFusion`: the robust global alignment of the
/// stereo's relative inverse depth d to the samples, 1/z = s d + t
/// (`ScaleShiftFitter`: IRLS with Tukey weights, then a trimmed refit), and
/// which samples it rejects.
struct StereoAlignment {
    let fit: ScaleShiftFit
    /// Per sample: the stereo has a value at its pixel and the fit did not keep it.
    let gross: [Bool]

    /// `stereo`: relative inverse depth per pixel (NaN = missing); `pixels`:
    /// each sample's row-major pixel. Sample weights: their confidence, at least
    /// `FusionConstants.sampleConfidenceFloor`.
    init(stereo: [Float], samples: [MetricSample], pixels: [Int], options: ScaleShiftFitter.Options) throws {
        let pairs = samples.indices.map { i in
            InverseDepthPair(relative: Double(stereo[pixels[i]]), inverseDepth: 1 / samples[i].depthMetres,
                             weight: max(FusionConstants.sampleConfidenceFloor, samples[i].confidence))
        }
        let fit = try ScaleShiftFitter.fit(pairs, options: options)
        self.fit = fit
        gross = samples.indices.map { i in pairs[i].relative.isFinite && !fit.inliers[i] }
    }

    /// D = s d + t per pixel, NaN where d is missing or D falls outside
    /// `range` (inverse depth; `UsedSamples.inverseRange`).
    func aligned(_ stereo: [Float], within range: ClosedRange<Float>) -> [Float] {
        stereo.map { v -> Float in
            let a = Float(fit.apply(Double(v)))
            return v.isFinite && a >= range.lowerBound && a <= range.upperBound ? a : .nan
        }
    }
}
