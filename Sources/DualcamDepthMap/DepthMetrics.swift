import DualcamGeometry
import DualcamSupport
import Foundation

/// Errors of a depth estimate against ground truth over the evaluated pixels
/// (the mask, where the truth is a valid depth). Depth errors are in metres;
/// a metric without any pixel to average is NaN (encoded as JSON null).
///
/// With e the estimate, g the truth (both depth in m) over the n pixels
/// where both are valid:
/// - `coverage` = n / evaluated pixels (0 when nothing is evaluated);
/// - `rmseMetres` = sqrt(mean (e - g)^2); `maeMetres` = mean |e - g|;
/// - `meanAbsoluteRelativeError` = mean |e - g| / g;
/// - `medianAbsoluteErrorMetres` = median |e - g| (mean of the two middle
///   values for even n);
/// - `fractionRelativeErrorAbove` = share of the n pixels with
///   |e - g| / g > `relativeErrorThreshold`.
/// `disparity` (when k = f_px * B_m is known) compares d = k / depth in pixels.
public struct DepthErrors: Equatable, Sendable, Encodable {
    public var evaluatedCount: Int
    public var validCount: Int
    public var coverage: Double
    public var rmseMetres: Double
    public var maeMetres: Double
    public var meanAbsoluteRelativeError: Double
    public var medianAbsoluteErrorMetres: Double
    public var relativeErrorThreshold: Double
    public var fractionRelativeErrorAbove: Double
    public var disparity: DisparityErrors?

    /// Pixel-disparity errors |k / e - k / g| over the same n pixels.
    public struct DisparityErrors: Equatable, Sendable, Encodable {
        public var pixelsPerInverseMetre: Double
        public var medianAbsolutePixels: Double
        public var meanAbsolutePixels: Double
        public var pixelThreshold: Double
        /// Share of the n pixels with an error > `pixelThreshold` px.
        public var fractionAbovePixelThreshold: Double

        enum CodingKeys: String, CodingKey {
            case pixelsPerInverseMetre = "pixels_per_inverse_metre", medianAbsolutePixels = "median_abs_px",
                 meanAbsolutePixels = "mean_abs_px", pixelThreshold = "px_threshold",
                 fractionAbovePixelThreshold = "fraction_above_px_threshold"
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(finiteOrNil(pixelsPerInverseMetre), forKey: .pixelsPerInverseMetre)
            try c.encode(finiteOrNil(medianAbsolutePixels), forKey: .medianAbsolutePixels)
            try c.encode(finiteOrNil(meanAbsolutePixels), forKey: .meanAbsolutePixels)
            try c.encode(finiteOrNil(pixelThreshold), forKey: .pixelThreshold)
            try c.encode(finiteOrNil(fractionAbovePixelThreshold), forKey: .fractionAbovePixelThreshold)
        }
    }

    enum CodingKeys: String, CodingKey {
        case evaluatedCount = "evaluated_pixels", validCount = "valid_pixels", coverage, rmseMetres = "rmse_m",
             maeMetres = "mae_m", meanAbsoluteRelativeError = "mean_abs_rel", medianAbsoluteErrorMetres = "median_abs_m",
             relativeErrorThreshold = "rel_threshold", fractionRelativeErrorAbove = "fraction_above_rel_threshold",
             disparity
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(evaluatedCount, forKey: .evaluatedCount)
        try c.encode(validCount, forKey: .validCount)
        try c.encode(finiteOrNil(coverage), forKey: .coverage)
        try c.encode(finiteOrNil(rmseMetres), forKey: .rmseMetres)
        try c.encode(finiteOrNil(maeMetres), forKey: .maeMetres)
        try c.encode(finiteOrNil(meanAbsoluteRelativeError), forKey: .meanAbsoluteRelativeError)
        try c.encode(finiteOrNil(medianAbsoluteErrorMetres), forKey: .medianAbsoluteErrorMetres)
        try c.encode(finiteOrNil(relativeErrorThreshold), forKey: .relativeErrorThreshold)
        try c.encode(finiteOrNil(fractionRelativeErrorAbove), forKey: .fractionRelativeErrorAbove)
        try c.encode(disparity, forKey: .disparity)
    }
}

private func finiteOrNil(_ value: Double) -> Double? { value.isFinite ? value : nil }

/// `DepthErrors` over all evaluated pixels, the interior, and the band around
/// depth discontinuities of the truth.
public struct DepthErrorSplit: Equatable, Sendable, Encodable {
    public var all: DepthErrors
    public var interior: DepthErrors
    public var band: DepthErrors
    public var bandRadius: Int
    public var relativeJump: Double

