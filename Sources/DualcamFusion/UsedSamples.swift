import DualcamGeometry

/// The samples a fusion uses after verification, rasterized to the output
/// grid (`Raster`), and the inverse-depth range nothing may leave.
struct UsedSamples {
    /// Every sample but the outliers.
    let all: Raster
    /// Those the global stereo fit also kept: the residual fields take only
    /// these (a sample on a fattened stereo edge would spread a false correction).
    let fitted: Raster
    /// [0.5 min, 2 max] of the used samples' 1/z: a near-empty normalizer
    /// amplifies rounding into absurd values, and a stereo value far outside
    /// (a match at the image border with almost no disparity: 1e5 m) would
    /// flatten the depth guide's scale.
    let inverseRange: ClosedRange<Float>
    /// `inverseRange` reaches this factor below the smallest used 1/z and
    /// `rangeAbove` times the largest: a margin of a factor 2 in depth
    /// either way for what the samples miss.
    static let rangeBelow: Float = 0.5, rangeAbove: Float = 2
    /// How many samples are used.
    let count: Int

    init(_ samples: [MetricSample], pixels: [Int], count: Int, verdicts: [SampleVerdict], gross: [Bool]?) {
        all = Raster(samples: samples, pixels: pixels, count: count) { verdicts[$0] != .outlier }
        fitted = Raster(samples: samples, pixels: pixels, count: count) { verdicts[$0] != .outlier && !(gross?[$0] ?? false) }
        let used = samples.indices.filter { verdicts[$0] != .outlier }.map { Float(1 / samples[$0].depthMetres) }
        let lowest = Self.rangeBelow * (used.min() ?? 0), highest = Self.rangeAbove * (used.max() ?? .infinity)
        inverseRange = lowest...max(lowest, highest)
        self.count = used.count
    }

    /// `inverse` with every finite value clamped into `inverseRange` (NaN stays NaN).
    func clamped(_ inverse: [Float]) -> [Float] {
        let lowest = inverseRange.lowerBound, highest = inverseRange.upperBound
        var v = inverse
        v.withUnsafeMutableBufferPointer { v in
            for p in v.indices {
                v[p] = v[p].isFinite && v[p] >= lowest && v[p] <= highest ? v[p] : (v[p].isFinite ? min(max(v[p], lowest), highest) : .nan)
            }
        }
        return v
    }
}

/// Samples rasterized to the grid: per pixel the confidence-weighted mean inverse depth and the weight sum.
struct Raster {
    var value: [Float]
    var weight: [Float]
    init(samples: [MetricSample], pixels: [Int], count: Int, include: (Int) -> Bool) {
        value = [Float](repeating: 0, count: count)
        weight = [Float](repeating: 0, count: count)
        for i in samples.indices where include(i) {
            let w = Float(max(FusionConstants.sampleConfidenceFloor, samples[i].confidence))
            weight[pixels[i]] += w
            value[pixels[i]] += w * Float(1 / samples[i].depthMetres)
        }
        for p in 0..<count where weight[p] > 0 { value[p] /= weight[p] }
    }

    /// Every pixel takes the value of the nearest rasterized sample (4-connected
    /// breadth-first flood from all of them at once; NaN without samples).
    func nearestFill(_ size: PixelSize) -> [Float] {
        let w = size.width, h = size.height
        var out = [Float](repeating: .nan, count: w * h)
        var queue: [Int] = []
        queue.reserveCapacity(w * h)
        for p in 0..<(w * h) where weight[p] > 0 {
            out[p] = value[p]
            queue.append(p)
        }
        var head = 0
        while head < queue.count {
            let p = queue[head]
            head += 1
            let x = p % w, v = out[p]
            if x + 1 < w, out[p + 1].isNaN { out[p + 1] = v; queue.append(p + 1) }
            if x > 0, out[p - 1].isNaN { out[p - 1] = v; queue.append(p - 1) }
            if p + w < w * h, out[p + w].isNaN { out[p + w] = v; queue.append(p + w) }
            if p >= w, out[p - w].isNaN { out[p - w] = v; queue.append(p - w) }
        }
        return out
    }
}
