import DualcamGeometry
import DualcamImaging

/// The colour test of `PlaneExtrapolation` (`ColourGate`): beyond the
/// LiDAR's range the pixels beside a near object are nearer its samples and
/// its planes than any of the far surface's, so by distance alone the
/// object's depth spreads over the wall behind it (docs/fusion.md).
extension PlaneExtrapolation {
    /// The colour test's constants (each chosen from a sweep over Aloe and the
    /// room renders, clean and real conditions: docs/fusion.md).
    public struct ColourTest: Equatable, Sendable {
        /// Blur of the half-resolution guide, half-resolution px: averages a
        /// surface's fine texture into its colour while an object's edge
        /// stays within a few pixels (wider blurs move the edge, and the
        /// test with it).
        public var blurSigma = 2.0
        /// s, 8-bit grey levels: planes come from the nodes most alike in
        /// colour. A surface's blurred texture varies by more than s, so
        /// within one surface the nearest alike nodes carry it.
        public var softness: Float = 4
        /// A measurement supports a pixel within the reach only when their
        /// colours differ by at most this many s; a pixel with none is left
        /// to the planes. Tighter, natural texture (Aloe) loses support its
        /// fills carried well.
        public var supportTolerance: Float = 4
        /// Nodes count up to this many spread sigmas away: unmeasured strips
        /// wider than the spread (the wide view beyond the tele's) still
        /// reach the planes of their own surface.
        public var radiusFactor = 6.0
        /// The nodes used lie on a grid of this fraction of the spread sigma:
        /// neighbouring nodes' planes differ little, and the cost falls with
        /// its square.
        public var strideFactor = 0.8

        public init() {}
    }

    /// The gate for `completion`'s guide (nil without the colour test).
    func gate(_ completion: FusionCompletion) throws -> ColourGate? {
        guard let colour else { return nil }
        return try ColourGate(halfGuide: try completion.halfResolutionGuideImage(), blurSigma: colour.blurSigma,
                              softness: colour.softness)
    }

    /// `far` with the `tested` pixels that have no measurement (a sample,
    /// `sampleWeight` > 0, or a finite `stereo` value) of their colour within
    /// the reach marked far too: their fills would carry another surface.
    func colourSupport(_ far: [Bool], tested: [Bool], gate: ColourGate, reach: Double, tolerance: Float, sampleWeight: [Float],
                       stereo: [Float]?, size: PixelSize) -> [Bool] {
        // Pixel (x, y) lies in half-grid cell (y / 2) hw + x / 2 (the half
        // grid is ((w + 1) / 2, (h + 1) / 2): no clamping needed).
        let w = size.width, h = size.height, hw = gate.half.width
        let stereo = stereo ?? []
        var source = [Bool](repeating: false, count: hw * gate.half.height), candidate = source
        for y in 0..<h {
            let row = (y / 2) * hw
            for x in 0..<w {
                let p = y * w + x, q = row + x / 2
                if sampleWeight[p] > 0 || (!stereo.isEmpty && stereo[p].isFinite) { source[q] = true }
                if tested[p] { candidate[q] = true }
            }
        }
        let alike = gate.supported(candidate: candidate, source: source, reach: Int((reach / 2).rounded()), tolerance: tolerance)
        var out = far
        for y in 0..<h {
            let row = (y / 2) * hw
            for x in 0..<w where tested[y * w + x] && !alike[row + x / 2] { out[y * w + x] = true }
        }
        return out
    }

    /// The colour-gated spread (`ColourGate.spread`) of `nodes` to the cells
    /// within one of a `hole` cell (the bilinear lookup's neighbours).
    func colourSpread(_ nodes: [Node], gate: ColourGate, hole: [Bool], sigma: Double) -> PlaneSums? {
        guard let colour else { return nil }
        let want = MaskDilation.dilated(hole, width: gate.half.width, height: gate.half.height, radius: 1)
        return gate.spread(nodes, want: want, sigma: sigma, radius: Int((colour.radiusFactor * sigma).rounded(.up)),
                           stride: max(1, Int(colour.strideFactor * sigma)))
    }
}
