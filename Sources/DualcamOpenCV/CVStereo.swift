import COpenCVShim
import DualcamSupport

/// Parameters of `CVStereo.match` (see dualcam_opencv_stereo.h).
public struct CVStereoParameters: Sendable, Equatable {
    /// Smallest disparity searched, pixels.
    public var minDisparity: Int
    /// Number of disparities searched, a positive multiple of 16.
    public var numDisparities: Int
    /// SGBM block size (odd).
    public var blockSize = 5
    /// SGBM uniqueness ratio in percent.
    public var uniqueness = 10
    /// Largest speckle (pixels) removed, by SGBM and again from what the
    /// left-right check and the refinement leave; 0 = off.
    public var speckleWindow = 100
    /// Disparity step (pixels) separating speckles.
    public var speckleRange = 2.0
    /// Left-right consistency tolerance, pixels.
    public var leftRightTolerance = 1.0
    /// Symmetric ZNCC Lucas-Kanade subpixel refinement (false: SGBM's parabola fit).
    public var refine = true
    /// Refinement window radius (window 2r+1 square).
    public var refineRadius = 3
    /// Refined matches with a lower ZNCC are invalid.
    public var minZNCC = 0.5
    /// Window gradient RMS (grey levels per pixel) where the texture confidence is 1 - 1/e.
    public var textureSigma = 2.0
    /// Regions the other view cannot see by this many pixels or more are
    /// removed (see `occlusionShare`); 0 = off.
    public var occlusionMargin = 0.0
    /// Share (0-1] of a region's pixels that must be hidden for `occlusionMargin` to remove it.
    public var occlusionShare = 0.5

    public init(minDisparity: Int, numDisparities: Int) {
        self.minDisparity = minDisparity
        self.numDisparities = numDisparities
    }

    var shim: dc_stereo_params {
        dc_stereo_params(min_disparity: Int32(minDisparity), num_disparities: Int32(numDisparities),
                         block_size: Int32(blockSize), uniqueness: Int32(uniqueness),
                         speckle_window: Int32(speckleWindow), speckle_range: speckleRange,
                         lr_tolerance: leftRightTolerance, refine: refine ? 1 : 0,
                         refine_radius: Int32(refineRadius), min_zncc: minZNCC, texture_sigma: textureSigma,
                         occlusion_margin: occlusionMargin, occlusion_share: occlusionShare)
    }
}

/// OpenCV stereo: rectification maps, point undistortion, matching, filling.
/// Disparity convention: x_right = x_left - d; maps are float32 pixels, NaN invalid.
public enum CVStereo {
    /// cv::initUndistortRectifyMap: destination pixel (u, v) of a `width` x
    /// `height` image samples the sensor at K distort(R^T P^-1 [u v 1]^T).
    /// `k`, `r`, `p` are 9 row-major values; `distortion` 0, 4, 5 or 8 Brown-Conrady coefficients.
    public static func rectifyMaps(k: [Double], distortion: [Double], r: [Double], p: [Double],
                                   width: Int, height: Int) throws -> (x: CVMat, y: CVMat) {
        try check3x3(k, r, p)
        var mx: OpaquePointer?, my: OpaquePointer?
        try Shim.call("initUndistortRectifyMap") {
            dc_rectify_maps(k, distortion, Int32(distortion.count), r, p, Int32(width), Int32(height), &mx, &my, $0)
        }
        return (try CVMat(adopting: mx!), try CVMat(adopting: my!))
    }

    /// cv::undistortPoints: P R undistort(K^-1 p) for sensor points `points`
    /// (x, y interleaved); returns the same layout.
    public static func undistortRectifyPoints(_ points: [Double], k: [Double], distortion: [Double],
                                              r: [Double], p: [Double]) throws -> [Double] {
        try check3x3(k, r, p)
        guard points.count >= 2, points.count % 2 == 0 else {
            throw DualcamError.openCV(operation: "undistortPoints", message: "expected x, y pairs")
        }
        var out = [Double](repeating: 0, count: points.count)
        try Shim.call("undistortPoints") {
            dc_undistort_rectify_points(k, distortion, Int32(distortion.count), r, p, Int32(points.count / 2),
                                        points, &out, $0)
        }
        return out
    }

