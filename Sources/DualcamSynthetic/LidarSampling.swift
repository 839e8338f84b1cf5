import DualcamImaging
import DualcamSupport

/// LiDAR-like sparse metric depth samples drawn from a ground-truth depth map
/// (in the pixel grid of the camera the samples are registered to, the wide).
///
/// Model: each sample sits at a pixel centre (x, y); its depth is the ground
/// truth plus Gaussian noise N(0, sigma), sigma = `noiseSigma` +
/// `relativeNoiseSigma` x truth (a ranging error that grows with distance,
/// e.g. 1 % for samples drawn from a real scene's ground truth); a fraction of samples are outliers
/// with a depth drawn uniformly from [minimumRange, rangeLimit]; pixels beyond
/// `rangeLimit` or without ground truth return nothing (like a real sensor).
/// Confidence in [0, 1]: inliers get 1 - 0.5 z / rangeLimit, lowered by 0.4
/// at depth discontinuities (mixed-pixel returns); outliers get a uniform
/// random confidence, so some of them look trustworthy, as real ones do.
public struct LidarSampling: Equatable, Sendable {
    public enum Pattern: Equatable, Sendable {
        /// Each valid pixel is sampled with probability `fraction` (0.02 = 2 %).
        case random(fraction: Double)
        /// A regular dot pattern of `columns` x `rows` dots over the image, at
        /// most one per pixel (`sample` throws for a grid finer than the image).
        case grid(columns: Int, rows: Int)
    }

    public var pattern: Pattern
    public var rangeLimit: Double
    public var minimumRange: Double
    public var noiseSigma: Double
    /// Noise sigma as a fraction of the true depth, added to `noiseSigma`.
    public var relativeNoiseSigma = 0.0
    public var outlierFraction: Double
    public var seed: UInt64

    public init(pattern: Pattern = .random(fraction: 0.02), rangeLimit: Double = 5, minimumRange: Double = 0.2,
                noiseSigma: Double = 0.01, outlierFraction: Double = 0.02, seed: UInt64 = 1) {
        self.pattern = pattern
        self.rangeLimit = rangeLimit
        self.minimumRange = minimumRange
        self.noiseSigma = noiseSigma
        self.outlierFraction = outlierFraction
        self.seed = seed
    }

    /// Parses `random:0.02`, `random:2%`, or `grid:24x24`.
    public static func parsePattern(_ text: String) -> Pattern? {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "random":
            let percent = parts[1].hasSuffix("%")
            guard let v = Double(percent ? String(parts[1].dropLast()) : parts[1]) else { return nil }
            let fraction = percent ? v / 100 : v
            return fraction > 0 && fraction <= 1 ? .random(fraction: fraction) : nil
        case "grid":
            // Exactly two integers: no empty or junk fields (24xx24, 24x24xjunk).
            let fields = parts[1].split(separator: "x", omittingEmptySubsequences: false)
            guard fields.count == 2, let columns = Int(fields[0]), let rows = Int(fields[1]), columns > 0, rows > 0
            else { return nil }
            return .grid(columns: columns, rows: rows)
        default:
            return nil
        }
    }
}

/// One sparse sample in the pixel grid of the camera it is registered to.
public struct LidarSample: Equatable, Sendable {
    public var x: Int
    public var y: Int
    /// Measured depth (Z along the optical axis), metres.
    public var depth: Double
    public var confidence: Double
    /// Ground truth (not part of the exported data): the true depth and whether the sample is an outlier.
    public var trueDepth: Double
    public var isOutlier: Bool
}

extension LidarSampling {
    /// Draws samples from `depth` (1-channel float32, metres, NaN = no surface).
    public func sample(_ depth: Image) throws -> [LidarSample] {
        let z = try depth.pixels(as: Float.self)
        let w = depth.width, h = depth.height
        var rng = SplitMix(seed: seed ^ 0x4C49_4441_5221)
        var positions: [(Int, Int)] = []
        switch pattern {
        case let .random(fraction):
            for y in 0..<h { for x in 0..<w where rng.unit() < fraction { positions.append((x, y)) } }
        case let .grid(columns, rows):
            guard columns <= w, rows <= h else {
                throw DualcamError.invalidValue(name: "lidar grid:\(columns)x\(rows)",
                                                reason: "more dots than pixels; expected at most \(w)x\(h)")
            }
            for j in 0..<rows {
                for i in 0..<columns {
                    let x = Int(((Double(i) + 0.5) * Double(w) / Double(columns)).rounded(.down))
                    let y = Int(((Double(j) + 0.5) * Double(h) / Double(rows)).rounded(.down))
                    positions.append((min(x, w - 1), min(y, h - 1)))
                }
            }
        }
        var samples: [LidarSample] = []
        samples.reserveCapacity(positions.count)
        for (x, y) in positions {
            let truth = Double(z[y * w + x])
            guard truth.isFinite, truth > 0, truth <= rangeLimit else { continue }
            let outlier = rng.unit() < outlierFraction
            let measured: Double
            var confidence: Double
            if outlier {
                measured = minimumRange + rng.unit() * (rangeLimit - minimumRange)
                confidence = rng.unit()
            } else {
                measured = max(minimumRange * 0.5, truth + (noiseSigma + relativeNoiseSigma * truth) * rng.gaussian())
                confidence = 1 - 0.5 * truth / rangeLimit
                if isDiscontinuity(z, w, h, x, y) { confidence -= 0.4 }
            }
            confidence = min(1, max(0, confidence))
            samples.append(LidarSample(x: x, y: y, depth: measured, confidence: confidence,
                                       trueDepth: truth, isOutlier: outlier))
        }
        return samples
    }

    /// True when a 4-neighbour's depth differs by more than 5 % (or is missing).
    private func isDiscontinuity(_ z: [Float], _ w: Int, _ h: Int, _ x: Int, _ y: Int) -> Bool {
        let c = z[y * w + x]
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let nx = x + dx, ny = y + dy
            guard nx >= 0, ny >= 0, nx < w, ny < h else { continue }
            let n = z[ny * w + nx]
            if !n.isFinite || abs(n - c) > 0.05 * c { return true }
        }
        return false
    }
}

/// SplitMix64: a small, fast, seedable generator; the same seed gives the same samples everywhere.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= NoiseHash.golden
        return NoiseHash.mix(state)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Standard normal (Box-Muller).
    mutating func gaussian() -> Double {
        let u1 = max(unit(), 0x1p-53), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
