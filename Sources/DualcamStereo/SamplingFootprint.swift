import DualcamGeometry

/// How blurred each view of a rectified pair is by its own sampling, and the
/// extra blur that makes the sharper one match the other before the subpixel
/// refinement.
///
/// A camera whose pixel spans `s` rectified pixels (s = f_rect / f_camera)
/// reaches the rectified grid as a box of width s (its pixel) resampled by
/// bilinear interpolation (a triangle of half-width s): footprint variance
/// s^2 / 12 + s^2 / 6 = s^2 / 4, so sigma = s / 2. On a wide/tele rig the wide
/// spans about twice the tele's rectified pixels, and a fit that matches a
/// sharp profile to a blurred one is biased wherever the window's weights
/// favour one flank of an edge or line. Blurring the sharper view by
/// sqrt(sigma_other^2 - sigma_own^2) equalizes the two (a same-lens pair
/// gets none). Lens blur is not modelled: it is unknown here.
///
/// On the rendered room the predicted blur is where the error is lowest
/// (docs/real-data.md, "The refinement can see both views equally blurred").
/// Used when `StereoDepthOptions.equalizesSampling` is set (off by default:
/// see there).
enum SamplingFootprint {
    /// The extra blur (rectified px) of the left and right views of
    /// `rectification` (`equalizingBlur` of their pixel spans).
    static func refineBlurs(for rectification: StereoRectification) throws -> (left: Double, right: Double) {
        let f = rectification.intrinsics.fx
        func span(_ camera: FrameName) throws -> Double {
            let k = try rectification.model(of: camera).intrinsics
            return pixelSpan(rectifiedFocal: f, fx: k.fx, fy: k.fy)
        }
        return equalizingBlur(pixelSpans: try span(rectification.left), try span(rectification.right))
    }

    /// The footprint sigma (rectified px) of a camera pixel spanning
    /// `pixelSpan` rectified px.
    static func sigma(pixelSpan s: Double) -> Double { s / 2 }

    /// The extra Gaussian sigma (rectified px) for each of two views whose
    /// pixels span `a` and `b` rectified px: zero for the blurrier one.
    static func equalizingBlur(pixelSpans a: Double, _ b: Double) -> (Double, Double) {
        let sa = sigma(pixelSpan: a), sb = sigma(pixelSpan: b)
        let target = max(sa, sb)
        return ((target * target - sa * sa).squareRoot(), (target * target - sb * sb).squareRoot())
    }

    /// Rectified pixels per camera pixel: the rectified focal length over the
    /// camera's (at its buffer size), the mean of the two axes.
    static func pixelSpan(rectifiedFocal f: Double, fx: Double, fy: Double) -> Double {
        (f / fx + f / fy) / 2
    }
}
