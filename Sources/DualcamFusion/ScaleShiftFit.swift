import DualcamLinearAlgebra
import DualcamSupport
import Foundation

/// One correspondence for the scale/shift alignment: the stereo's relative
/// inverse depth `relative` at a sample's pixel, the sample's metric inverse
/// depth 1/z (1/m) and its weight m (the sample confidence).
public struct InverseDepthPair: Equatable, Sendable {
    public var relative: Double
    public var inverseDepth: Double
    public var weight: Double
    public init(relative: Double, inverseDepth: Double, weight: Double) {
        self.relative = relative
        self.inverseDepth = inverseDepth
        self.weight = weight
    }
}

/// A fitted alignment 1/z ≈ scale * d + shift of relative inverse depth d to metric inverse depth (1/m).
public struct ScaleShiftFit: Equatable, Sendable {
    public var scale: Double
    public var shift: Double
    /// Which pairs the final fit kept (|residual| <= threshold).
    public var inliers: [Bool]
    public var inlierCount: Int { inliers.lazy.filter { $0 }.count }
    /// Pairs that entered the fit (positive weight, finite values).
    public var usableCount: Int
    /// Root mean square residual over the inliers, 1/m.
    public var residualRMS: Double
    /// The robust scale of the relative residuals (s d_i + t - v_i) / v_i
    /// (1.4826 x their median absolute value; dimensionless).
    public var residualSigma: Double
    /// The inlier threshold on the relative residual used in the final pass.
    public var threshold: Double
    public var iterations: Int

    /// Aligned inverse depth for a relative value.
    public func apply(_ relative: Double) -> Double { scale * relative + shift }
}

/// Robust scale/shift alignment of relative inverse depth to sparse metric
/// samples: minimises sum m_i w_i (s d_i + t - 1/z_i)^2 by iteratively
/// reweighted least squares (IRLS) with Tukey's biweight on residuals scaled
/// by their median absolute deviation, each step the closed-form weighted
/// 2x2 normal equations (formed in O(N), solved with LAPACK, `LeastSquares`), then one trimmed refit on the
/// pairs within `inlierSigmas` robust sigmas. Plain least squares is skewed by
/// stereo outliers near edges and by LiDAR mixed-pixel returns; the biweight
/// gives them zero weight.
public enum ScaleShiftFitter {
    /// IRLS stops when a step moves (s, t) by less than this relative to
    /// their size: far below any effect on the output.
    static let convergence = 1e-9
    /// Keeps that test meaningful when s and t are both zero.
    static let convergenceFloor = 1e-12
    public struct Options: Equatable, Sendable {
        /// Tukey's tuning constant, in robust sigmas (4.685 gives 95 % efficiency on Gaussian noise).
        public var tukeyConstant = 4.685
        /// Final inlier threshold in robust sigmas.
        public var inlierSigmas = 3.0
        /// Lower bound of the robust relative sigma: keeps noise-free data from rejecting everything.
        public var minimumSigma = 1e-3
        public var maximumIterations = 12
        public init() {}
    }

    /// Fits `pairs` (at least 2 with positive weight and distinct relative values).
    public static func fit(_ pairs: [InverseDepthPair], options: Options = Options()) throws -> ScaleShiftFit {
        let usable = pairs.filter { $0.weight > 0 && $0.relative.isFinite && $0.inverseDepth.isFinite }
        guard usable.count >= 2 else {
            throw DualcamError.invalidValue(
                name: "samples", reason: "only \(usable.count) sample(s) have stereo values; at least 2 are needed to fit scale and shift")
        }
        let a = usable.map(\.relative)
        let b = usable.map(\.inverseDepth)
        let base = usable.map(\.weight)
        var x = try solve(a, b, base)
        var sigma = 0.0
        var iterations = 0
        // Buffers reused by every iteration.
        let m = usable.count
        var residuals = [Double](repeating: 0, count: m), magnitudes = residuals, weights = residuals
        for iteration in 1...options.maximumIterations {
            iterations = iteration
            // Relative residuals (r_i / v_i = relative depth error): LiDAR noise
            // is roughly constant in metres, so absolute inverse-depth residuals
            // of near samples would look like outliers.
            let s = x[0], t = x[1]
            residuals.withUnsafeMutableBufferPointer { r in
                magnitudes.withUnsafeMutableBufferPointer { q in
                    for i in 0..<m {
                        r[i] = (s * a[i] + t - b[i]) / b[i]
                        q[i] = abs(r[i])
                    }
                    sigma = max(options.minimumSigma, FusionConstants.madToSigma * medianInPlace(q))
                }
            }
            let c = options.tukeyConstant * sigma
            for i in 0..<m {
                let u = residuals[i] / c
                weights[i] = abs(u) < 1 ? base[i] * (1 - u * u) * (1 - u * u) : 0
            }
            guard let next = try? solve(a, b, weights) else { break }
            let change = abs(next[0] - x[0]) + abs(next[1] - x[1])
            x = next
            if change < Self.convergence * (abs(x[0]) + abs(x[1]) + Self.convergenceFloor) { break }
        }
        // Trimmed refit on the inliers of the robust solution.
        let threshold = options.inlierSigmas * sigma
        var keep = usable.indices.map { abs((x[0] * usable[$0].relative + x[1] - b[$0]) / b[$0]) <= threshold }
        if keep.filter({ $0 }).count >= 2, let refit = try? solve(a, b, usable.indices.map { keep[$0] ? base[$0] : 0 }) {
            x = refit
            keep = usable.indices.map { abs((x[0] * usable[$0].relative + x[1] - b[$0]) / b[$0]) <= threshold }
        }
        var inlierSquares = 0.0, inlierCount = 0
        var inliers = [Bool](repeating: false, count: pairs.count)
        var u = 0
        for (i, p) in pairs.enumerated() where p.weight > 0 && p.relative.isFinite && p.inverseDepth.isFinite {
            if keep[u] {
                inliers[i] = true
                let r = x[0] * p.relative + x[1] - p.inverseDepth
                inlierSquares += r * r
                inlierCount += 1
            }
            u += 1
        }
        guard x[0].isFinite, x[1].isFinite, x[0] > 0 else {
            throw DualcamError.invalidValue(
                name: "stereo", reason: "the stereo does not order depths like the samples (fitted scale \(x[0])); check that it is inverse depth aligned to the wide image")
        }
        return ScaleShiftFit(scale: x[0], shift: x[1], inliers: inliers, usableCount: usable.count,
                             residualRMS: inlierCount > 0 ? (inlierSquares / Double(inlierCount)).squareRoot() : .nan,
                             residualSigma: sigma, threshold: threshold, iterations: iterations)
    }

