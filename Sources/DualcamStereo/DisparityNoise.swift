/// The refinement's predicted disparity noise (`CVStereo.match(... predictsNoise:)`,
/// the Gauss-Newton fit's sigma_d = sqrt(2 (1 - ZNCC) (sum w^2 / sum w) /
/// sum(w j^2)), rectified px) and what it allows a measurement to claim.
public enum DisparityNoise {
    /// Measured RMS error over predicted sigma: the prediction treats the
    /// window's pixels as independent, which the images' smoothing makes
    /// them not. 3.3 is the ratio of the robust error to the prediction where
    /// the stereo's noise dominates (2.9-3.7 on Middlebury Aloe and both room
    /// renders; the calibration table in docs/fusion.md, "The stereo's
    /// predicted noise").
    public static let calibration: Float = 3.3
    /// Whether a measured disparity `d` with predicted sigma `sigma` (both
    /// rectified px, uncalibrated sigma) bounds the depth: d > calibration x
    /// sigma, so that its 1-sigma depth interval f B / (d -+ s) is finite (s
    /// the calibrated sigma). Without a prediction (NaN: the pixel was not
    /// refined) it does. (Two sigmas also removed the office render's
    /// correct, imprecise measurements of its blank wall: docs/real-data.md.)
    public static func boundsDepth(disparity d: Float, sigma: Float) -> Bool {
        guard sigma.isFinite else { return true }
        return d > calibration * sigma
    }

    /// Whether a measured disparity `d` with predicted sigma `sigma` (rectified
    /// px, uncalibrated) is precise to `relativeDepthNoise` (sigma_Z / Z):
    /// calibration x sigma <= relativeDepthNoise x d (sigma_Z / Z = sigma_d /
    /// d). Without a prediction (NaN) it is.
    public static func isPrecise(disparity d: Float, sigma: Float, relativeDepthNoise: Float) -> Bool {
        guard sigma.isFinite else { return true }
        return calibration * sigma <= relativeDepthNoise * d
    }
}
