import DualcamOpenCV
import DualcamGeometry

/// Per-pixel confidence levels of the fused depth (see `DepthFusion`).
enum FusionConfidence {
    /// Euclidean distance in pixels to the nearest included sample (cv::distanceTransform).
    static func distanceToSamples(size: PixelSize, pixels: [Int], include: (Int) -> Bool) throws -> [Float] {
        var used = [UInt8](repeating: 0, count: size.width * size.height)
        for i in pixels.indices where include(i) { used[pixels[i]] = 255 }
        return try FloatMaps.distanceToNonzero(used, size)
    }

    /// `distance`: to the nearest used (non-outlier) sample, pixels.
    static func levels(size: PixelSize, inverse: [Float], aligned: [Float]?, distance: [Float], samples: [MetricSample], pixels: [Int],
                       verdicts: [SampleVerdict], options: DepthFusion.Options) throws -> [FusionConfidenceLevel] {
        let n = size.width * size.height
        var levels = [FusionConfidenceLevel](repeating: .low, count: n)
        // Medium: near any used sample, or where the aligned stereo agrees.
        let medium = Float(options.mediumRadius), stereoTolerance = Float(options.stereoTolerance)
        for p in 0..<n where inverse[p].isFinite {
            if distance[p] <= medium {
                levels[p] = .medium
            } else if let aligned, aligned[p].isFinite, abs(aligned[p] - inverse[p]) <= stereoTolerance * inverse[p] {
                levels[p] = .medium
            }
        }
        markHigh(&levels, size: size, inverse: inverse, samples: samples, pixels: pixels, verdicts: verdicts, options: options)
        return levels
    }

    /// High: within `highRadius` of a trusted verified sample whose value the
    /// output reproduces; the pixel of an outlier or unverified sample is
    /// never high. (`FusionGridReduction` applies it again on the output grid.)
    static func markHigh(_ levels: inout [FusionConfidenceLevel], size: PixelSize, inverse: [Float], samples: [MetricSample],
                         pixels: [Int], verdicts: [SampleVerdict], options: DepthFusion.Options) {
        let r = Int(options.highRadius.rounded(.down)), r2 = options.highRadius * options.highRadius
        // The tolerance is relative (|dv| / v ~ |dz| / z) and never below the
        // samples' own noise (`highNoiseSigmas` sigma): near by, 1 cm is more than
        // 1 %, and an output that averages the noise away must still count.
        for i in samples.indices where verdicts[i] == .verified && samples[i].confidence >= options.lowSampleConfidence {
            let v = Float(1 / samples[i].depthMetres)
            let tolerance = Float(max(options.highTolerance, options.highNoiseSigmas * options.sampleNoiseMetres / samples[i].depthMetres))
            let cx = pixels[i] % size.width, cy = pixels[i] / size.width
            for y in max(0, cy - r)...min(size.height - 1, cy + r) {
                for x in max(0, cx - r)...min(size.width - 1, cx + r) {
                    let dx = Double(x - cx), dy = Double(y - cy)
                    guard dx * dx + dy * dy <= r2 else { continue }
                    let p = y * size.width + x
                    if inverse[p].isFinite && abs(inverse[p] - v) <= tolerance * v { levels[p] = .high }
                }
            }
        }
        // The pixel of an outlier or unverified sample is never high, even when a good neighbour vouches for it.
        for i in samples.indices where verdicts[i] != .verified && levels[pixels[i]] == .high {
            levels[pixels[i]] = .medium
        }
    }
}
