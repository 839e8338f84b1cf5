import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// What `StereoEvaluation` looks at and how it splits the pixels.
public struct EvaluationOptions: Sendable {
    public var space: EvaluationSpace
    /// Disparity space: the bad-pixel thresholds in pixels.
    public var badThresholdsPixels: [Double] = [0.5, 1, 2, 4]
    /// Only pixels inside this rectangle are evaluated (nil: all).
    public var region: PixelRect?
    /// Only pixels where this is true are evaluated (nil: all).
    public var mask: [Bool]?
    /// Radius of the discontinuity band (see `DepthMetrics.discontinuityBand`).
    public var bandRadius = 3
    /// Relative jump |a - b| / min(a, b) of neighbouring truth values that
    /// makes a discontinuity. The same for depths and for disparities with
    /// doffs 0, since it is unchanged by taking reciprocals.
    public var relativeJump = 0.05

    public init(space: EvaluationSpace) { self.space = space }
}

/// Scores of one set of pixels. The n evaluated pixels are those with a
/// valid truth value inside the region and mask; the m valid ones also have
/// an estimate (finite; in depth space also > 0). `coverage` = m / n.
public struct EvaluationScores: Equatable, Sendable, Encodable {
    public var evaluatedPixels: Int
    public var validPixels: Int
    @NullIfNotFinite public var coverage: Double
    /// In disparity space.
    public var disparity: DisparityScores?
    /// In depth space.
    public var depth: DepthScores?
    /// Direction of the error field: the mean squared difference of the
    /// signed error s (e - g in pixels, (e - g) / g in depth space) between
    /// vertically adjacent valid pixels over that between horizontally
    /// adjacent ones. About 1 for errors without a direction; well above 1
    /// for horizontal streaks (s constant along rows, changing across them,
    /// as scanline fills leave), below 1 for vertical ones. NaN without pairs.
    @NullIfNotFinite public var streakRatio: Double = .nan
}

/// Pixel-disparity errors e = |d_est - d_gt| (Middlebury's and KITTI's scores).
public struct DisparityScores: Equatable, Sendable, Encodable {
    public struct Bad: Equatable, Sendable, Encodable {
        public var thresholdPixels: Double
        /// (missing + valid with e > threshold) / n: a missing value counts as bad.
        @NullIfNotFinite public var fraction: Double
        /// valid with e > threshold / m.
        @NullIfNotFinite public var fractionOfValid: Double
    }
    public var bad: [Bad]
    /// mean e over the m valid pixels (Middlebury's avgerr for sparse maps).
    @NullIfNotFinite public var averageErrorPixels: Double
    /// sqrt(mean e^2) over the m valid pixels.
    @NullIfNotFinite public var rmsErrorPixels: Double

    /// The bad-pixel fraction at `threshold` px, if it was scored.
    public func bad(_ threshold: Double) -> Bad? { bad.first { $0.thresholdPixels == threshold } }
}

/// Depth errors over the m valid pixels (e estimate, g truth, metres).
public struct DepthScores: Equatable, Sendable, Encodable {
    /// mean |e - g| / g.
    @NullIfNotFinite public var absoluteRelativeError: Double
    /// sqrt(mean (e - g)^2).
    @NullIfNotFinite public var rmseMetres: Double
    /// mean |e - g|.
    @NullIfNotFinite public var maeMetres: Double
    /// share with max(e / g, g / e) < 1.05 and < 1.25.
    @NullIfNotFinite public var delta105: Double
    @NullIfNotFinite public var delta125: Double
}

/// Scores over all evaluated pixels and split into the interior and the
/// band around the truth's discontinuities.
public struct EvaluationReport: Equatable, Sendable, Encodable {
    public var space: EvaluationSpace
    public var all: EvaluationScores
    public var interior: EvaluationScores
    public var band: EvaluationScores
    public var bandRadius: Int
    public var relativeJump: Double
}

/// Scores a depth or disparity map against ground truth of the same size,
/// in the space of `options` (`EvaluationMap.values(in:target:)` converts
/// both through the truth's geometry). Prepared once; `report` and
/// `errorMap` read the prepared values.
public struct StereoEvaluation: Sendable {
    public let options: EvaluationOptions
    public let size: PixelSize
    /// Values in `options.space` (NaN missing).
    public let estimate: [Float], truth: [Float]
    /// Pixels with a valid truth inside the region and mask.
    public let evaluated: [Bool]
    /// Pixels in the discontinuity band of the truth.
    public let band: [Bool]

    public init(estimate: EvaluationMap, truth: EvaluationMap, options: EvaluationOptions) throws {
        guard estimate.size == truth.size else {
            throw DualcamError.invalidValue(
                name: "evaluation", reason: "the map is \(estimate.size) and the ground truth \(truth.size) (resize the ground truth to compare)")
        }
        let size = truth.size, n = size.width * size.height
        if let mask = options.mask, mask.count != n {
            throw DualcamError.invalidValue(name: "evaluation mask", reason: "\(mask.count) values for a \(size) map")
        }
        var inRegion = [Bool](repeating: true, count: n)
        if let r = options.region {
            guard r.x >= 0, r.y >= 0, r.width > 0, r.height > 0, r.x + r.width <= size.width, r.y + r.height <= size.height else {
                throw DualcamError.invalidValue(
                    name: "region x \(r.x)..<\(r.x + r.width), y \(r.y)..<\(r.y + r.height)", reason: "expected a non-empty rectangle inside the \(size) map")
            }
            for y in 0..<size.height {
                for x in 0..<size.width { inRegion[y * size.width + x] = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height }
            }
        }
        let truthValues = try truth.values(in: options.space, target: truth.geometry)
        let estimateValues = try estimate.values(in: options.space, target: truth.geometry)
        var evaluated = [Bool](repeating: false, count: n)
        for i in 0..<n where inRegion[i] && (options.mask?[i] ?? true) {
            let g = truthValues[i]
            evaluated[i] = options.space == .depth ? (g.isFinite && g > 0) : g.isFinite
        }
        guard evaluated.contains(true) else {
            throw DualcamError.invalidValue(name: "ground truth", reason: "has no valid pixel in the evaluated region")
        }
        self.options = options
        self.size = size
        self.estimate = estimateValues
        self.truth = truthValues
        self.evaluated = evaluated
        self.band = try DepthMetrics.discontinuityBand(truthMetres: truth.values, size: size, radius: options.bandRadius,
                                                       relativeJump: options.relativeJump)
    }

