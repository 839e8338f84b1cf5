import DualcamGeometry

/// Stage "keep verified samples" of `DepthFusion`: filtered output honest in
/// the sense of filtered depth (which keeps its measurements): where a
/// sample was verified (its neighbours and their plane confirm it), the
/// output at its pixel lies within `sigmas` noise sigmas of it
/// (`SampleNoise`, estimated from the samples), z_out clamped to
/// [z - k sigma(z), z + k sigma(z)]. Smoothing averages the samples' noise
/// away, so the clamp rarely acts on a surface; it acts where a fill or the
/// edge relabelling put a verified sample's pixel on another surface.
enum KeepVerifiedSamples {
    static func apply(_ depth: [Float], size: PixelSize, samples: [MetricSample], pixels: [Int], verdicts: [SampleVerdict],
                      noise: SampleNoise, sigmas: Double) -> [Float] {
        var out = depth
        for i in samples.indices where verdicts[i] == .verified {
            let z = samples[i].depthMetres, t = sigmas * noise.sigmaMetres(depth: z)
            let p = pixels[i]
            let v = Double(out[p])
            out[p] = Float(v.isFinite ? min(max(v, z - t), z + t) : z)
        }
        return out
    }
}