    /// SGBM (both views) + left-right check + optional subpixel refinement
    /// (see dualcam_opencv_stereo.h). Returns the reference view's disparity
    /// (float32, NaN invalid) and confidence (float32, [0, 1]).
    public static func match(left: CVMat, right: CVMat, leftValid: CVMat?, rightValid: CVMat?,
                             parameters: CVStereoParameters, referenceIsRight: Bool,
                             refineMask: CVMat?) throws -> (disparity: CVMat, confidence: CVMat) {
        let m = try match(left: left, right: right, leftValid: leftValid, rightValid: rightValid, parameters: parameters,
                          referenceIsRight: referenceIsRight, refineMask: refineMask, predictsNoise: false)
        return (m.disparity, m.confidence)
    }

    /// `match`, and with `predictsNoise` also each refined pixel's predicted
    /// disparity standard deviation in pixels (float32, NaN where the
    /// refinement did not run; the formula in dualcam_kernels_stereo.h).
    public static func match(left: CVMat, right: CVMat, leftValid: CVMat?, rightValid: CVMat?,
                             parameters: CVStereoParameters, referenceIsRight: Bool, refineMask: CVMat?,
                             predictsNoise: Bool) throws -> (disparity: CVMat, confidence: CVMat, disparitySigma: CVMat?) {
        var params = parameters.shim
        var d: OpaquePointer?, c: OpaquePointer?, s: OpaquePointer?
        try withUnsafeMutablePointer(to: &s) { sigma in
            try Shim.call("stereo match") {
                dc_stereo_match(left.handle, right.handle, leftValid?.handle, rightValid?.handle, &params,
                                referenceIsRight ? 1 : 0, refineMask?.handle, &d, &c, predictsNoise ? sigma : nil, $0)
            }
        }
        return (try CVMat(adopting: d!), try CVMat(adopting: c!), try s.map { try CVMat(adopting: $0) })
    }

    /// Plain OpenCV: StereoSGBM (left + right matcher) and the ximgproc
    /// DisparityWLSFilter guided by the reference image; the reference view's
    /// disparity (the left view's, or the right view's with `referenceIsRight`).
    /// The matcher is `parameters`' search and block with P1 = 8 b^2,
    /// P2 = 32 b^2, OpenCV's pre-filter cap 63 and no built-in LR check.
    public static func sgbmWLS(left: CVMat, right: CVMat, parameters: CVStereoParameters, referenceIsRight: Bool,
                               lambda: Double = 8000, sigma: Double = 1.5) throws -> CVMat {
        let b = parameters.blockSize
        var matcher = CVOpenCVMatcher.sgbm(
            minDisparity: parameters.minDisparity, numDisparities: parameters.numDisparities, blockSize: b,
            p1: 8 * b * b, p2: 32 * b * b, disp12MaxDiff: -1, preFilterCap: 63, uniqueness: parameters.uniqueness,
            speckleWindow: parameters.speckleWindow, speckleRange: max(1, Int(parameters.speckleRange.rounded(.up))),
            mode: .sgbm3Way)
        matcher.wls = (lambda: lambda, sigma: sigma)
        return try match(left: left, right: right, matcher: matcher, referenceIsRight: referenceIsRight)
    }

    /// OpenCV's own matcher `matcher` on a rectified 8-bit pair (grey, or RGB
    /// for SGBM): the reference view's disparity, float32 pixels, NaN where
    /// OpenCV marks no match (below the search).
    public static func match(left: CVMat, right: CVMat, matcher: CVOpenCVMatcher, referenceIsRight: Bool = false) throws -> CVMat {
        var settings = matcher.shim
        var d: OpaquePointer?
        try Shim.call(matcher.name) {
            dc_stereo_opencv(left.handle, right.handle, &settings, referenceIsRight ? 1 : 0, &d, $0)
        }
        return try CVMat(adopting: d!)
    }

    private static func check3x3(_ matrices: [Double]...) throws {
        guard matrices.allSatisfy({ $0.count == 9 }) else {
            throw DualcamError.openCV(operation: "stereo", message: "3x3 matrices need 9 values")
        }
    }
}
