import DualcamOpenCV
import DualcamGeometry
import DualcamImaging
import Foundation

/// Stage "extend planes" of `DepthFusion`: surfaces that neither samples
/// nor stereo reach continue the planes next to them (hand-written: box sums
/// of plane moments and a normalized convolution of plane coefficients; no
/// library extrapolates surfaces).
///
/// Where nothing measures a surface (beyond the LiDAR's range outside the
/// tele's view: the far part of a ceiling or a side wall, the edges of a
/// back wall) the fills can only copy the nearest values, those of the
/// sensor's range limit: in `synth --scene room` at 1280x960 the ceiling and
/// the walls at 5-6 m outside the tele's view came out near 4.9 m. Surfaces
/// there are mostly planes, and inverse depth is linear in pixel coordinates
/// on a plane (`SampleVerifier`).
///
/// Unsupported pixels: farther than R = max(`minimumReach`, `spacingFactor` s)
/// px from every used sample (s = sqrt(N / n), the mean sample spacing) and
/// farther than `stereoReach` px from every measured stereo value. On the
/// half-resolution grid (2x2 blocks whose pixels are all supported, their
/// mean 1/z), a plane v = a X + b Y + c (X, Y: half-resolution pixels about
/// the image centre over the half width) is fitted by least squares over the
/// (2k + 1)^2 window around every block within `nearFactor` k of an
/// unsupported one, k = max(`minimumWindowRadius`, `windowFactor` R) half-resolution px, from box
/// sums of the moments (`PlaneMoments`), when at least `minimumCoverage` of
/// the window is supported. Its weight: the supported fraction times
/// exp(-(rms / (`planeTolerance` v))^2), so windows over a crease, an edge or
/// a curved surface count little. a, b and c spread by normalized Gaussian
/// convolution, G(w a) / G(w) with sigma `spreadFactor` k, and every
/// unsupported pixel takes its spread plane (bilinear from the half grid)
/// where G(w) exceeds `minimumWeight` and the value stays in the used
/// samples' range. Elsewhere the map is unchanged. (An edge-aware spread, the
/// fast global smoother on the half-resolution guide, measured worse on the
/// room: the walls' texture stops it and the nearest planes win; so did
/// grouping the planes into surfaces and taking the nearest that reaches a
/// pixel, which one badly sloped plane spoils.)
///
/// With the colour test (`colour`, `ColourGate`) a sample or stereo value
/// supports a pixel within the reach only when their blurred colours agree,
/// and each plane node's weight is also multiplied by its colour similarity
/// to the pixel (a bilateral spread of the planes); where no node of any
/// colour is near enough, the Gaussian spread above decides.
public struct PlaneExtrapolation: Equatable, Sendable {
    /// Gaps narrower than this (pixels) are the fills' to close, however dense the samples.
    public var minimumReach = 8.0
    /// Beyond two sample spacings no sample is near enough for the fills to carry its surface.
    public var spacingFactor = 2.0
    /// A pixel next to a stereo value is measured.
    public var stereoReach = 1.0
    /// Plane windows as wide as the reach see the supported surface beside the gap.
    public var windowFactor = 1.0
    /// Planes are fitted only this many windows from an unsupported block: nothing farther uses them.
    public var nearFactor = 2.5
    /// The spread's Gaussian sigma, in windows: neighbouring planes blend rather than meet at seams.
    public var spreadFactor = 0.6
    /// A window's RMS residual (relative to 1/z) at this scale or below marks it as a plane.
    public var planeTolerance = 0.003
    /// Below this spread weight no plane reaches the pixel: it keeps the filled value.
    public var minimumWeight: Float = 1e-20
    /// The colour test (`ColourTest`); nil: support and planes by distance alone.
    public var colour: ColourTest? = ColourTest()

    /// Plane windows reach at least this many half-resolution pixels: a
    /// 9x9 window, enough cells for a plane however dense the samples.
    static let minimumWindowRadius = 4
    /// A window's plane counts only when at least this fraction of it is
    /// supported: less, and it describes the window's edge, not its surface.
    static let minimumCoverage = 0.5

    public init() {}

    /// R for `usedCount` samples on `size`, pixels.
    func reach(size: PixelSize, usedCount: Int) -> Double {
        let spacing = (Double(size.width * size.height) / Double(max(1, usedCount))).squareRoot()
        return max(minimumReach, spacingFactor * spacing)
    }

