import DualcamOpenCV
import DualcamImaging
import DualcamSupport

/// OpenCV's own matchers run as a user of OpenCV would run them on an
/// already rectified pair (a Middlebury or KITTI pair, or the output of
/// `stereoRectify` + `remap`): the baseline `dualcam eval --baseline` and
/// `dualcam bench depth-real` score beside dualcam. Settings are those of
/// OpenCV's `samples/cpp/stereo_match.cpp`:
/// - `sgbm`: `StereoSGBM::create(min, num, 5, 8*cn*25, 32*cn*25, 1, 63, 10,
///   100, 32, MODE_SGBM_3WAY)` on the images as given (cn = 3 for colour);
/// - `sgbmWLS`: the same, plus `ximgproc::createRightMatcher` and
///   `DisparityWLSFilter` (lambda 8000, sigma 1.5) guided by the left image;
/// - `bm`: `StereoBM` on grey images: block 9, pre-filter cap 31, texture
///   threshold 10, uniqueness 15, speckles 100 / 32, left-right check 1 px.
/// Output: the left view's disparity in pixels, NaN where OpenCV marks no
/// match (including the `min + num - 1` leftmost columns it cannot search).
public enum OpenCVStereoBaseline: String, CaseIterable, Sendable {
    case sgbm
    case sgbmWLS = "sgbm-wls"
    case bm


    /// "OpenCV SGBM_3WAY + WLS" etc., for tables.
    public var label: String {
        switch self {
        case .sgbm: return "OpenCV SGBM_3WAY"
        case .sgbmWLS: return "OpenCV SGBM_3WAY + WLS"
        case .bm: return "OpenCV BM"
        }
    }

    // The baselines are OpenCV as its users meet it: the settings of its
    // samples/cpp/stereo_match.cpp (and the WLS filter tutorial's lambda and
    // sigma), so that the comparison is with stock OpenCV.
    /// SGBM's block size: our matcher's default (`StereoDepthOptions.blockSize`),
    /// so that both compare the same windows.
    static let sgbmBlockSize = 5
    /// SGBM's smoothness penalties per channel and block pixel, for
    /// disparity changes of 1 and of more (P2 > P1: jumps cost more).
    static let sgbmP1 = 8, sgbmP2 = 32
    static let sgbmPreFilterCap = 63, sgbmUniqueness = 10
    /// BM's block size, prefilter cap, texture threshold and uniqueness.
    static let bmBlockSize = 9, bmPreFilterCap = 31, bmTextureThreshold = 10, bmUniqueness = 15
    /// Both matchers' speckle filter (region size, disparity range) and left-right check (pixels).
    static let speckleWindow = 100, speckleRange = 32, leftRightMaxDifference = 1
    /// The WLS filter's regularization and colour sigma (OpenCV's disparity filtering tutorial).
    public static let wlsLambda = 8000.0, wlsSigma = 1.5

    /// The matcher settings for `channels`-channel images.
    public func matcher(minDisparity: Int, numDisparities: Int, channels: Int) -> CVOpenCVMatcher {
        switch self {
        case .sgbm, .sgbmWLS:
            let b = Self.sgbmBlockSize
            var m = CVOpenCVMatcher.sgbm(
                minDisparity: minDisparity, numDisparities: numDisparities, blockSize: b, p1: Self.sgbmP1 * channels * b * b,
                p2: Self.sgbmP2 * channels * b * b, disp12MaxDiff: Self.leftRightMaxDifference, preFilterCap: Self.sgbmPreFilterCap,
                uniqueness: Self.sgbmUniqueness, speckleWindow: Self.speckleWindow, speckleRange: Self.speckleRange, mode: .sgbm3Way)
            if self == .sgbmWLS { m.wls = (lambda: Self.wlsLambda, sigma: Self.wlsSigma) }
            return m
        case .bm:
            var m = CVOpenCVMatcher(algorithm: .bm, minDisparity: minDisparity, numDisparities: numDisparities,
                                    blockSize: Self.bmBlockSize)
            (m.preFilterCap, m.textureThreshold, m.uniqueness) = (Self.bmPreFilterCap, Self.bmTextureThreshold, Self.bmUniqueness)
            (m.speckleWindow, m.speckleRange, m.disp12MaxDiff) = (Self.speckleWindow, Self.speckleRange, Self.leftRightMaxDifference)
            return m
        }
    }

    /// The baselines' search is at most this many disparities and starts
    /// within this offset of zero: sanity bounds on what OpenCV is asked
    /// for (its cost volume grows with the count).
    static let maximumDisparities = 1024, maximumDisparityOffset = 4096

    /// The left view's disparity (row-major, pixels, NaN = no match) of a
    /// rectified pair of equal size, searching `minDisparity` ..<
    /// `minDisparity + numDisparities` (a positive multiple of 16, at most 1024).
    public func disparity(left: Image, right: Image, minDisparity: Int = 0, numDisparities: Int) throws -> [Float] {
        guard numDisparities > 0, numDisparities % StereoDepthOptions.disparityGranularity == 0,
              numDisparities <= Self.maximumDisparities, abs(minDisparity) <= Self.maximumDisparityOffset else {
            throw DualcamError.invalidValue(
                name: "disparity search \(minDisparity) + \(numDisparities)", reason: "expected a positive multiple of 16 up to 1024 disparities")
        }
        guard left.width == right.width, left.height == right.height else {
            throw DualcamError.invalidValue(name: "stereo pair", reason: "left is \(left.width)x\(left.height), right \(right.width)x\(right.height) (a rectified pair has one size)")
        }
        func prepared(_ image: Image) throws -> Image {
            guard image.element == .uint8, image.channels == 1 || image.channels == 3 else {
                throw DualcamError.invalidValue(name: "stereo pair", reason: "OpenCV's matchers take 8-bit grey or RGB images, got a \(image.description)")
            }
            return self == .bm ? try ImageOps.convertToGray(image) : image
        }
        let l = try prepared(left), r = try prepared(right)
        guard l.channels == r.channels else {
            throw DualcamError.invalidValue(name: "stereo pair", reason: "left has \(l.channels) channels, right \(r.channels)")
        }
        let result = try CVStereo.match(left: try l.makeCVMat(), right: try r.makeCVMat(),
                                        matcher: matcher(minDisparity: minDisparity, numDisparities: numDisparities, channels: l.channels))
        return try Image(result).pixels(as: Float.self)
    }
}
