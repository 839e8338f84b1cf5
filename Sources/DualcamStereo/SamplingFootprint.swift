import DualcamGeometry

/// How blurred each view of a rectified pair is by its own sampling, and the
/// extra blur that gives the finer one the other's footprint before matching.
///
/// A camera pixel spanning `s` rectified pixels (s = f_rect / f_camera)
/// reaches the rectified grid as a box of width s: footprint variance
/// s^2 / 12. On a wide/tele rig the wide's pixels span about twice the
/// tele's, and matching a sharp profile to a blurred one is biased wherever a
/// window or a matching cost weighs one flank of an edge or line more than
/// the other. Blurring the finer view by sqrt(s_other^2 - s_own^2) / sqrt(12)
/// rectified px, i.e. sqrt((f_own / f_other)^2 - 1) / sqrt(12) of its own
/// camera pixels before resampling (0.5 px for a tele of twice the wide's
/// focal length), equalizes the two boxes; a same-lens pair gets none. The
/// model counts the boxes only. The rectification's cubic kernel
/// (`RectificationTable`, OpenCV's a = -0.75) has a second moment of
/// -1/15 source px^2, which would cancel most of each box's 1/12 and give
/// a third of the variance (0.22 px for that tele, which a sampled Gaussian
/// cannot even represent); the measured optimum lies around the box-only
/// value (docs/real-data.md, "Both views rectified to one footprint", with
/// the sweep of fixed blurs), so the box-only value is used. Lens blur is not
/// modelled: it is unknown here.
enum SamplingFootprint {
    /// The extra Gaussian sigma of the wide and the tele image, in their own
    /// camera pixels, before `rectification` resamples them.
    static func cameraBlurs(for rectification: StereoRectification) -> (wide: Double, tele: Double) {
        let f = rectification.intrinsics.fx
        let w = rectification.wide.intrinsics, t = rectification.tele.intrinsics
        let sw = pixelSpan(rectifiedFocal: f, fx: w.fx, fy: w.fy), st = pixelSpan(rectifiedFocal: f, fx: t.fx, fy: t.fy)
        let (bw, bt) = equalizingBlur(pixelSpans: sw, st)
        return (bw / sw, bt / st)
    }

    /// The footprint sigma (rectified px) of a camera pixel spanning
    /// `pixelSpan` rectified px: a box's, s / sqrt(12).
    static func sigma(pixelSpan s: Double) -> Double { s / 12.0.squareRoot() }

    /// The extra Gaussian sigma (rectified px) for each of two views whose
    /// pixels span `a` and `b` rectified px: zero for the coarser one.
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