    /// The weighted 2x2 normal equations [sum w d^2, sum w d; sum w d, sum w] [s t]^T =
    /// [sum w d v, sum w v]^T (O(N) to form), solved with LAPACK.
    private static func solve(_ a: [Double], _ b: [Double], _ w: [Double]) throws -> [Double] {
        var sdd = 0.0, sd = 0.0, s1 = 0.0, sdv = 0.0, sv = 0.0, positive = 0
        for i in a.indices where w[i] > 0 {
            positive += 1
            sdd += w[i] * a[i] * a[i]; sd += w[i] * a[i]; s1 += w[i]
            sdv += w[i] * a[i] * b[i]; sv += w[i] * b[i]
        }
        guard positive >= 2 else {
            throw DualcamError.invalidValue(name: "samples", reason: "fewer than 2 samples with weight")
        }
        do {
            let normal = try DenseMatrix(rows: 2, columns: 2, values: [sdd, sd, sd, s1])
            return try LeastSquares.solve(normal, [sdv, sv])
        } catch {
            throw DualcamError.invalidValue(
                name: "stereo", reason: "scale/shift fit is degenerate (the stereo values at the samples are all equal)")
        }
    }

    /// The median by quickselect (expected O(N); the IRLS loop needs one per
    /// iteration and a full sort dominated the fit).
    static func median(_ values: [Double]) -> Double {
        var a = values
        return a.withUnsafeMutableBufferPointer { medianInPlace($0) }
    }

    /// `median`, rearranging `a` (the IRLS loop reuses one buffer).
    static func medianInPlace(_ a: UnsafeMutableBufferPointer<Double>) -> Double {
        guard !a.isEmpty else { return 0 }
        let n = a.count
        let upper = a.contains(where: \.isNaN) ? hoareSelect(a, n / 2) : select(a, n / 2)
        guard n % 2 == 0 else { return upper }
        // After selecting index n/2, the lower half holds the elements <= it; its maximum is the other middle.
        var lower = -Double.infinity
        for i in 0..<(n / 2) { lower = max(lower, a[i]) }
        return 0.5 * (lower + upper)
    }

    /// Rearranges `a` (no NaN) so that a[k] is the k-th smallest, smaller or
    /// equal ones before it: quickselect with branch-free three-way
    /// partitions around a median-of-three pivot. The partition's comparisons
    /// are data-dependent coin flips on residuals, and as branches their
    /// mispredictions made the IRLS fit's medians most of its time.
    private static func select(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var lo = 0, hi = a.count
        while hi - lo > 1 {
            let x = a[lo], y = a[(lo + hi) / 2], z = a[hi - 1]
            let pivot = max(min(x, y), min(max(x, y), z))
            // [lo, less) < pivot, then [less, equal) == pivot, then [equal, hi) > pivot.
            let less = partition(a, lo, hi) { $0 < pivot }
            if k < less { hi = less; continue }
            let equal = partition(a, less, hi) { $0 <= pivot }
            if k < equal { return pivot }
            lo = equal
        }
        return a[k]
    }

    /// Moves the elements of a[lo..<hi] satisfying `isLeft` to the front
    /// (without branching on it) and returns the end of that front part.
    @inline(__always)
    private static func partition(_ a: UnsafeMutableBufferPointer<Double>, _ lo: Int, _ hi: Int,
                                  _ isLeft: (Double) -> Bool) -> Int {
        var front = lo
        for i in lo..<hi {
            let v = a[i]
            a[i] = a[front]
            a[front] = v
            front += isLeft(v) ? 1 : 0
        }
        return front
    }

    /// Hoare quickselect (the previous `select`), for inputs with NaN, where
    /// its order is the reference.
    private static func hoareSelect(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return a[k] }
        }
        return a[k]
    }
}
