import DualcamGeometry

/// Reduces a fusion result made on a grid finer than the output (the
/// request's `fusionSize`) to the output grid.
///
/// Footprint: fine pixel i (centre i + 0.5) belongs to output pixel
/// floor((i + 0.5) W_out / W_fine), per axis, so each fine pixel counts
/// once; at a ratio of 2 the footprint is 2x2.
///
/// Depth: the median in inverse depth (1/z, the fusion's working quantity)
/// of the footprint's finite values; with an even count, the mean of the
/// two middle inverses. Where a footprint spans a depth edge the output
/// pixel takes the surface covering most of it rather than a depth between
/// the two (what an area mean gives), as the renders' centre-ray truth
/// does; only a footprint split evenly between two surfaces takes the
/// middle of their inverse depths.
///
/// Confidence is decided again on the output grid, as `DepthFusion` decides
/// it (`FusionConfidence`, with the output's `options`): medium where more
/// than half of the footprint is at least medium, high within `highRadius`
/// output pixels of a verified sample whose value the output pixel
/// reproduces, never high at an outlier's or unverified sample's pixel. A
/// verified sample's output pixel is clamped to within `keepVerifiedSigmas`
/// noise sigmas of it (`KeepVerifiedSamples`), as its fine pixel was. The
/// unfiltered map stays what `FusionResult` defines: the filtered depth
/// where confidence is high, NaN elsewhere. Samples move to the output
/// grid, x_out = (x_fine + 0.5) W_out / W_fine - 0.5, each on the output
/// pixel whose footprint holds its fine pixel; verdicts, the fit and the
/// sample noise are the fine grid's.
enum FusionGridReduction {
    /// `options`: the fusion's options in output pixels.
    static func reduce(_ fine: FusionResult, to out: PixelSize, options: DepthFusion.Options) -> FusionResult {
        let size = fine.size
        guard size != out else { return fine }
        let columns = footprintIndex(fine: size.width, output: out.width)
        let rows = footprintIndex(fine: size.height, output: out.height)
        // Fine pixels of each output pixel, gathered once for every map.
        var members = [[Int]](repeating: [], count: out.width * out.height)
        for y in 0..<size.height {
            let row = rows[y] * out.width
            for x in 0..<size.width { members[row + columns[x]].append(y * size.width + x) }
        }
        var result = fine
        result.size = out
        result.filteredDepth = members.map { medianDepth($0, fine.filteredDepth) }
        // Each sample's output pixel: the footprint its fine pixel lies in.
        let pixels = fine.samples.map { s in
            rows[min(size.height - 1, max(0, Int(s.y.rounded())))] * out.width + columns[min(size.width - 1, max(0, Int(s.x.rounded())))]
        }
        if let sigmas = options.keepVerifiedSigmas {
            result.filteredDepth = KeepVerifiedSamples.apply(result.filteredDepth, size: out, samples: fine.samples, pixels: pixels,
                                                             verdicts: fine.verdicts, noise: fine.sampleNoise, sigmas: sigmas)
        }
        // Medium where more than half of the footprint is; high decided on the output.
        var levels: [FusionConfidenceLevel] = members.map { m in
            guard !m.isEmpty else { return .low }
            let sorted = m.map { min(fine.confidence[$0].rawValue, FusionConfidenceLevel.medium.rawValue) }.sorted()
            return FusionConfidenceLevel(rawValue: sorted[(sorted.count - 1) / 2]) ?? .low
        }
        let inverse = result.filteredDepth.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        FusionConfidence.markHigh(&levels, size: out, inverse: inverse, samples: fine.samples, pixels: pixels,
                                  verdicts: fine.verdicts, options: options)
        result.confidence = levels
        result.unfilteredDepth = zip(result.filteredDepth, result.confidence).map { $1 == .high ? $0 : .nan }
        let sx = Double(out.width) / Double(size.width), sy = Double(out.height) / Double(size.height)
        result.samples = fine.samples.map { s in
            var moved = s
            moved.x = (s.x + 0.5) * sx - 0.5
            moved.y = (s.y + 0.5) * sy - 0.5
            return moved
        }
        return result
    }

    /// Output index of each fine index along one axis: floor((i + 0.5) n_out / n_fine).
    static func footprintIndex(fine: Int, output: Int) -> [Int] {
        (0..<fine).map { i in min(output - 1, Int((Double(i) + 0.5) * Double(output) / Double(fine))) }
    }

    /// 1 / median(1/z) over the finite positive values of `indices`; NaN when there is none.
    static func medianDepth(_ indices: [Int], _ depth: [Float]) -> Float {
        var inverse: [Float] = []
        inverse.reserveCapacity(indices.count)
        for i in indices where depth[i].isFinite && depth[i] > 0 { inverse.append(1 / depth[i]) }
        guard !inverse.isEmpty else { return .nan }
        inverse.sort()
        let n = inverse.count
        let middle = n % 2 == 1 ? inverse[n / 2] : (inverse[n / 2 - 1] + inverse[n / 2]) / 2
        return 1 / middle
    }
}