    /// Whether the estimate at i counts as a value in this space.
    @inline(__always)
    func isValid(_ i: Int) -> Bool {
        let e = estimate[i]
        return options.space == .depth ? (e.isFinite && e > 0) : e.isFinite
    }

    public var report: EvaluationReport {
        var all = Accumulator(options), interior = Accumulator(options), inBand = Accumulator(options)
        for i in 0..<evaluated.count where evaluated[i] {
            let e: Double? = isValid(i) ? Double(estimate[i]) : nil
            let g = Double(truth[i])
            all.add(e, g)
            if band[i] { inBand.add(e, g) } else { interior.add(e, g) }
        }
        var report = EvaluationReport(space: options.space, all: all.scores, interior: interior.scores, band: inBand.scores,
                                      bandRadius: options.bandRadius, relativeJump: options.relativeJump)
        let ratios = streakRatios()
        (report.all.streakRatio, report.interior.streakRatio, report.band.streakRatio) = (ratios.all, ratios.interior, ratios.band)
        return report
    }

    /// `EvaluationScores.streakRatio` of all scored pixels, and of pairs
    /// within the interior and within the band.
    func streakRatios() -> (all: Double, interior: Double, band: Double) {
        let w = size.width, h = size.height
        let signed: [Double] = estimate.indices.map { i in
            guard evaluated[i], isValid(i) else { return .nan }
            let e = Double(estimate[i]), g = Double(truth[i])
            return options.space == .disparity ? e - g : (e - g) / g
        }
        // [group][direction]: squared-difference sums and pair counts (group 0 all, 1 interior, 2 band).
        var sums = [[Double]](repeating: [0, 0], count: 3), counts = [[Int]](repeating: [0, 0], count: 3)
        func pair(_ i: Int, _ j: Int, _ direction: Int) {
            let a = signed[i], b = signed[j]
            guard a.isFinite, b.isFinite else { return }
            let d2 = (a - b) * (a - b)
            sums[0][direction] += d2; counts[0][direction] += 1
            if band[i] == band[j] {
                let group = band[i] ? 2 : 1
                sums[group][direction] += d2; counts[group][direction] += 1
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if x + 1 < w { pair(i, i + 1, 0) }
                if y + 1 < h { pair(i, i + w, 1) }
            }
        }
        func ratio(_ g: Int) -> Double {
            guard counts[g][0] > 0, counts[g][1] > 0, sums[g][0] > 0 else { return .nan }
            return (sums[g][1] / Double(counts[g][1])) / (sums[g][0] / Double(counts[g][0]))
        }
        return (ratio(0), ratio(1), ratio(2))
    }
}

/// Running sums of one pixel set.
private struct Accumulator {
    let space: EvaluationSpace
    let thresholds: [Double]
    var evaluated = 0, valid = 0
    var above: [Int]
    var sumAbs = 0.0, sumSquared = 0.0, sumRelative = 0.0, within105 = 0, within125 = 0

    init(_ options: EvaluationOptions) {
        space = options.space
        thresholds = options.badThresholdsPixels
        above = [Int](repeating: 0, count: thresholds.count)
    }

    mutating func add(_ estimate: Double?, _ truth: Double) {
        evaluated += 1
        guard let e = estimate else { return }
        valid += 1
        let error = abs(e - truth)
        sumAbs += error
        sumSquared += error * error
        switch space {
        case .disparity:
            for (k, t) in thresholds.enumerated() where error > t { above[k] += 1 }
        case .depth:
            sumRelative += error / truth
            let ratio = max(e / truth, truth / e)
            if ratio < 1.05 { within105 += 1 }
            if ratio < 1.25 { within125 += 1 }
        }
    }

    var scores: EvaluationScores {
        let m = Double(valid), n = Double(evaluated)
        func perValid(_ x: Double) -> Double { valid > 0 ? x / m : .nan }
        var scores = EvaluationScores(evaluatedPixels: evaluated, validPixels: valid, coverage: evaluated > 0 ? m / n : .nan)
        switch space {
        case .disparity:
            scores.disparity = DisparityScores(
                bad: zip(thresholds, above).map { t, count in
                    DisparityScores.Bad(thresholdPixels: t, fraction: evaluated > 0 ? (Double(count) + n - m) / n : .nan,
                                        fractionOfValid: perValid(Double(count)))
                },
                averageErrorPixels: perValid(sumAbs), rmsErrorPixels: perValid(sumSquared).squareRoot())
        case .depth:
            scores.depth = DepthScores(
                absoluteRelativeError: perValid(sumRelative), rmseMetres: perValid(sumSquared).squareRoot(),
                maeMetres: perValid(sumAbs), delta105: perValid(Double(within105)), delta125: perValid(Double(within125)))
        }
        return scores
    }
}
