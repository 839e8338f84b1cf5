import COpenCVShim
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
        let fill = try fgsFill(guide: guide, values: values, weights: weights, maximumWeight: .infinity,
                               parameters: parameters, floor: minimumWeight, wantsWeight: true)
        guard let weight = fill.weight else { throw DualcamError.openCV(operation: "fastGlobalSmootherFilter", message: "no weight") }
        return (fill.values, weight)
    }

    /// The same fill with confidences c clipped to at most 1 (nil: 1 where v
    /// is finite), ximgproc's default attenuation and iterations, and NaN
    /// where the smoothed weight is below `minimumWeight` (> 0; kept at or
    /// above it). Only the filled values are made.
    public static func confidenceFill(values: CVMat, confidence: CVMat?, guide: CVMat, lambda: Double,
                                      sigmaColor: Double, minimumWeight: Double) throws -> CVMat {
        // dc_fgs_fill keeps weights strictly above its floor (compared as
        // float32): the floor that keeps exactly the weights >= minimumWeight
        // is the float just below the smallest float >= minimumWeight.
        let nearest = Float(minimumWeight)
        let atLeast = Double(nearest) >= minimumWeight ? nearest : nearest.nextUp
        return try fgsFill(guide: guide, values: values, weights: confidence, maximumWeight: 1,
                           parameters: SmootherParameters(lambda: lambda, sigmaColor: sigmaColor),
                           floor: Double(atLeast.nextDown), wantsWeight: false).values
    }

    /// `dc_fgs_fill`: FGS(w v) / FGS(w) with w = min(weights, maximumWeight)
    /// (nil weights: 1), NaN where FGS(w) <= `floor`; FGS(w) too when `wantsWeight`.
    private static func fgsFill(guide: CVMat, values: CVMat, weights: CVMat?, maximumWeight: Double,
                                parameters: SmootherParameters, floor: Double,
                                wantsWeight: Bool) throws -> (values: CVMat, weight: CVMat?) {
        var out: OpaquePointer?, weight: OpaquePointer?
        try Shim.call("fastGlobalSmootherFilter") { error in
            withUnsafeMutablePointer(to: &weight) { weightOut in
                dc_fgs_fill(guide.handle, values.handle, weights?.handle, maximumWeight, parameters.lambda,
                            parameters.sigmaColor, parameters.lambdaAttenuation, Int32(clamping: parameters.iterations),
                            floor, &out, wantsWeight ? weightOut : nil, error)
            }
        }
        return (try CVMat(adopting: out!), try weight.map { try CVMat(adopting: $0) })
    }

    /// A guide prepared once for many `smootherFill`s with the same
    /// `sigmaColor` (any lambda, attenuation and iterations): the affinities
    /// exp(-|g_p - g_q| / sigmaColor) are computed on creation, and each fill
    /// solves FGS(w v) and FGS(w) in one elimination. Results match
    /// `smootherFill` to float rounding. Immutable; fills may run concurrently.
    public final class SmootherGuide: @unchecked Sendable {
        private let handle: OpaquePointer
        public let sigmaColor: Double
        public let rows: Int, cols: Int

        public init(guide: CVMat, sigmaColor: Double) throws {
            var handle: OpaquePointer?
            try Shim.call("edge solver") { dc_edge_solver_create(guide.handle, sigmaColor, &handle, $0) }
            self.handle = handle!
            self.sigmaColor = sigmaColor
            rows = guide.rows
            cols = guide.cols
        }

        deinit { dc_edge_solver_free(handle) }

        /// `smootherFill` with this guide; `parameters.sigmaColor` must be this guide's.
        /// `logDomain`: fill log v instead (only v > 0 counts) and return exp of
        /// the result, a weighted geometric mean (log and exp vectorized in OpenCV).
        public func fill(values: CVMat, weights: CVMat, parameters: SmootherParameters, minimumWeight: Double = 1e-6,
                         logDomain: Bool = false) throws -> (values: CVMat, weight: CVMat) {
            guard parameters.sigmaColor == sigmaColor else {
                throw DualcamError.invalidValue(name: "smoother sigmaColor",
                                                reason: "is \(parameters.sigmaColor) but the guide was prepared for \(sigmaColor)")
            }
            var out: OpaquePointer?, weight: OpaquePointer?
            try Shim.call("edge solver fill") {
                dc_edge_solver_fill(handle, values.handle, weights.handle, parameters.lambda, parameters.lambdaAttenuation,
                                    Int32(clamping: parameters.iterations), minimumWeight, logDomain ? 1 : 0, &out, &weight, $0)
            }
            let filled = try CVMat(adopting: out!)
            return (filled, try CVMat(adopting: weight!))
        }
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

    /// Puts every pixel of a depth-edge region onto the near or the far
    /// surface (see dc_relabel_depth_edges): where the (2 radius + 1)^2 window
    /// spans max/min >= `minimumRatio`, the pixel takes the side (split at the
    /// midpoint of the extremes in log depth) with the larger colour weight
    /// exp(-d^2 / 2 sigma^2) among the non-flying pixels of the
    /// (2 voteRadius + 1)^2 window, d^2 = lumaWeight dY^2 + dCb^2 + dCr^2 in
    /// 8-bit units; a non-flying pixel already on that side keeps its depth,
    /// others take the side's weighted geometric mean depth; up to
    /// `iterations` passes. `guide` is 8-bit RGB.
    public static func relabelDepthEdges(guide: CVMat, depthMetres: CVMat, radius: Int, voteRadius: Int, sigma: Double,
                                         lumaWeight: Double, minimumRatio: Double, margin: Double, iterations: Int) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("relabel depth edges") {
            dc_relabel_depth_edges(guide.handle, depthMetres.handle, Int32(clamping: radius), Int32(clamping: voteRadius),
                                   sigma, lumaWeight, minimumRatio, margin, Int32(clamping: iterations), &out, $0)
        }
        return try CVMat(adopting: out!)
    }
}
