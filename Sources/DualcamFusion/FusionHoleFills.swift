import DualcamOpenCV
import DualcamGeometry

/// The hole fills of `FusionCompletion`: what the edge-aware fills leave
/// empty, and the IP-Basic morphology for samples alone.
extension FusionCompletion {
    /// Holes more than `wideHoleDistance` px from any value (where neither
    /// stereo nor samples reach: beyond the sensor's range outside the
    /// tele's view) take a fill of the values around them at half
    /// resolution (`smoothAtHalfResolution`), where the texture that stops
    /// the full-size fill is averaged away but object boundaries still stop
    /// it; the last-resort morphology would let the nearer surfaces win
    /// there. Narrower holes and whatever this leaves empty are unchanged.
    func fillWideHoles(_ inverse: [Float], smoother: CVEdgeAware.SmootherParameters) throws -> [Float] {
        let n = inverse.count, w = size.width, h = size.height
        var valid = [UInt8](repeating: 0, count: n)
        for p in 0..<n where inverse[p].isFinite && inverse[p] > 0 { valid[p] = 255 }
        // A pixel more than 2 px from any value has an empty 3x3
        // neighbourhood: without one (scattered holes) there is nothing to do.
        var anyWide = false
        search: for y in 1..<max(1, h - 1) {
            for x in 1..<max(1, w - 1) where valid[y * w + x] == 0 {
                if valid[(y - 1) * w + x - 1] | valid[(y - 1) * w + x] | valid[(y - 1) * w + x + 1] | valid[y * w + x - 1]
                    | valid[y * w + x + 1] | valid[(y + 1) * w + x - 1] | valid[(y + 1) * w + x] | valid[(y + 1) * w + x + 1] == 0 {
                    anyWide = true
                    break search
                }
            }
        }
        guard anyWide, valid.contains(255) else { return inverse }
        let distance = try FloatMaps.distanceToNonzero(valid, size)
        let wide = Float(Self.wideHoleDistance)
        guard distance.contains(where: { $0 > wide }) else { return inverse }
        let filled = try smoothAtHalfResolution(inverse.map { $0.isFinite && $0 > 0 ? $0 : 0 },
                                                valid.map { $0 > 0 ? 1 : 0 }, smoother)
        var out = inverse
        for p in 0..<n where distance[p] > wide && filled[p] > 0 { out[p] = filled[p] }
        return out
    }

    /// The distance from any value beyond which a hole is wide (`fillWideHoles`).
    static let wideHoleDistance = 2.0

    /// Pixels the edge-aware fills left empty: wide holes (where neither
    /// stereo nor samples reach) first take `fillWideHoles` with
    /// `wideHoleSmoother` (nil: skipped); the rest (walled in by strong
    /// edges far from any sample) get the morphological fill's value.
    func fillRemainingHoles(_ inverse: [Float], wideHoleSmoother: CVEdgeAware.SmootherParameters?) throws -> [Float] {
        let inverse = try wideHoleSmoother.map { try fillWideHoles(inverse, smoother: $0) } ?? inverse
        let w = size.width, h = size.height
        var x0 = w, x1 = -1, y0 = h, y1 = -1
        var lowest = Float.infinity
        inverse.withUnsafeBufferPointer { inverse in
            for y in 0..<h {
                for x in 0..<w {
                    let v = inverse[y * w + x]
                    if v.isFinite && v > 0 {
                        lowest = min(lowest, v)
                    } else {
                        x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                    }
                }
            }
        }
        guard x1 >= 0 else { return inverse }
        let maxDepth = lowest.isFinite ? 1 / lowest : 0
        // The holes are usually a few dozen pixels: the morphology runs on
        // their bounding box grown by `holeMargin` (the reach of its 31-px
        // dilations, repeated), not on the whole image.
        let m = Self.holeMargin
        let cx0 = max(0, x0 - m), cy0 = max(0, y0 - m), cw = min(w - 1, x1 + m) - cx0 + 1, ch = min(h - 1, y1 + m) - cy0 + 1
        var crop = [Float](repeating: .nan, count: cw * ch)
        for y in 0..<ch {
            for x in 0..<cw {
                let v = inverse[(y + cy0) * w + x + cx0]
                if v.isFinite && v > 0 { crop[y * cw + x] = 1 / v }
            }
        }
        let filled = FloatMaps.floats(try CVEdgeAware.morphologicalFill(
            sparseDepth: try FloatMaps.mat(crop, PixelSize(width: cw, height: ch)), maxDepth: Double(max(maxDepth, Self.holeMorphologyMinimumMaxDepth))))
        var out = inverse
        for y in 0..<ch {
            for x in 0..<cw {
                let p = (y + cy0) * w + x + cx0, f = filled[y * cw + x]
                if !(out[p].isFinite && out[p] > 0) { out[p] = f.isFinite && f > 0 ? 1 / f : .nan }
            }
        }
        return out
    }

    /// Pixels around the holes' bounding box that the last-resort morphology sees.
    static let holeMargin = 48
    /// The last-resort morphology's depth scale (IP-Basic's max depth, from
    /// which it inverts depths so that near wins) is at least this, metres.
    static let holeMorphologyMinimumMaxDepth: Float = 1
    /// The samples-only morphology's depth scale when no sample is finite
    /// (there is then nothing to spread; any positive scale will do).
    static let emptyMorphologyMaxDepth: Float = 10

    /// IP-Basic-style morphological completion of the samples (no image
    /// guidance), in inverse depth (NaN where it leaves a pixel empty).
    static func morphological(_ samples: Raster, size: PixelSize) throws -> [Float] {
        let sparse = samples.weight.indices.map { samples.weight[$0] > 0 ? 1 / samples.value[$0] : Float.nan }
        let maxDepth = Double(sparse.lazy.filter(\.isFinite).max() ?? Self.emptyMorphologyMaxDepth)
        return FloatMaps.floats(try CVEdgeAware.morphologicalFill(sparseDepth: try FloatMaps.mat(sparse, size), maxDepth: maxDepth))
            .map { $0.isFinite && $0 > 0 ? 1 / $0 : .nan }
    }
}
