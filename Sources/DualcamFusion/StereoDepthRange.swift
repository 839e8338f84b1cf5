import DualcamSupport
import Foundation

/// The depth range the `--tele` stereo searches (`TeleStereo`): given, or
/// derived from the samples so that `dualcam fuse --tele` works on any rig
/// without a depth option.
///
/// From samples, in inverse depth v = 1/z (disparity is proportional to it):
/// the nearest end is the (1 - `trimmedFraction`) quantile of v (so the
/// nearest few samples, where outliers such as multipath returns sit, cannot
/// widen the search) times `nearMargin`, i.e. minDepth = 1 / (nearMargin *
/// v_q). With fewer than `minimumSamplesToTrim` samples nothing is trimmed.
/// The far end stays open (maxDepth = inf, disparities down to 0): surfaces
/// beyond the sensor's range are where the stereo is needed most, and the far
/// end costs few disparities. The nearest depth is rounded down to 3
/// significant digits (a readable number in messages, never nearer to the
/// samples).
public struct StereoDepthRange: Equatable, Sendable {
    public enum Origin: String, Equatable, Sendable {
        /// From the samples' depths.
        case samples
        /// Given (`--min-depth` / `--max-depth`).
        case options
    }

    public var minDepthMetres: Double
    public var maxDepthMetres: Double
    public var origin: Origin

    public init(minDepthMetres: Double, maxDepthMetres: Double = .infinity, origin: Origin = .options) {
        self.minDepthMetres = minDepthMetres
        self.maxDepthMetres = maxDepthMetres
        self.origin = origin
    }

    /// Fraction of the nearest samples (by inverse depth) left out.
    public static let trimmedFraction = 0.005
    /// Disparity margin beyond the trimmed nearest sample (1.25: 25 % more disparity).
    public static let nearMargin = 1.25
    public static let minimumSamplesToTrim = 200

    /// The range for samples with these depths (metres; non-finite and
    /// non-positive ones are ignored); nil when none is usable.
    public static func fromSamples(depthsMetres: [Double]) -> StereoDepthRange? {
        var inverse = depthsMetres.compactMap { z -> Double? in z.isFinite && z > 0 && (1 / z).isFinite ? 1 / z : nil }
        guard !inverse.isEmpty else { return nil }
        inverse.sort()
        let trimmed = inverse.count >= minimumSamplesToTrim ? Int((Double(inverse.count) * trimmedFraction).rounded(.down)) : 0
        let nearest = inverse[inverse.count - 1 - trimmed]
        let minDepth = roundedDown(1 / (nearMargin * nearest))
        return StereoDepthRange(minDepthMetres: minDepth, maxDepthMetres: .infinity, origin: .samples)
    }

    /// How error messages name the nearest depth: the flag, or where it came from.
    public var minDepthLabel: String {
        switch origin {
        case .options: return "--min-depth"
        case .samples:
            return "the samples' nearest depth (nearest \(String(format: "%g", 100 * Self.trimmedFraction)) % left out, "
                + "\(String(format: "%g", 100 * (Self.nearMargin - 1))) % disparity margin)"
        }
    }

    /// Reported depth bounds keep this many significant digits: readable,
    /// and far finer than the margin.
    static let significantDigits = 3.0

    /// `value` rounded down to `significantDigits` significant digits.
    static func roundedDown(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return value }
        let scale = pow(10, (significantDigits - 1) - floor(log10(value)))
        return floor(value * scale) / scale
    }
}
