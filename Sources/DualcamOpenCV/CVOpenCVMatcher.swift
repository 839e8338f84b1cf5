import COpenCVShim

/// The settings of one of OpenCV's own stereo matchers, exactly as their
/// `create()` takes them (see dualcam_opencv_stereo.h, `dc_opencv_matcher`),
/// optionally followed by ximgproc's right matcher + DisparityWLSFilter.
/// Used for the plain-OpenCV references dualcam is measured against.
public struct CVOpenCVMatcher: Sendable {
    public enum Algorithm: Int32, Sendable { case sgbm = 0, bm = 1 }
    /// cv::StereoSGBM::MODE_* values.
    public enum SGBMMode: Int32, Sendable { case sgbm = 0, hh = 1, sgbm3Way = 2, hh4 = 3 }

    public var algorithm: Algorithm
    public var sgbmMode: SGBMMode = .sgbm3Way
    public var minDisparity: Int
    /// A positive multiple of 16.
    public var numDisparities: Int
    public var blockSize: Int
    /// SGBM smoothness penalties (OpenCV's suggestion: 8 and 32 x channels x block^2).
    public var p1 = 0, p2 = 0
    /// OpenCV's built-in left-right check in pixels; negative = off.
    public var disp12MaxDiff = -1
    public var preFilterCap = 63
    public var uniqueness = 10
    public var speckleWindow = 100
    public var speckleRange = 32
    /// StereoBM's texture threshold.
    public var textureThreshold = 10
    /// Right matcher + DisparityWLSFilter with these lambda and sigma (nil: raw matcher output).
    public var wls: (lambda: Double, sigma: Double)?

    public static func sgbm(minDisparity: Int, numDisparities: Int, blockSize: Int, p1: Int, p2: Int,
                            disp12MaxDiff: Int, preFilterCap: Int, uniqueness: Int, speckleWindow: Int,
                            speckleRange: Int, mode: SGBMMode) -> CVOpenCVMatcher {
        var m = CVOpenCVMatcher(algorithm: .sgbm, minDisparity: minDisparity, numDisparities: numDisparities, blockSize: blockSize)
        (m.p1, m.p2, m.disp12MaxDiff, m.preFilterCap, m.uniqueness) = (p1, p2, disp12MaxDiff, preFilterCap, uniqueness)
        (m.speckleWindow, m.speckleRange, m.sgbmMode) = (speckleWindow, speckleRange, mode)
        return m
    }

    public init(algorithm: Algorithm, minDisparity: Int, numDisparities: Int, blockSize: Int) {
        self.algorithm = algorithm
        self.minDisparity = minDisparity
        self.numDisparities = numDisparities
        self.blockSize = blockSize
    }

    /// "StereoSGBM", "StereoBM + WLS", ... (names the operation in errors).
    public var name: String {
        (algorithm == .sgbm ? "StereoSGBM" : "StereoBM") + (wls == nil ? "" : " + WLS")
    }

    var shim: dc_opencv_matcher {
        dc_opencv_matcher(
            algorithm: algorithm.rawValue, sgbm_mode: sgbmMode.rawValue, min_disparity: Int32(minDisparity),
            num_disparities: Int32(numDisparities), block_size: Int32(blockSize), p1: Int32(p1), p2: Int32(p2),
            disp12_max_diff: Int32(disp12MaxDiff), pre_filter_cap: Int32(preFilterCap), uniqueness: Int32(uniqueness),
            speckle_window: Int32(speckleWindow), speckle_range: Int32(speckleRange),
            texture_threshold: Int32(textureThreshold), wls: wls == nil ? 0 : 1,
            wls_lambda: wls?.lambda ?? 0, wls_sigma: wls?.sigma ?? 0)
    }
}
