import CDualcamOpenCV
import DualcamSupport

/// Edge-aware filters from OpenCV's ximgproc and sparse-to-dense helpers
/// (see dualcam_opencv_edge_aware.h). Guides are 8-bit with 1 or 3 channels;
/// values and weights are float32 with 1 channel and the guide's size.
public enum CVEdgeAware {
    /// Parameters of the fast global smoother (Min et al. 2014): `lambda`
    /// sets how far values spread, `sigmaColor` how strongly guide edges stop them.
    public struct SmootherParameters: Equatable, Sendable {
        public var lambda: Double
        public var sigmaColor: Double
        public var lambdaAttenuation: Double
        public var iterations: Int
        public init(lambda: Double, sigmaColor: Double, lambdaAttenuation: Double = 0.25, iterations: Int = 3) {
            self.lambda = lambda
            self.sigmaColor = sigmaColor
            self.lambdaAttenuation = lambdaAttenuation
            self.iterations = iterations
        }
    }

    /// Confidence-weighted edge-aware fill: out = FGS(w v) / FGS(w) and the
    /// normalizer FGS(w) (a local, edge-aware density of the weights). Pixels
    /// with w <= 0 or non-finite v contribute nothing; out is NaN where the
    /// normalizer is at most `minimumWeight`.
    public static func smootherFill(
        guide: CVMat, values: CVMat, weights: CVMat, parameters: SmootherParameters, minimumWeight: Double = 1e-6
    ) throws -> (values: CVMat, weight: CVMat) {
        var out: OpaquePointer?, weight: OpaquePointer?
        try Shim.call("fastGlobalSmootherFilter") {
            dc_fgs_fill(guide.handle, values.handle, weights.handle, parameters.lambda, parameters.sigmaColor,
                        parameters.lambdaAttenuation, Int32(clamping: parameters.iterations), minimumWeight,
                        &out, &weight, $0)
        }
        let filled = try CVMat(adopting: out!)
        return (filled, try CVMat(adopting: weight!))
    }

    /// He et al.'s guided filter of `values` (window radius in pixels, `eps`
    /// in squared 8-bit guide units).
    public static func guidedFilter(guide: CVMat, values: CVMat, radius: Int, eps: Double) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("guidedFilter") {
            dc_guided_filter(guide.handle, values.handle, Int32(clamping: radius), eps, &out, $0)
        }
        return try CVMat(adopting: out!)
    }

    /// Euclidean distance in pixels from each pixel to the nearest non-zero
    /// pixel of an 8-bit mask (cv::distanceTransform, 5x5 mask); > 1e6 when
    /// the mask is all zero.
    public static func distanceToNonzero(_ mask: CVMat) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("distanceTransform") { dc_distance_to_nonzero(mask.handle, &out, $0) }
        return try CVMat(adopting: out!)
    }

    /// IP-Basic-style morphological completion (Ku et al. 2018) of a sparse
    /// float32 depth map in metres (0, NaN or negative = missing); NaN where
    /// nothing could be filled.
    public static func morphologicalFill(sparseDepth: CVMat, maxDepth: Double) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("morphological fill") { dc_morphological_fill(sparseDepth.handle, maxDepth, &out, $0) }
        return try CVMat(adopting: out!)
    }

    /// Snaps "flying pixels" at depth discontinuities onto one surface (see
    /// dc_snap_depth_edges): where the (2 radius + 1)^2 window spans
    /// max/min >= `minimumRatio` and the pixel lies between the extremes (more
    /// than `margin` of their log distance from both), it takes the window's
    /// minimum or maximum depth, whichever side a colour-weighted vote of the
    /// non-flying pixels over (2 medianRadius + 1)^2 picks (the weighted
    /// median's two-way choice; weights exp(-|dg|^2 / 2 sigma^2), `sigma` in
    /// 8-bit guide units).
    public static func snapDepthEdges(guide: CVMat, depthMetres: CVMat, radius: Int, medianRadius: Int, sigma: Double,
                                      minimumRatio: Double, margin: Double) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("snap depth edges") {
            dc_snap_depth_edges(guide.handle, depthMetres.handle, Int32(clamping: radius), Int32(clamping: medianRadius),
                                sigma, minimumRatio, margin, &out, $0)
        }
        return try CVMat(adopting: out!)
    }
}
