import DualcamGeometry
import DualcamSupport

/// Samples that share an output pixel, reduced to one per pixel before the
/// fit and the verification (which compare samples pairwise within a few
/// pixels: k samples on one pixel cost k^2 comparisons, so 200 k samples
/// on one pixel took over 20 s).
///
/// A pixel is the nearest grid point, (round(x), round(y)). Of a pixel's
/// samples the one of median inverse depth 1/z stands for the pixel
/// (the lower median for an even count) with its own position, depth and
/// confidence: a real sample, robust to a minority of outliers in the pixel
/// (a mixed-pixel return at a depth edge). A pixel with one sample keeps it
/// unchanged; the order of the kept samples is that of their first appearance.
public enum SampleMerging {
    /// The samples with at most one per pixel of `size` (samples beyond the
    /// border count for the nearest border pixel). Every coordinate must be
    /// finite and every depth finite and positive with a finite 1/z;
    /// otherwise an `.invalidValue` error names the sample (the sample
    /// readers drop such samples before this point).
    public static func onePerPixel(_ samples: [MetricSample], size: PixelSize) throws -> [MetricSample] {
        let keys = try samples.indices.map { i in try pixelIndex(samples[i], index: i, size: size) }
        // Counting sort by pixel (linear; a comparison sort of a million
        // samples took most of the merge), sample order kept within a pixel.
        let pixels = size.width * size.height
        var start = [Int](repeating: 0, count: pixels + 1)
        for key in keys { start[key + 1] += 1 }
        if !start.contains(where: { $0 > 1 }) { return samples }  // no pixel has two samples
        for p in 0..<pixels { start[p + 1] += start[p] }
        var next = start
        var order = [Int](repeating: 0, count: samples.count)
        for (i, key) in keys.enumerated() {
            order[next[key]] = i
            next[key] += 1
        }
        var kept: [Int] = []
        kept.reserveCapacity(min(samples.count, pixels))
        for p in 0..<pixels where start[p + 1] > start[p] {
            let members = order[start[p]..<start[p + 1]]
            if members.count == 1 {
                kept.append(members.first!)
            } else {
                let sorted = members.sorted { a, b in (1 / samples[a].depthMetres, a) < (1 / samples[b].depthMetres, b) }
                kept.append(sorted[(sorted.count - 1) / 2])
            }
        }
        kept.sort()
        return kept.map { samples[$0] }
    }

    /// The row-major index of the pixel nearest to sample `index`, checked.
    static func pixelIndex(_ s: MetricSample, index: Int, size: PixelSize) throws -> Int {
        guard s.x.isFinite, s.y.isFinite, s.depthMetres.isFinite, s.depthMetres > 0, (1 / s.depthMetres).isFinite else {
            throw DualcamError.invalidValue(
                name: "sample \(index)", reason: "expected finite coordinates and a finite positive depth, got (\(s.x), \(s.y), \(s.depthMetres) m)")
        }
        // Clamped to the grid in floating point (then the conversion cannot trap),
        // as `DepthFusion` places samples.
        let x = min(Double(size.width - 1), max(0, s.x.rounded())), y = min(Double(size.height - 1), max(0, s.y.rounded()))
        return Int(y) * size.width + Int(x)
    }
}
