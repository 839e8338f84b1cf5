import Foundation

extension DepthFusion {
    /// Steps 3-4 of `DepthFusion` with stereo: the locally aligned stereo
    /// `corrected` (D + R, from the globally aligned `d`) smoothed on its
    /// surfaces and filled together with the samples; `inverse` is the
    /// samples-only fill, `distance` the distance to the used samples.
    static func fillWithStereo(d: [Float], corrected: [Float], inverse: [Float], distance: [Float], all: Raster, fitted: Raster,
                               samples: [MetricSample], pixel: [Int], verdicts: [SampleVerdict], gross: [Bool],
                               stereoConfidence: [Float]?, completion: FusionCompletion, options: Options) throws -> [Float] {
        let n = d.count
        // Stereo weight: its confidence, times its agreement with the
        // samples-only fill (edge fattening and mismatches disagree), with
        // a tolerance growing with the distance to the nearest sample, as
        // the samples-only fill itself gets less certain there.
        let tolerance = Float(options.stereoTolerance)
        // Inverse-variance weighting: a sample's inverse depth has sigma
        // sampleNoise * v^2 (noise in metres), the stereo's a constant
        // sigma_d (its robust residual against the samples), so the stereo's
        // weight relative to a sample is (sampleNoise v^2 / sigma_d)^2,
        // small far away and large near by.
        let residuals = samples.indices.compactMap { i -> Double? in
            let d = d[pixel[i]]
            guard d.isFinite, verdicts[i] != .outlier, !gross[i] else { return nil }
            return abs(Double(d) - 1 / samples[i].depthMetres)
        }
        let sigmaD = Float(max(1e-4, 1.4826 * ScaleShiftFitter.median(residuals)))
        let noise = Float(options.sampleNoiseMetres)
        // Agreement of the stereo with the samples-only fill: its
        // confidence times exp(-e^2), e the relative difference over a
        // tolerance growing with the distance to the nearest sample; in the
        // same pass the depth guide's input (the stereo, else the samples-only
        // fill). One exp per pixel: on two threads.
        let unreachedTrust = Float(options.unreachedStereoAgreement)
        var agreement = [Float](repeating: 0, count: n), guideInverse = [Float](repeating: 0, count: n)
        agreement.withUnsafeMutableBufferPointer { agreement in
            guideInverse.withUnsafeMutableBufferPointer { guideInverse in
                Concurrently.inHalves(n) { range in
                    for p in range {
                        let c = corrected[p], v = inverse[p]
                        guideInverse[p] = c.isFinite ? c : v
                        guard c.isFinite else { continue }
                        // Where the samples-only fill has no value (no sample
                        // reaches, e.g. beyond the sensor's range) nothing
                        // contradicts the stereo, and nothing confirms it.
                        let confidence = stereoConfidence?[p] ?? 1
                        guard v.isFinite else {
                            agreement[p] = confidence * unreachedTrust
                            continue
                        }
                        let e = (c - v) / (tolerance * (1 + distance[p] / 2) * v)
                        agreement[p] = confidence * exp(-e * e)
                    }
                }
            }
        }
        let guided = options.depthGuideGain > 0
            ? try completion.withDepthGuide(guideInverse, depthGain: Float(options.depthGuideGain)) : completion
        // The stereo on its surfaces, smoothed and re-anchored to the samples.
        let smoothed = try guided.smoothedStereo(corrected, weight: agreement, sampleValue: fitted.value,
                                                 sampleWeight: fitted.weight, smoother: options.stereoSmoother,
                                                 residualSmoother: options.stereoResidualSmoother)
        let floorWeight = Float(options.smoothedStereoWeight), reach = Float(options.smoothedStereoSampleDistance)
        let stereoWeight = Float(options.stereoWeight)
        var weights = [Float](repeating: 0, count: n)
        weights.withUnsafeMutableBufferPointer { weights in
            smoothed.withUnsafeBufferPointer { smoothed in
                agreement.withUnsafeBufferPointer { agreement in
                    distance.withUnsafeBufferPointer { distance in
                        for p in 0..<n where smoothed[p].isFinite {
                            let v = smoothed[p]
                            let ratio = noise * v * v / sigmaD
                            let inverseVariance = stereoWeight * min(1, max(1e-3, ratio * ratio)) * agreement[p]
                            weights[p] = max(inverseVariance, floorWeight * max(agreement[p], min(1, distance[p] / reach)))
                        }
                    }
                }
            }
        }
        return try guided.fill(stereo: smoothed, stereoWeight: weights, sampleValue: all.value,
                               sampleWeight: all.weight, smoother: options.fillSmoother)
    }
}
