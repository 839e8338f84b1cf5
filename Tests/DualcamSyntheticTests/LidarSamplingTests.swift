import DualcamImaging
import DualcamSynthetic
import TestSupport
import XCTest

/// LiDAR-like sampling on a hand-built depth map (no renderer): 400x300
/// float32 metres, a ramp from 0.5 to 2 m over the left half and from 3 to
/// 8 m over the right half (a 1 m discontinuity between columns 199 and 200),
/// with the top 20 rows NaN (no surface).
final class LidarSamplingTests: XCTestCase {
    static let width = 400, height = 300, emptyRows = 20

    static func truth(_ x: Int, _ y: Int) -> Double {
        if y < emptyRows { return .nan }
        return x < 200 ? 0.5 + 1.5 * Double(x) / 199 : 3 + 5 * Double(x - 200) / 199
    }

    static func depthImage() throws -> Image {
        var values: [Float] = []
        for y in 0..<height { for x in 0..<width { values.append(Float(truth(x, y))) } }
        return try Image(width: width, height: height, channels: 1, pixels: values)
    }

    /// Pixels with a surface at most `range` metres away.
    static func validCount(within range: Double) -> Int {
        var n = 0
        for y in 0..<height { for x in 0..<width where Double(Float(truth(x, y))) <= range { n += 1 } }
        return n
    }

    static func sampling(_ pattern: LidarSampling.Pattern, range: Double = 10, sigma: Double = 0.01,
                         outliers: Double = 0, seed: UInt64 = 1) -> LidarSampling {
        LidarSampling(pattern: pattern, rangeLimit: range, minimumRange: 0.2, noiseSigma: sigma,
                      outlierFraction: outliers, seed: seed)
    }

    // MARK: patterns

    /// Random sampling keeps each valid pixel with probability f: the count is
    /// binomial(N, f), within 4 standard deviations of N f.
    func testRandomDensityIsTheFraction() throws {
        let depth = try Self.depthImage()
        let valid = Self.validCount(within: 10)
        XCTAssertEqual(valid, 400 * 280)
        for fraction in [0.01, 0.05, 0.3] {
            let samples = try Self.sampling(.random(fraction: fraction)).sample(depth)
            let expected = Double(valid) * fraction
            let sd = (expected * (1 - fraction)).squareRoot()
            XCTAssertLessThan(abs(Double(samples.count) - expected), 4 * sd,
                              "fraction \(fraction): \(samples.count) samples, expected \(expected) +- \(sd)")
            XCTAssertTrue(samples.allSatisfy { $0.y >= Self.emptyRows }, "no sample where there is no surface")
            // Spread over the image, not clustered: both halves and top/bottom get their share.
            let left = samples.filter { $0.x < 200 }.count
            XCTAssertLessThan(abs(Double(left) - expected / 2), 4 * sd, "fraction \(fraction): \(left) on the left")
            let positions = Set(samples.map { $0.y * Self.width + $0.x })
            XCTAssertEqual(positions.count, samples.count, "each pixel sampled at most once")
        }
    }

    /// A grid of cols x rows dots at the cell centres, minus the dots that fall
    /// on the empty rows or beyond the range limit.
    func testGridCountIsColumnsTimesRowsMinusOutOfRange() throws {
        let depth = try Self.depthImage()
        let (cols, rows) = (24, 18)
        let xs = (0..<cols).map { Int((Double($0) + 0.5) * 400 / 24) }
        let ys = (0..<rows).map { Int((Double($0) + 0.5) * 300 / 18) }
        // Without a limit every dot on a surface is kept.
        let all = try Self.sampling(.grid(columns: cols, rows: rows)).sample(depth)
        let surfaceRows = ys.filter { $0 >= Self.emptyRows }.count
        XCTAssertEqual(surfaceRows, rows - 1, "the first row of dots (y = 8) is on the empty rows")
        XCTAssertEqual(all.count, cols * surfaceRows)
        XCTAssertEqual(Set(all.map(\.x)), Set(xs))
        XCTAssertEqual(Set(all.map(\.y)), Set(ys.filter { $0 >= Self.emptyRows }))
        // With a 5 m limit the dots right of column 279 (z > 5 m) go.
        let limited = try Self.sampling(.grid(columns: cols, rows: rows), range: 5).sample(depth)
        let inRange = xs.filter { Self.truth($0, 150) <= 5 }.count
        XCTAssertLessThan(inRange, cols)
        XCTAssertEqual(limited.count, inRange * surfaceRows)
        XCTAssertLessThanOrEqual(limited.count, cols * rows)
    }

