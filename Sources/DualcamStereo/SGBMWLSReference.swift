import DualcamOpenCV
import DualcamImaging

extension StereoDepthEstimator {
    /// The plain-OpenCV reference on the same rectified images and the same
    /// output mapping: StereoSGBM (same search and block size, left and right
    /// matchers) + ximgproc's DisparityWLSFilter (lambda 8000, sigma 1.5)
    /// guided by the rectified reference image; no refinement, no
    /// occlusion-aware fill (values below the search take the nearest value). Returned as a filtered result with confidence 1
    /// where a value exists. Used by tests and `dualcam bench depth` to compare.
    public func estimateSGBMWLS(wide: Image, tele: Image, lambda: Double = OpenCVStereoBaseline.wlsLambda,
                                sigma: Double = OpenCVStereoBaseline.wlsSigma) throws -> StereoDepthResult {
        let pair = try rectify(wide: wide, tele: tele)
        let disparity = try CVStereo.sgbmWLS(left: pair.left, right: pair.right, parameters: parameters,
                                             referenceIsRight: pair.referenceIsRight, lambda: lambda, sigma: sigma)
        // SGBM's invalid marker survives the filter at the borders as a value
        // below the search; like values beyond --max-depth it is no
        // measurement, and takes the nearest value (the output stays dense).
        let floor = disparityFloor
        let measured = alignment.sample(disparity).map { $0 < floor ? .nan : $0 }
        let values = HoleFilling.nearestFill(measured, width: alignment.size.width, keep: covered)
        return result(values: values, unfiltered: measured, confidence: measured.map { $0.isFinite ? 1 : 0 }, filtered: true)
    }
}