    /// The unsupported pixels (see above); `stereo`: the measured stereo (NaN
    /// = none); `sampleWeight`: the used samples' raster (> 0 where one
    /// lies), whose samples with the colour test support only pixels of their
    /// colour (`colourSupport`; `gate` is asked for only when a pixel depends
    /// on it, and nil turns the test off).
    func unsupported(size: PixelSize, distanceToSamples: [Float], reach: Double, stereo: [Float]?,
                     sampleWeight: [Float], gate: () throws -> ColourGate?) throws -> [Bool] {
        let reachPixels = Float(reach)
        var far = distanceToSamples.map { $0 > reachPixels }
        // Without the colour test only pixels far from the samples can be
        // unsupported: without them the stereo's distance changes nothing.
        guard colour != nil || far.contains(true) else { return far }
        let nearStereo = try stereo.map { try nearMeasured($0, size: size) } ?? [Bool](repeating: false, count: far.count)
        if let colour {
            // Supported by distance alone, and not by the stereo beside them: the colour test's pixels.
            let tested = far.indices.map { !far[$0] && !nearStereo[$0] }
            if tested.contains(true), let gate = try gate() {
                far = colourSupport(far, tested: tested, gate: gate, reach: reach, tolerance: colour.supportTolerance,
                                    sampleWeight: sampleWeight, stereo: stereo, size: size)
            }
        }
        for p in far.indices where nearStereo[p] { far[p] = false }
        return far
    }

    /// The pixels within `stereoReach` of a measured `stereo` value.
    func nearMeasured(_ stereo: [Float], size: PixelSize) throws -> [Bool] {
        let stereoReach = Float(self.stereoReach)
        if stereoReach < Self.chamferDiagonalBelow {
            // `distanceToNonzero` measures 0 on a measured pixel, 1 next to one
            // (4-neighbours) and at least its diagonal step (1.4) elsewhere:
            // below that step the test needs only the pixel and its 4-neighbours.
            return Self.measuredOrBeside(stereo, size: size, withNeighbours: stereoReach >= 1)
        }
        let measured = stereo.map { $0.isFinite ? UInt8(255) : 0 }
        return try FloatMaps.distanceToNonzero(measured, size).map { $0 <= stereoReach }
    }

    /// `CVEdgeAware.distanceToNonzero`'s diagonal step is 1.4 (OpenCV's
    /// 5x5 L2 chamfer: 1, 1.4, 2.1969); reaches below this are decided
    /// from the pixel and its 4-neighbours alone.
    static let chamferDiagonalBelow: Float = 1.39

    /// Per pixel, whether the stereo measured it or, with `withNeighbours`,
    /// one of its 4-neighbours.
    private static func measuredOrBeside(_ stereo: [Float], size: PixelSize, withNeighbours: Bool) -> [Bool] {
        let w = size.width, h = size.height
        var near = [Bool](repeating: false, count: w * h)
        near.withUnsafeMutableBufferPointer { near in
            stereo.withUnsafeBufferPointer { stereo in
                for y in 0..<h {
                    for x in 0..<w {
                        let p = y * w + x
                        var measured = stereo[p].isFinite
                        if withNeighbours && !measured {
                            measured = (x > 0 && stereo[p - 1].isFinite) || (x + 1 < w && stereo[p + 1].isFinite)
                                || (y > 0 && stereo[p - w].isFinite) || (y + 1 < h && stereo[p + w].isFinite)
                        }
                        near[p] = measured
                    }
                }
            }
        }
        return near
    }

