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
        let columnOf = footprintIndex(fine: size.width, output: out.width), rowOf = footprintIndex(fine: size.height, output: out.height)
        let columns = footprintRanges(columnOf, output: out.width), rows = footprintRanges(rowOf, output: out.height)
        var result = fine
        result.size = out
        result.filteredDepth = [Float](repeating: .nan, count: out.width * out.height)
        var levels = [FusionConfidenceLevel](repeating: .low, count: out.width * out.height)
        // One scratch buffer for every footprint (at most a few pixels each).
        var inverse: [Float] = [], footprintLevels: [UInt8] = []
        for oy in 0..<out.height {
            for ox in 0..<out.width {
                inverse.removeAll(keepingCapacity: true)
                footprintLevels.removeAll(keepingCapacity: true)
                for y in rows[oy] {
                    for x in columns[ox] {
                        let p = y * size.width + x, z = fine.filteredDepth[p]
                        if z.isFinite && z > 0 { inverse.append(1 / z) }
                        footprintLevels.append(min(fine.confidence[p].rawValue, FusionConfidenceLevel.medium.rawValue))
                    }
                }
                let o = oy * out.width + ox
                result.filteredDepth[o] = medianDepth(inverse: &inverse)
                // Medium where more than half of the footprint is; high decided below.
                footprintLevels.sort()
                levels[o] = FusionConfidenceLevel(rawValue: footprintLevels[(footprintLevels.count - 1) / 2]) ?? .low
            }
        }
        // Each sample's output pixel: the footprint its fine pixel lies in.
        let pixels = fine.samples.map { s in
            rowOf[min(size.height - 1, max(0, Int(s.y.rounded())))] * out.width + columnOf[min(size.width - 1, max(0, Int(s.x.rounded())))]
        }
        if let sigmas = options.keepVerifiedSigmas {
            result.filteredDepth = KeepVerifiedSamples.apply(result.filteredDepth, size: out, samples: fine.samples, pixels: pixels,
                                                             verdicts: fine.verdicts, noise: fine.sampleNoise, sigmas: sigmas)
        }
        let outputInverse = result.filteredDepth.map { $0.isFinite && $0 > 0 ? 1 / $0 : Float.nan }
        FusionConfidence.markHigh(&levels, size: out, inverse: outputInverse, samples: fine.samples, pixels: pixels,
                                  verdicts: fine.verdicts, options: options)
        result.confidence = levels
        result.unfilteredDepth = zip(result.filteredDepth, result.confidence).map { $1 == .high ? $0 : .nan }
        let grid = PixelGridResampling(from: size, to: out)
        result.samples = fine.samples.map { s in
            var moved = s
            (moved.x, moved.y) = grid.target(x: s.x, y: s.y)
            return moved
        }
        return result
    }

    /// Output index of each fine index along one axis: floor((i + 0.5) n_out / n_fine).
    static func footprintIndex(fine: Int, output: Int) -> [Int] {
        (0..<fine).map { i in min(output - 1, Int((Double(i) + 0.5) * Double(output) / Double(fine))) }
    }

    /// The fine indices of each output index: contiguous, since
    /// `footprintIndex` never decreases (every output index gets at least one
    /// fine index when the fine grid is at least as large).
    static func footprintRanges(_ index: [Int], output: Int) -> [Range<Int>] {
        var ranges = [Range<Int>](repeating: 0..<0, count: output)
        var start = 0
        for i in index.indices where i == index.count - 1 || index[i + 1] != index[i] {
            ranges[index[i]] = start..<(i + 1)
            start = i + 1
        }
        return ranges
    }

    /// 1 / median of the inverse depths `inverse` (sorted in place); with an
    /// even count the mean of the two middle ones; NaN when there is none.
    static func medianDepth(inverse: inout [Float]) -> Float {
        guard !inverse.isEmpty else { return .nan }
        inverse.sort()
        let n = inverse.count
        let middle = n % 2 == 1 ? inverse[n / 2] : (inverse[n / 2 - 1] + inverse[n / 2]) / 2
        return 1 / middle
    }
}
