import DualcamCV
import DualcamImaging

extension StereoDepthEstimator {
    /// The plain-OpenCV reference on the same rectified images and the same
    /// output mapping: StereoSGBM (same search and block size, left and right
    /// matchers) + ximgproc's DisparityWLSFilter (lambda 8000, sigma 1.5)
    /// guided by the rectified reference image; no refinement, no
    /// occlusion-aware fill. Returned as a filtered result with confidence 1
    /// where a value exists. Used by tests and `dualcam bench depth` to compare.
    public func estimateSGBMWLS(wide: Image, tele: Image, lambda: Double = 8000, sigma: Double = 1.5) throws -> StereoDepthResult {
        let pair = try rectify(wide: wide, tele: tele)
        let disparity = try CVStereo.sgbmWLS(left: pair.left, right: pair.right, parameters: parameters,
                                             referenceIsRight: pair.referenceIsRight, lambda: lambda, sigma: sigma)
        let values = alignment.sample(disparity)
        return result(values: values, unfiltered: values, confidence: values.map { $0.isFinite ? 1 : 0 }, filtered: true)
    }
}
