import COpenCVShim

/// Parameters of `CVStereo.edgeSnap` (see dualcam_opencv_stereo_edges.h). A jump
/// between disparities a and b is |a - b| > max(`jumpPixels`, `jumpRelative` min(a, b)).
public struct CVEdgeSnapParameters: Sendable, Equatable {
    public var jumpPixels = 0.4
    public var jumpRelative = 0.04

    /// Whether disparities a and b lie on different surfaces (the kernels' jump test).
    public func isJump(_ a: Float, _ b: Float) -> Bool {
        abs(a - b) > max(Float(jumpPixels), Float(jumpRelative) * min(a, b))
    }
    /// Half-size of the zone about the jump pixels, pixels.
    public var margin = 2
    /// Half-size of the window the surfaces are fitted in, pixels (sized for
    /// the photo output, 768 px wide; `StereoDepthEstimator` scales it with the output width).
    public var radius = 24
    /// Half-occlusions lie right of the nearer surface (reference = the rectified pair's right view).
    public var occlusionRight = true
    /// Map pixels per disparity pixel along the rows.
    public var disparityScale = 1.0
    /// A measurement is snapped only to a plane fitted with at most this RMS residual, pixels.
    public var maxFitRMS = 0.1

    public init() {}
}

extension CVStereo {
    /// Snaps a dense disparity map (`filled`, float32) to the planes of the
    /// surfaces that meet at the discontinuities of `measured` (float32, NaN =
    /// no measurement): half-occluded holes take the farther surface, measured
    /// pixels near a jump the surface their measurement is nearest to.
    /// A measured pixel moves towards its plane by its `confidence` (float32
    /// in [0, 1], nil = 1). `covered` (uint8, optional): pixels left alone where 0.
    public static func edgeSnap(measured: CVMat, confidence: CVMat? = nil, filled: CVMat, covered: CVMat?,
                                parameters: CVEdgeSnapParameters = CVEdgeSnapParameters()) throws -> CVMat {
        var params = parameters.shim
        var out: OpaquePointer?
        try Shim.call("disparity edge snap") {
            dc_disparity_edge_snap(measured.handle, confidence?.handle, filled.handle, covered?.handle, &params, &out, $0)
        }
        return try CVMat(adopting: out!)
    }

    /// The pixels within `margin` of a jump of `measured` (float32, NaN = no
    /// measurement), where `edgeSnap` acts: uint8, 255 in the zone. A
    /// measurement there may come from a window that straddles a depth edge.
    public static func edgeZone(measured: CVMat, parameters: CVEdgeSnapParameters = CVEdgeSnapParameters()) throws -> CVMat {
        var params = parameters.shim
        var out: OpaquePointer?
        try Shim.call("disparity edge zone") { dc_disparity_edge_zone(measured.handle, &params, &out, $0) }
        return try CVMat(adopting: out!)
    }
}

/// The depth edges of a measured disparity map, found once for both of their
/// uses: the zone (`CVStereo.edgeZone`'s) before a fill, the snap of the fill
/// (`CVStereo.edgeSnap` of the same measured map and parameters) after it.
public final class CVEdgeZone: @unchecked Sendable {
    private let handle: OpaquePointer
    /// uint8, 255 in the zone.
    public let zone: CVMat

    public init(measured: CVMat, parameters: CVEdgeSnapParameters = CVEdgeSnapParameters()) throws {
        var params = parameters.shim
        var handle: OpaquePointer?, zone: OpaquePointer?
        try Shim.call("disparity edge zone") { dc_edge_zone_find(measured.handle, &params, &handle, &zone, $0) }
        do { self.zone = try CVMat(adopting: zone!) } catch { dc_edge_zone_free(handle); throw error }
        self.handle = handle!
    }

    deinit { dc_edge_zone_free(handle) }

    /// `CVStereo.edgeSnap` of `filled` to these edges.
    public func snap(confidence: CVMat? = nil, filled: CVMat, covered: CVMat?) throws -> CVMat {
        var out: OpaquePointer?
        try Shim.call("disparity edge snap") {
            dc_edge_zone_snap(handle, confidence?.handle, filled.handle, covered?.handle, &out, $0)
        }
        return try CVMat(adopting: out!)
    }
}

extension CVEdgeSnapParameters {
    var shim: dc_edge_snap_params {
        dc_edge_snap_params(jump_pixels: jumpPixels, jump_relative: jumpRelative, margin: Int32(margin), radius: Int32(radius),
                            occlusion_side: occlusionRight ? 1 : -1, disparity_scale: disparityScale, max_fit_rms: maxFitRMS)
    }
}