    /// No sample's true depth exceeds the range limit, and outliers' measured
    /// depths stay within [minimumRange, rangeLimit]; the limit is not a
    /// lower cap either (samples reach close to it).
    func testRangeLimitIsRespected() throws {
        let depth = try Self.depthImage()
        for range in [1.0, 3.5, 5.0] {
            let samples = try Self.sampling(.random(fraction: 0.2), range: range, outliers: 0.1).sample(depth)
            XCTAssertFalse(samples.isEmpty)
            XCTAssertLessThanOrEqual(samples.map(\.trueDepth).max()!, range)
            XCTAssertGreaterThan(samples.map(\.trueDepth).max()!, range - 0.1, "samples reach the limit")
            for s in samples where s.isOutlier {
                XCTAssertTrue(s.depth >= 0.2 && s.depth <= range, "outlier depth \(s.depth) outside [0.2, \(range)]")
            }
            let expected = Double(Self.validCount(within: range)) * 0.2
            XCTAssertLessThan(abs(Double(samples.count) - expected), 4 * (expected * 0.8).squareRoot())
        }
    }

    /// A grid as fine as the image samples every pixel once; a finer one is
    /// refused (rather than allocating columns x rows positions).
    func testGridFinerThanTheImageIsRefused() throws {
        let depth = try Self.depthImage()
        let every = try Self.sampling(.grid(columns: 400, rows: 300)).sample(depth)
        XCTAssertEqual(every.count, 400 * 280)
        XCTAssertEqual(Set(every.map { $0.y * 400 + $0.x }).count, every.count)
        for (columns, rows) in [(401, 300), (400, 301), (100_000, 100_000)] {
            XCTAssertThrowsError(try Self.sampling(.grid(columns: columns, rows: rows)).sample(depth)) { error in
                XCTAssertTrue("\(error)".contains("more dots than pixels"), "\(error)")
            }
        }
    }

    // MARK: noise, outliers, confidence