    enum CodingKeys: String, CodingKey {
        case all, interior, band, bandRadius = "band_radius_px", relativeJump = "relative_jump"
    }
}

/// The metrics used to judge depth against ground truth (issues 6 and 8).
public enum DepthMetrics {
    /// Compares depth maps in metres, `estimate` and `truth` of the same size.
    ///
    /// A truth pixel is evaluated when `mask` (nil: every pixel) is true and
    /// the truth is a finite depth > 0. An estimate pixel is valid when it is
    /// a finite depth > 0 (NaN, +inf and non-positive values count as
    /// missing: they lower `coverage` and are left out of the error averages).
    /// `pixelsPerInverseMetre` (k = f_px * B_m at this resolution) enables
    /// the pixel-disparity errors.
    public static func compare(
        estimateMetres estimate: [Float], truthMetres truth: [Float], size: PixelSize, mask: [Bool]? = nil,
        relativeErrorThreshold: Double = 0.05, pixelsPerInverseMetre: Double? = nil, pixelThreshold: Double = 1
    ) throws -> DepthErrors {
        let n = size.width * size.height
        guard size.width > 0, size.height > 0, estimate.count == n, truth.count == n else {
            throw DualcamError.invalidValue(
                name: "depth metrics", reason: "estimate has \(estimate.count) values and truth \(truth.count) for a \(size) map (expected \(max(0, n)) each)")
        }
        if let mask, mask.count != n {
            throw DualcamError.invalidValue(name: "depth metrics", reason: "mask has \(mask.count) values for a \(size) map (expected \(n))")
        }
        if let k = pixelsPerInverseMetre, !(k.isFinite && k > 0) {
            throw DualcamError.invalidValue(name: "depth metrics", reason: "pixels per inverse metre is \(k) (expected a positive number)")
        }
        var evaluated = 0
        var absErrors: [Double] = [], pixelErrors: [Double] = []
        absErrors.reserveCapacity(n)
        var sumSquared = 0.0, sumAbs = 0.0, sumRelative = 0.0, aboveRelative = 0
        var sumPixel = 0.0, abovePixel = 0
        for i in 0..<n {
            if let mask, !mask[i] { continue }
            let g = Double(truth[i])
            guard g.isFinite, g > 0 else { continue }
            evaluated += 1
            let e = Double(estimate[i])
            guard e.isFinite, e > 0 else { continue }
            let error = abs(e - g)
            absErrors.append(error)
            sumSquared += error * error
            sumAbs += error
            sumRelative += error / g
            if error / g > relativeErrorThreshold { aboveRelative += 1 }
            if let k = pixelsPerInverseMetre {
                let pixelError = abs(k / e - k / g)
                pixelErrors.append(pixelError)
                sumPixel += pixelError
                if pixelError > pixelThreshold { abovePixel += 1 }
            }
        }
        let valid = absErrors.count
        let count = Double(valid)
        let disparity = pixelsPerInverseMetre.map { k in
            DepthErrors.DisparityErrors(
                pixelsPerInverseMetre: k, medianAbsolutePixels: median(&pixelErrors),
                meanAbsolutePixels: valid > 0 ? sumPixel / count : .nan, pixelThreshold: pixelThreshold,
                fractionAbovePixelThreshold: valid > 0 ? Double(abovePixel) / count : .nan)
        }
        return DepthErrors(
            evaluatedCount: evaluated, validCount: valid,
            coverage: evaluated > 0 ? count / Double(evaluated) : 0,
            rmseMetres: valid > 0 ? (sumSquared / count).squareRoot() : .nan,
            maeMetres: valid > 0 ? sumAbs / count : .nan,
            meanAbsoluteRelativeError: valid > 0 ? sumRelative / count : .nan,
            medianAbsoluteErrorMetres: median(&absErrors),
            relativeErrorThreshold: relativeErrorThreshold,
            fractionRelativeErrorAbove: valid > 0 ? Double(aboveRelative) / count : .nan,
            disparity: disparity)
    }

    /// Compares two `DepthMap`s of the same size after converting both to
    /// depth; k defaults to the truth's, then the estimate's `pixelsPerInverseMetre`.
    public static func compare(
        estimate: DepthMap, truth: DepthMap, mask: [Bool]? = nil, relativeErrorThreshold: Double = 0.05,
        pixelsPerInverseMetre: Double? = nil, pixelThreshold: Double = 1
    ) throws -> DepthErrors {
        guard estimate.size == truth.size else {
            throw DualcamError.invalidValue(name: "depth metrics", reason: "estimate is \(estimate.size), truth is \(truth.size)")
        }
        return try compare(
            estimateMetres: try estimate.converted(to: .depth).values, truthMetres: try truth.converted(to: .depth).values,
            size: truth.size, mask: mask, relativeErrorThreshold: relativeErrorThreshold,
            pixelsPerInverseMetre: pixelsPerInverseMetre ?? truth.pixelsPerInverseMetre ?? estimate.pixelsPerInverseMetre,
            pixelThreshold: pixelThreshold)
    }

