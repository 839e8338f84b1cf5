import DualcamStereo

/// Stage "keep precise stereo": where the stereo's predicted noise is below
/// the samples', the locally aligned stereo D + R (`FirstFills.corrected`)
/// replaces the completion (the smoothed stereo filled with the samples).
/// The smoothing and the fill average the stereo's per-pixel noise, which
/// pays on noisy stereo (the renders) and costs accuracy on clean stereo
/// over curved, textured surfaces (Aloe); the refinement's Gauss-Newton
/// sigma (`FusionInput.stereoRelativeSigma`) tells the two apart where the
/// stereo's confidence does not (docs/fusion.md, "The stereo's predicted
/// noise"). The later stages still run over these pixels: local planes
/// (through many samples, more precise than one) and the edge relabelling.
///
/// A pixel is kept when `calibration` x s <= `samplesNoiseFraction` x
/// sigma_s(z) / z: s the predicted relative depth sigma sigma_Z / Z, z = 1/v
/// its depth from D + R, sigma_s the samples' noise (`SampleNoise`).
///
/// The relabelling runs over kept pixels like any other. (Kept pixels used
/// to keep their side there when the stereo's edge reach was below one
/// pixel of the fusion grid; on the finer fusion grid no fixture is below
/// it and the rule was retired: docs/fusion.md, "Issue 19: fusing on a
/// finer grid".)
public struct StereoTrust: Sendable, Equatable {
    /// Measured RMS error over predicted sigma (`DisparityNoise.calibration`).
    public var calibration = Double(DisparityNoise.calibration)
    /// Kept where the stereo is predicted at least as precise as one sample.
    public var samplesNoiseFraction = 1.0
    public init() {}

    /// Replaces `inverse` by `corrected` where the stereo is kept; returns
    /// how many pixels it kept.
    @discardableResult
    func apply(_ inverse: inout [Float], corrected: [Float], relativeSigma: [Float], noise: SampleNoise) -> Int {
        let k = Float(calibration), fraction = Float(samplesNoiseFraction)
        let absolute = Float(noise.absoluteMetres), relative = Float(noise.relative)
        var kept = 0
        inverse.withUnsafeMutableBufferPointer { inverse in
            for p in 0..<inverse.count {
                let v = corrected[p], s = relativeSigma[p]
                guard v.isFinite, v > 0, s.isFinite else { continue }
                // sigma_s(z) / z with z = 1 / v: absolute v + relative.
                guard k * s <= fraction * (absolute * v + relative) else { continue }
                inverse[p] = v
                kept += 1
            }
        }
        return kept
    }
}
