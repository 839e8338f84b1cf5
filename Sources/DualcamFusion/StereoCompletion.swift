import DualcamGeometry
import Foundation

/// Stages "smooth stereo" and "complete" of `DepthFusion` with stereo, in
/// inverse depth v = 1/z.
enum StereoCompletion {
    /// The stereo's agreement with the samples-only fill `samplesOnly`:
    /// its confidence times exp(-e^2), e = (D - F) / (tolerance (1 + dist / 2) F)
    /// with D the locally aligned stereo `corrected`, F the fill and dist the
    /// distance to the nearest used sample (the fill gets less certain away
    /// from samples), so edge fattening and mismatches, which disagree, lose
    /// their weight. Where F has no value (no sample reaches, e.g. beyond the
    /// sensor's range) nothing contradicts the stereo and nothing confirms
    /// it: `unreachedStereoAgreement` times its confidence. Also the depth
    /// guide's input: D, else F. One exp per pixel: on two threads.
    static func agreement(corrected: [Float], samplesOnly inverse: [Float], distance: [Float], stereoConfidence: [Float]?,
                          options: DepthFusion.Options) -> (agreement: [Float], guideInverse: [Float]) {
        let n = corrected.count
        let tolerance = Float(options.stereoTolerance)
        let unreachedTrust = Float(options.unreachedStereoAgreement)
        var agreement = [Float](repeating: 0, count: n), guideInverse = [Float](repeating: 0, count: n)
        agreement.withUnsafeMutableBufferPointer { agreement in
            guideInverse.withUnsafeMutableBufferPointer { guideInverse in
                Concurrently.inHalves(n) { range in
                    for p in range {
                        let c = corrected[p], v = inverse[p]
                        guideInverse[p] = c.isFinite ? c : v
                        guard c.isFinite else { continue }
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
        return (agreement, guideInverse)
    }

    /// The depth guide of the fills inside occlusion bands: runs of pixels
    /// along a row where the stereo measured nothing, with stereo on both
    /// sides that differs by more than `stereoTolerance` (a step: a near
    /// surface beside a far one, the band being what only the wide camera
    /// sees) and at least `occlusionBandMinimumSpacings` sample spacings
    /// wide (s = sqrt(pixels / used samples); narrower bands rarely hold a
    /// sample). There the guide, `guideInverse` (the samples-only fill), is
    /// replaced by the nearest used sample's 1/z: on real imagery the
    /// colour-guided fill leaks the near surface into the band (the colours
    /// do not separate them), so the guide had no edge where the band meets
    /// the near surface, and the final fill carried the near surface's
    /// stereo into the band (measured with `bench fuse-real`, docs/fusion.md).
    /// The step condition keeps bands along an edge of a smooth surface
    /// from taking a wrong surface's sample.
    static func guideInOcclusionBands(_ guideInverse: [Float], corrected: [Float], samples: Raster, usedCount: Int, size: PixelSize,
                                      options: DepthFusion.Options) -> [Float] {
        guard let spacings = options.occlusionBandMinimumSpacings else { return guideInverse }
        let w = size.width, h = size.height, n = w * h
        let minimumRun = spacings * (Double(n) / Double(max(1, usedCount))).squareRoot()
        let tolerance = Float(options.stereoTolerance)
        var band: [Int] = []
        for y in 0..<h {
            let row = y * w
            var x = 0
            while x < w {
                guard !corrected[row + x].isFinite else { x += 1; continue }
                let start = x
                while x < w && !corrected[row + x].isFinite { x += 1 }
                guard start > 0, x < w, Double(x - start) >= minimumRun else { continue }
                let left = corrected[row + start - 1], right = corrected[row + x]
                guard abs(left - right) > tolerance * max(left, right) else { continue }
                band.append(contentsOf: (row + start)..<(row + x))
            }
        }
        guard !band.isEmpty else { return guideInverse }
        let nearest = samples.nearestFill(size)
        var out = guideInverse
        for p in band where nearest[p].isFinite { out[p] = nearest[p] }
        return out
    }

    /// Stage "smooth stereo": the locally aligned stereo `corrected` on its
    /// surfaces, an edge-aware fill weighted by `agreement` that averages
    /// its per-pixel noise (dense and symmetric, so planes stay planar), put
    /// back onto the samples by a short-range fill of their residuals
    /// (`FusionCompletion.smoothedStereo`).
    static func smoothed(_ corrected: [Float], agreement: [Float], used: UsedSamples, completion: FusionCompletion,
                         options: DepthFusion.Options) throws -> [Float] {
        try completion.smoothedStereo(corrected, weight: agreement, sampleValue: used.fitted.value, sampleWeight: used.fitted.weight,
                                      smoother: options.stereoSmoother, residualSmoother: options.stereoResidualSmoother)
    }

    /// Stage "complete": one confidence-weighted fill of the smoothed stereo
    /// S with the samples in log inverse depth. Stereo weight (relative to a
    /// sample of confidence 1): `smoothedStereoWeight` times max(agreement,
    /// min(1, dist / `smoothedStereoSampleDistance`)): where the stereo
    /// agrees, or far from samples, where the samples-only fill it is
    /// compared with is uncertain. (An inverse-variance term, 0.05 min(1,
    /// (sample sigma v^2 / stereo sigma)^2) times the agreement, was never
    /// above this floor: retired in issue 19's round, outputs bit-identical.)
    /// Where the stereo measured nothing (`corrected` NaN: occlusions, its
    /// holes) S is the smoothing's own extension, not a measurement: it
    /// takes no weight where the samples-only fill `samplesOnly` reaches, so
    /// the samples decide there. (With weight there, S spread Aloe's leaves
    /// into the occlusion bands beside them; docs/fusion.md.) Where no sample reaches
    /// (beyond the LiDAR's range) it keeps its weight: nothing else knows.
    static func complete(smoothed: [Float], corrected: [Float], samplesOnly: [Float], agreement: [Float], distance: [Float],
                         used: UsedSamples, completion: FusionCompletion, options: DepthFusion.Options) throws -> [Float] {
        let n = smoothed.count
        let floorWeight = Float(options.smoothedStereoWeight), reach = Float(options.smoothedStereoSampleDistance)
        var weights = [Float](repeating: 0, count: n)
        weights.withUnsafeMutableBufferPointer { weights in
            smoothed.withUnsafeBufferPointer { smoothed in
                agreement.withUnsafeBufferPointer { agreement in
                    distance.withUnsafeBufferPointer { distance in
                        for p in 0..<n where smoothed[p].isFinite && (corrected[p].isFinite || !samplesOnly[p].isFinite) {
                            weights[p] = floorWeight * max(agreement[p], min(1, distance[p] / reach))
                        }
                    }
                }
            }
        }
        return try completion.fill(stereo: smoothed, stereoWeight: weights, sampleValue: used.all.value,
                                   sampleWeight: used.all.weight, smoother: options.fillSmoother)
    }
}