    /// Errors over all evaluated pixels, the interior (outside the
    /// discontinuity band) and the band (see `discontinuityBand`).
    public static func compareSplit(
        estimate: DepthMap, truth: DepthMap, mask: [Bool]? = nil, bandRadius: Int = 3, relativeJump: Double = 0.05,
        relativeErrorThreshold: Double = 0.05, pixelsPerInverseMetre: Double? = nil, pixelThreshold: Double = 1
    ) throws -> DepthErrorSplit {
        let truthMetres = try truth.converted(to: .depth)
        let band = try discontinuityBand(truthMetres: truthMetres.values, size: truth.size, radius: bandRadius, relativeJump: relativeJump)
        let base = mask ?? [Bool](repeating: true, count: band.count)
        func run(_ m: [Bool]) throws -> DepthErrors {
            try compare(estimate: estimate, truth: truthMetres, mask: m, relativeErrorThreshold: relativeErrorThreshold,
                        pixelsPerInverseMetre: pixelsPerInverseMetre, pixelThreshold: pixelThreshold)
        }
        return DepthErrorSplit(
            all: try run(base),
            interior: try run(zip(base, band).map { $0 && !$1 }),
            band: try run(zip(base, band).map { $0 && $1 }),
            bandRadius: bandRadius, relativeJump: relativeJump)
    }

    /// Pixels within `radius` px (Chebyshev distance: a (2r+1)x(2r+1) square)
    /// of a depth discontinuity of the truth. A discontinuity is a pair of
    /// horizontally or vertically adjacent valid truth pixels (finite, > 0)
    /// whose depths differ by more than `relativeJump` times the nearer one,
    /// |a - b| / min(a, b) > relativeJump; both pixels of the pair are edge
    /// pixels, and radius 0 marks just them. Missing truth pixels create no edge.
    public static func discontinuityBand(truthMetres truth: [Float], size: PixelSize, radius: Int, relativeJump: Double = 0.05) throws -> [Bool] {
        let w = size.width, h = size.height
        guard w > 0, h > 0, truth.count == w * h else {
            throw DualcamError.invalidValue(name: "discontinuity band", reason: "\(truth.count) values for a \(size) map")
        }
        guard radius >= 0, relativeJump.isFinite, relativeJump >= 0 else {
            throw DualcamError.invalidValue(name: "discontinuity band", reason: "radius \(radius) and jump \(relativeJump) (expected >= 0)")
        }
        var edge = [Bool](repeating: false, count: w * h)
        func jump(_ a: Float, _ b: Float) -> Bool {
            guard a.isFinite, a > 0, b.isFinite, b > 0 else { return false }
            return Double(abs(a - b)) > relativeJump * Double(min(a, b))
        }
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if x + 1 < w, jump(truth[i], truth[i + 1]) { edge[i] = true; edge[i + 1] = true }
                if y + 1 < h, jump(truth[i], truth[i + w]) { edge[i] = true; edge[i + w] = true }
            }
        }
        guard radius > 0 else { return edge }
        // Separable square dilation with running counts (prefix sums per row, then per column).
        var rows = [Bool](repeating: false, count: w * h)
        var prefix = [Int](repeating: 0, count: max(w, h) + 1)
        for y in 0..<h {
            for x in 0..<w { prefix[x + 1] = prefix[x] + (edge[y * w + x] ? 1 : 0) }
            for x in 0..<w { rows[y * w + x] = prefix[min(w, x + radius + 1)] - prefix[max(0, x - radius)] > 0 }
        }
        var band = [Bool](repeating: false, count: w * h)
        for x in 0..<w {
            for y in 0..<h { prefix[y + 1] = prefix[y] + (rows[y * w + x] ? 1 : 0) }
            for y in 0..<h { band[y * w + x] = prefix[min(h, y + radius + 1)] - prefix[max(0, y - radius)] > 0 }
        }
        return band
    }

    /// Median of `values` (sorts them); mean of the two middle values for an
    /// even count, NaN when empty.
    static func median(_ values: inout [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        values.sort()
        let m = values.count / 2
        return values.count % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2
    }
}
