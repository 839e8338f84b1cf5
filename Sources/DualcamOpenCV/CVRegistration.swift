import COpenCVShim

/// Measuring how two images are displaced relative to each other.
public enum CVRegistration {
    /// The apodization applied to both images before phase correlation.
    public enum Window: Sendable, Equatable {
        /// No window: the images are treated as periodic, so content that does
        /// not wrap around adds edge artefacts that pull the estimate.
        case none
        /// A Hanning (raised cosine) window, which suppresses the edge effects
        /// at the price of a small bias (~0.01 px) for exact circular shifts.
        case hanning

        var code: Int32 {
            switch self {
            case .none: return Int32(DC_WINDOW_NONE)
            case .hanning: return Int32(DC_WINDOW_HANNING)
            }
        }
    }

    /// How the sub-pixel part of the shift is estimated.
    public enum Subpixel: Sendable, Equatable {
        /// The maximum of the band-limited correlation surface: the inverse DFT
        /// of the normalized cross-power spectrum evaluated between pixels
        /// (upsampled DFT, resolution 0.0005 px; each image's mean is removed
        /// before windowing). Recovers exact circular shifts to ~0.001 px
        /// (~0.01 px with the Hanning window); about 0.2 s for 1024 x 1024.
        case upsampled
        /// cv::phaseCorrelate verbatim: a 5x5 weighted centroid around the
        /// peak, biased towards whole pixels by up to ~0.35 px for fractional
        /// shifts. For comparison with OpenCV-based tools.
        case openCVCentroid

        var code: Int32 {
            switch self {
            case .upsampled: return Int32(DC_SUBPIXEL_UPSAMPLED)
            case .openCVCentroid: return Int32(DC_SUBPIXEL_OPENCV_CENTROID)
            }
        }
    }

    /// Phase correlation of two 1-channel matrices of the same size (any
    /// depth, computed in float64; NaN or infinite values are an error, as are
    /// constant images with `.upsampled`).
    ///
    /// Sign convention (cv::phaseCorrelate's): `shift` is the displacement of
    /// `b` relative to `a`. If b(x, y) = a(x - dx, y - dy), i.e. `b` shows
    /// `a`'s content moved by (+dx, +dy) pixels (right and down), the result is
    /// (dx, dy); warping `a` with the translation H = [1 0 dx; 0 1 dy; 0 0 1]
    /// (`CVImgproc.warpPerspective`, inverseMap false) produces such a `b`.
    ///
    /// `response` measures how well one shift explains the images: with
    /// `.upsampled` the surface maximum divided by the number of spectrum bins,
    /// 1 for an exact circular shift and near 0 for unrelated images; with
    /// `.openCVCentroid` cv::phaseCorrelate's value (can exceed 1).
    ///
    /// Phase correlation weighs all frequencies equally, so a shift produced
    /// by interpolation (a warp) is measured with a bias towards whole pixels
    /// wherever the interpolation kernel misrepresents high frequencies
    /// (~0.07 px at a quarter pixel for lanczos4 on a fine random texture).
    public static func phaseCorrelate(
        _ a: CVMat, _ b: CVMat, window: Window = .hanning, subpixel: Subpixel = .upsampled
    ) throws -> (shift: (dx: Double, dy: Double), response: Double) {
        var dx = 0.0, dy = 0.0, response = 0.0
        try Shim.call("phaseCorrelate") {
            dc_phase_correlate(a.handle, b.handle, window.code, subpixel.code, &dx, &dy, &response, $0)
        }
        return (shift: (dx: dx, dy: dy), response: response)
    }

    /// Sub-pixel translation of `b` relative to `a` (1-channel, same size) by
    /// OpenCV's ECC maximisation (`cv::findTransformECC`, translation only),
    /// same sign convention as `phaseCorrelate`: if b(x) = a(x - s) the result
    /// is s. `gaussianSize` (odd, or 0 for none) pre-filters both images.
    /// Unbiased by borders and by a sharpness difference between the images;
    /// the shift must be within a few pixels. Throws when ECC does not converge.
    public static func eccTranslation(
        _ a: CVMat, _ b: CVMat, iterations: Int = 200, epsilon: Double = 1e-6, gaussianSize: Int = 5
    ) throws -> (shift: (dx: Double, dy: Double), correlation: Double) {
        var dx = 0.0, dy = 0.0, correlation = 0.0
        try Shim.call("findTransformECC") {
            dc_ecc_translation(a.handle, b.handle, Int32(iterations), epsilon, Int32(gaussianSize), &dx, &dy, &correlation, $0)
        }
        return (shift: (dx: dx, dy: dy), correlation: correlation)
    }
}