    /// `inverse` with the unsupported pixels on the continued planes (see above).
    func apply(_ inverse: [Float], unsupported: [Bool], reach: Double, range: ClosedRange<Float>,
               completion: FusionCompletion, gate: ColourGate?) throws -> [Float] {
        guard unsupported.contains(true) else { return inverse }
        let size = completion.size, half = completion.halfSize
        let w = size.width, h = size.height, hw = half.width, hh = half.height
        // Half-resolution blocks: mean 1/z where all four pixels are supported.
        var value = [Double](repeating: 0, count: hw * hh), supported = [Double](repeating: 0, count: hw * hh)
        var hole = [Bool](repeating: false, count: hw * hh)
        for y in 0..<hh {
            for x in 0..<hw {
                var sum = 0.0, count = 0, holes = 0, empty = 0
                for dy in 0..<2 where 2 * y + dy < h {
                    for dx in 0..<2 where 2 * x + dx < w {
                        let p = (2 * y + dy) * w + 2 * x + dx
                        if unsupported[p] { holes += 1 } else if inverse[p].isFinite { sum += Double(inverse[p]); count += 1 } else { empty += 1 }
                    }
                }
                let q = y * hw + x
                hole[q] = holes > 0
                if holes == 0, empty == 0, count > 0 { value[q] = sum / Double(count); supported[q] = 1 }
            }
        }
        let k = max(Self.minimumWindowRadius, Int((windowFactor * reach).rounded()))
        let moments = PlaneMoments(value: value, mask: supported, width: hw, height: hh)
        let nodes = planes(moments, near: MaskDilation.dilated(hole, width: hw, height: hh, radius: Int((nearFactor * Double(k)).rounded())), k: k)
        guard !nodes.isEmpty else { return inverse }
        let sigma = spreadFactor * Double(k)
        let gated = gate.flatMap { colourSpread(nodes, gate: $0, hole: hole, sigma: sigma) }
        // The Gaussian spread, made on the first pixel the gated planes do not reach.
        var gaussian: PlaneSums?
        func gaussianSums() throws -> PlaneSums {
            if let gaussian { return gaussian }
            let sums = try Self.gaussianSpread(nodes, half: half, sigma: sigma)
            gaussian = sums
            return sums
        }
        var out = inverse
        for y in 0..<h {
            // Full-size pixel centres on the half grid: (x + 0.5) / 2 - 0.5.
            let gy = min(Double(hh - 1), max(0, (Double(y) + 0.5) / 2 - 0.5))
            let y0 = Int(gy), y1 = min(hh - 1, y0 + 1), fy = Float(gy - Double(y0))
            for x in 0..<w where unsupported[y * w + x] {
                let gx = min(Double(hw - 1), max(0, (Double(x) + 0.5) / 2 - 0.5))
                let x0 = Int(gx), x1 = min(hw - 1, x0 + 1), fx = Float(gx - Double(x0))
                func bilinear(_ f: [Float]) -> Float {
                    let top = f[y0 * hw + x0] * (1 - fx) + f[y0 * hw + x1] * fx
                    let bottom = f[y1 * hw + x0] * (1 - fx) + f[y1 * hw + x1] * fx
                    return top * (1 - fy) + bottom * fy
                }
                // The plane of spread sums where their weight reaches the pixel.
                func plane(_ s: PlaneSums) -> Float? {
                    let total = bilinear(s.weight)
                    guard total > minimumWeight else { return nil }
                    return (bilinear(s.a) * Float(moments.X(gx)) + bilinear(s.b) * Float(moments.Y(gy)) + bilinear(s.c)) / total
                }
                // The colour-gated planes where a node reaches, else the Gaussian spread's.
                guard let v = try gated.flatMap(plane) ?? plane(gaussianSums()) else { continue }
                if v.isFinite, range.contains(v) { out[y * w + x] = v }
            }
        }
        return out
    }

    /// The planes spread by normalized Gaussian convolution on the half grid:
    /// G(w a), G(w b), G(w c) and G(w) (the plane is the first three over the last).
    static func gaussianSpread(_ nodes: [Node], half: PixelSize, sigma: Double) throws -> PlaneSums {
        var sums = PlaneSums(count: half.width * half.height)
        for n in nodes {
            sums.weight[n.index] = n.weight
            sums.a[n.index] = n.weight * Float(n.a)
            sums.b[n.index] = n.weight * Float(n.b)
            sums.c[n.index] = n.weight * Float(n.c)
        }
        func blur(_ f: [Float]) throws -> [Float] { FloatMaps.floats(try CVImgproc.gaussianBlur(try FloatMaps.mat(f, half), sigma: sigma)) }
        sums.weight = try blur(sums.weight)
        sums.a = try blur(sums.a)
        sums.b = try blur(sums.b)
        sums.c = try blur(sums.c)
        return sums
    }

    /// Weighted sums of plane coefficients per half-grid cell: the plane is (a, b, c) / weight.
    struct PlaneSums {
        var weight: [Float], a: [Float], b: [Float], c: [Float]

        init(count: Int) {
            weight = [Float](repeating: 0, count: count)
            a = weight
            b = weight
            c = weight
        }
    }

    /// A plane fitted around one half-grid block next to the unsupported region.
    struct Node {
        var index: Int
        var x: Int, y: Int
        var a: Double, b: Double, c: Double
        var weight: Float
    }

    /// The planes of the supported blocks within 2k of a hole (`near`), over
    /// (2k + 1)^2 windows, weighted by coverage x exp(-(rms / (tolerance v))^2).
    func planes(_ moments: PlaneMoments, near: [Bool], k: Int) -> [Node] {
        let hw = moments.width, hh = moments.height
        let full = Double((2 * k + 1) * (2 * k + 1))
        var nodes: [Node] = []
        for y in 0..<hh {
            for x in 0..<hw where near[y * hw + x] {
                guard let fit = moments.plane(x0: x - k, y0: y - k, x1: x + k, y1: y + k), fit.count >= Self.minimumCoverage * full else { continue }
                let v = fit.a * moments.X(x) + fit.b * moments.Y(y) + fit.c
                guard v > 0 else { continue }
                let e = fit.rms / (planeTolerance * v)
                nodes.append(Node(index: y * hw + x, x: x, y: y, a: fit.a, b: fit.b, c: fit.c, weight: Float(fit.count / full * exp(-e * e))))
            }
        }
        return nodes
    }
}