    /// Inliers: measured - true depth is N(0, sigma): the sample standard
    /// deviation within 15 % of sigma and the mean within 4 standard errors of 0.
    /// The true depth is the map's value at the sample's pixel.
    func testNoiseResidualsHaveTheGivenSigma() throws {
        let depth = try Self.depthImage()
        let values = try depth.pixels(as: Float.self)
        for sigma in [0.01, 0.05] {
            let samples = try Self.sampling(.random(fraction: 0.1), sigma: sigma, outliers: 0.05).sample(depth)
            let inliers = samples.filter { !$0.isOutlier }
            XCTAssertGreaterThan(inliers.count, 5000)
            for s in samples { XCTAssertEqual(s.trueDepth, Double(values[s.y * Self.width + s.x])) }
            let residuals = inliers.map { $0.depth - $0.trueDepth }
            let n = Double(residuals.count)
            let mean = residuals.reduce(0, +) / n
            let sd = (residuals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)).squareRoot()
            XCTAssertClose(sd, sigma, relative: 0.15, "residual standard deviation for sigma \(sigma)")
            XCTAssertLessThan(abs(mean), 4 * sigma / n.squareRoot(), "residual mean \(mean) for sigma \(sigma)")
            // Gaussian: about 68 % within one sigma.
            let within = Double(residuals.filter { abs($0) <= sigma }.count) / n
            XCTAssertClose(within, 0.6827, absolute: 0.03)
        }
        // Without noise the inliers are exact.
        let exact = try Self.sampling(.random(fraction: 0.05), sigma: 0).sample(depth)
        XCTAssertTrue(exact.allSatisfy { $0.depth == $0.trueDepth })
    }

    /// Outliers make up the given fraction (binomial, 4 standard deviations),
    /// are flagged, and are the samples that are far off: no unflagged sample
    /// is more than 6 sigma off, and nearly all flagged ones are.
    func testOutliersHaveTheFractionAndAreFlagged() throws {
        let depth = try Self.depthImage()
        let sigma = 0.01
        for fraction in [0.02, 0.2] {
            let samples = try Self.sampling(.random(fraction: 0.2), range: 10, sigma: sigma, outliers: fraction).sample(depth)
            let outliers = samples.filter(\.isOutlier)
            let n = Double(samples.count), expected = n * fraction
            XCTAssertLessThan(abs(Double(outliers.count) - expected), 4 * (expected * (1 - fraction)).squareRoot(),
                              "\(outliers.count) outliers of \(samples.count), fraction \(fraction)")
            XCTAssertTrue(samples.filter { !$0.isOutlier }.allSatisfy { abs($0.depth - $0.trueDepth) < 6 * sigma })
            let farOff = outliers.filter { abs($0.depth - $0.trueDepth) > 6 * sigma }.count
            XCTAssertGreaterThan(Double(farOff), 0.95 * Double(outliers.count), "flagged outliers are wrong depths")
            // Uniform over [0.2, 10]: mean about 5.1.
            let mean = outliers.map(\.depth).reduce(0, +) / Double(outliers.count)
            XCTAssertClose(mean, 5.1, absolute: 0.5)
        }
        let none = try Self.sampling(.random(fraction: 0.2), outliers: 0).sample(depth)
        XCTAssertFalse(none.contains(where: \.isOutlier))
    }

    /// Confidence lies in [0, 1]; for inliers it falls with depth and drops at
    /// the depth discontinuity (columns 199 and 200) and next to the empty rows.
    func testConfidenceIsInUnitRangeAndLowerAtDiscontinuities() throws {
        let depth = try Self.depthImage()
        let samples = try Self.sampling(.random(fraction: 1), range: 10, outliers: 0.1).sample(depth)
        XCTAssertEqual(samples.count, Self.validCount(within: 10))
        XCTAssertTrue(samples.allSatisfy { $0.confidence >= 0 && $0.confidence <= 1 })
        let inliers = samples.filter { !$0.isOutlier }
        func meanConfidence(_ keep: (LidarSample) -> Bool) -> Double {
            let chosen = inliers.filter(keep)
            XCTAssertFalse(chosen.isEmpty)
            return chosen.map(\.confidence).reduce(0, +) / Double(chosen.count)
        }
        let interior: (LidarSample) -> Bool = { $0.y > Self.emptyRows }
        let atEdgeLeft = meanConfidence { interior($0) && $0.x == 199 }
        let besideLeft = meanConfidence { interior($0) && $0.x == 196 }
        let atEdgeRight = meanConfidence { interior($0) && $0.x == 200 }
        let besideRight = meanConfidence { interior($0) && $0.x == 203 }
        XCTAssertGreaterThan(besideLeft - atEdgeLeft, 0.3, "mixed-pixel returns are less trustworthy")
        XCTAssertGreaterThan(besideRight - atEdgeRight, 0.3)
        let nextToEmpty = meanConfidence { $0.y == Self.emptyRows && $0.x > 10 && $0.x < 190 }
        let belowThat = meanConfidence { $0.y == Self.emptyRows + 3 && $0.x > 10 && $0.x < 190 }
        XCTAssertGreaterThan(belowThat - nextToEmpty, 0.3, "the edge of a surface is a discontinuity too")
        let near = meanConfidence { interior($0) && $0.x > 10 && $0.x < 50 }
        let far = meanConfidence { interior($0) && $0.x > 350 && $0.x < 390 }
        XCTAssertGreaterThan(near, far + 0.2, "confidence falls with depth")
        // Outliers' confidences are spread over [0, 1]: some look trustworthy.
        let outlierConfidences = samples.filter(\.isOutlier).map(\.confidence)
        XCTAssertGreaterThan(outlierConfidences.max()!, 0.9)
        XCTAssertLessThan(outlierConfidences.min()!, 0.1)
    }

    // MARK: determinism and parsing

    func testSameSeedSameSamples() throws {
        let depth = try Self.depthImage()
        let a = try Self.sampling(.random(fraction: 0.02), outliers: 0.1, seed: 9).sample(depth)
        let b = try Self.sampling(.random(fraction: 0.02), outliers: 0.1, seed: 9).sample(depth)
        let c = try Self.sampling(.random(fraction: 0.02), outliers: 0.1, seed: 10).sample(depth)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a.map { [$0.x, $0.y] }, c.map { [$0.x, $0.y] }, "another seed picks other pixels")
        let g1 = try Self.sampling(.grid(columns: 10, rows: 10), seed: 1).sample(depth)
        let g2 = try Self.sampling(.grid(columns: 10, rows: 10), seed: 2).sample(depth)
        XCTAssertEqual(g1.map { [$0.x, $0.y] }, g2.map { [$0.x, $0.y] }, "a grid does not move with the seed")
        XCTAssertNotEqual(g1.map(\.depth), g2.map(\.depth), "its noise does")
    }

    func testParsePattern() {
        XCTAssertEqual(LidarSampling.parsePattern("random:0.02"), .random(fraction: 0.02))
        XCTAssertEqual(LidarSampling.parsePattern("random:2%"), .random(fraction: 0.02))
        XCTAssertEqual(LidarSampling.parsePattern("random:100%"), .random(fraction: 1))
        XCTAssertEqual(LidarSampling.parsePattern("random:1"), .random(fraction: 1))
        XCTAssertEqual(LidarSampling.parsePattern("RANDOM:0.5"), .random(fraction: 0.5))
        XCTAssertEqual(LidarSampling.parsePattern("grid:24x24"), .grid(columns: 24, rows: 24))
        XCTAssertEqual(LidarSampling.parsePattern("grid:8x6"), .grid(columns: 8, rows: 6))
        XCTAssertEqual(LidarSampling.parsePattern("grid:8X6"), .grid(columns: 8, rows: 6))
        for junk in ["", "random", "random:", "random:0", "random:2", "random:-0.1", "random:abc", "random:2%%",
                     "random:nan", "random:inf", "random:0%", "random:101%", "random:0.02:1", "grid:", "grid:24",
                     "grid:24x", "grid:x24", "grid:0x5", "grid:5x0", "grid:-3x4", "grid:24x24x2", "grid:24xx24",
                     "grid:24x24xjunk", "grid:2.5x3", "grid:axb", "dots:24x24", "24x24", "0.02"] {
            XCTAssertNil(LidarSampling.parsePattern(junk), "'\(junk)' should be rejected")
        }
    }
}
