import Foundation

/// The samples' depth noise, sigma(z) = `absoluteMetres` + `relative` z,
/// estimated from the samples themselves: a LiDAR's spec is a few
/// millimetres plus a fraction of the range, and samples drawn from a real
/// scene's ground truth (Aloe, 1 % noise) are nothing like the renders'
/// 1 cm.
///
/// Estimate: the plane check's residuals (`SampleVerifier.verifyWithResiduals`:
/// each verified sample against the plane through its neighbours, in
/// metres) sorted by depth into up to `maximumBins` bins of at least
/// `minimumPerBin`; per bin the robust sigma 1.4826 x median residual at the
/// bin's median depth; then sigma = a + b z by least squares over the bins,
/// with a, b >= 0 (a constant, or a line through 0, when the free fit
/// leaves that range). The residuals also hold the neighbours' plane's own
/// error, so the estimate errs high by a few per cent. With fewer than
/// 2 `minimumPerBin` residuals the fallback stands.
public struct SampleNoise: Equatable, Sendable {
    public var absoluteMetres: Double
    public var relative: Double

    public init(absoluteMetres: Double, relative: Double = 0) {
        self.absoluteMetres = absoluteMetres
        self.relative = relative
    }

    public func sigmaMetres(depth z: Double) -> Double { absoluteMetres + relative * z }

    /// Depth bins of the noise-versus-depth line: enough to see a trend,
    /// few enough that each holds many residuals.
    static let maximumBins = 8
    /// Residuals per bin at least: fewer make the bin's median a poor sigma.
    static let minimumPerBin = 30
    /// The line's normal equations are singular (all bins at one depth)
    /// below this relative determinant: the mean sigma is kept, no slope.
    static let minimumConditioning = 1e-12

    /// The noise when no sample could be checked against its neighbours
    /// (e.g. a sparse grid, where the neighbours are too far for the plane
    /// check): with stereo, the robust spread of the samples' relative
    /// residuals against the globally aligned stereo, sigma(z) = r z with
    /// r = `ScaleShiftFit.residualSigma` (1.4826 MAD of (s d_i + t - v_i) / v_i).
    /// It holds the samples' noise, the stereo's and what one global fit
    /// misses, so it bounds the samples' relative noise from above;
    /// without stereo, the stated noise `stated` (metres).
    static func unverified(_ fit: ScaleShiftFit?, stated: Double) -> SampleNoise {
        guard let r = fit?.residualSigma, r.isFinite, r > 0 else { return SampleNoise(absoluteMetres: stated) }
        return SampleNoise(absoluteMetres: 0, relative: r)
    }

    static func estimate(depthsMetres: [Double], residualMetres: [Double], fallback: SampleNoise) -> SampleNoise {
        var pairs = zip(depthsMetres, residualMetres).filter { $0.0.isFinite && $0.1.isFinite }
        guard pairs.count >= 2 * minimumPerBin else { return fallback }
        pairs.sort { $0.0 < $1.0 }
        let bins = min(maximumBins, pairs.count / minimumPerBin)
        var points: [(z: Double, sigma: Double)] = []
        for b in 0..<bins {
            let slice = pairs[(b * pairs.count / bins)..<((b + 1) * pairs.count / bins)]
            points.append((ScaleShiftFitter.median(slice.map(\.0)), FusionConstants.madToSigma * ScaleShiftFitter.median(slice.map(\.1))))
        }
        let n = Double(points.count)
        let sz = points.reduce(0) { $0 + $1.z }, ss = points.reduce(0) { $0 + $1.sigma }
        let szz = points.reduce(0) { $0 + $1.z * $1.z }, szs = points.reduce(0) { $0 + $1.z * $1.sigma }
        let det = n * szz - sz * sz
        var a = ss / n, b = 0.0
        if det > Self.minimumConditioning * max(1, n * szz) {
            let fa = (szz * ss - sz * szs) / det, fb = (n * szs - sz * ss) / det
            if fa >= 0 && fb >= 0 {
                (a, b) = (fa, fb)
            } else if fa < 0 && szz > 0 {
                (a, b) = (0, max(0, szs / szz))
            }
        }
        guard a.isFinite, b.isFinite, a + b * (points.last?.z ?? 0) > 0 else { return fallback }
        return SampleNoise(absoluteMetres: a, relative: b)
    }
}
