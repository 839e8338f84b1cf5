import DualcamCV
import DualcamGeometry
import Foundation

/// Stage "extend planes" of `DepthFusion`: surfaces that neither samples
/// nor stereo reach continue the planes next to them (hand-written: box sums
/// of plane moments and an edge-aware spread of plane coefficients; no
/// library extrapolates surfaces).
///
/// Where nothing measures a surface (beyond the LiDAR's range outside the
/// tele's view: the far part of a ceiling or a side wall, the edges of a
/// back wall) the fills can only copy the nearest values, which are those
/// of the sensor's range limit: the room's ceiling and side walls at 5-6 m
/// came out at 4.9 m (AbsRel 19 % there). Surfaces there are mostly planes,
/// and inverse depth is linear in pixel coordinates on a plane (`SampleVerifier`).
///
/// Unsupported pixels: farther than R = max(`minimumReach`, `spacingFactor` s)
/// px from every used sample (s = sqrt(N / n), the mean sample spacing) and
/// farther than `stereoReach` px from every measured stereo value. On the
/// half-resolution grid (2x2 blocks whose pixels are all supported, their
/// mean 1/z), a plane v = a X + b Y + c (X, Y: half-resolution pixels about
/// the image centre over the half width) is fitted by least squares over the
/// (2k + 1)^2 window of every block within 2k of an unsupported one,
/// k = max(4, R / 2) half-resolution px, from box sums of the moments. Its
/// weight: coverage (supported fraction of the window) times
/// exp(-(rms / (`planeTolerance` v))^2), so windows over a crease, an edge
/// or a curved surface count little. a, b and c spread edge-aware with these
/// weights (`FusionCompletion.halfResolutionFill`, `smoother`: far, and the
/// reduced guide keeps object boundaries while the texture is averaged
/// away), and every unsupported pixel takes its spread plane (bilinear from
/// the half grid) where the spread weight is at least `minimumWeight` and the
/// value stays in `range`. Elsewhere the map is unchanged.
public struct PlaneExtrapolation: Equatable, Sendable {
    public var minimumReach = 8.0
    public var spacingFactor = 2.0
    public var stereoReach = 1.0
    public var planeTolerance = 0.003
    public var minimumWeight: Float = 1e-3
    public var smoother = CVEdgeAware.SmootherParameters(lambda: 2400, sigmaColor: 12, iterations: 2)

    public init() {}

    /// R for `usedCount` samples on `size`, pixels.
    func reach(size: PixelSize, usedCount: Int) -> Double {
        let spacing = (Double(size.width * size.height) / Double(max(1, usedCount))).squareRoot()
        return max(minimumReach, spacingFactor * spacing)
    }

    /// The unsupported pixels (see above); `stereo`: the measured stereo (NaN = none).
    func unsupported(size: PixelSize, distanceToSamples: [Float], reach: Double, stereo: [Float]?) throws -> [Bool] {
        let n = size.width * size.height
        let reach = Float(reach)
        var far = distanceToSamples.map { $0 > reach }
        if let stereo {
            var measured = [UInt8](repeating: 0, count: n)
            for p in 0..<n where stereo[p].isFinite { measured[p] = 255 }
            let distance = FloatMaps.floats(try CVEdgeAware.distanceToNonzero(try FloatMaps.mat(bytes: measured, channels: 1, size)))
            let stereoReach = Float(self.stereoReach)
            for p in 0..<n where distance[p] <= stereoReach { far[p] = false }
        }
        return far
    }

    /// `inverse` with the unsupported pixels on the spread planes (see above).
    func apply(_ inverse: [Float], unsupported: [Bool], reach: Double, range: ClosedRange<Float>,
               completion: FusionCompletion) throws -> [Float] {
        guard unsupported.contains(true) else { return inverse }
        let size = completion.size, half = completion.halfSize
        let w = size.width, h = size.height, hw = half.width, hh = half.height
        // Half-resolution blocks: mean 1/z where all four pixels are supported.
        var value = [Double](repeating: 0, count: hw * hh), supported = [Double](repeating: 0, count: hw * hh)
        var hole = [Bool](repeating: false, count: hw * hh)
        for y in 0..<hh {
            for x in 0..<hw {
                var sum = 0.0, count = 0, holes = 0
                for dy in 0..<2 where 2 * y + dy < h {
                    for dx in 0..<2 where 2 * x + dx < w {
                        let p = (2 * y + dy) * w + 2 * x + dx
                        if unsupported[p] || !inverse[p].isFinite { holes += 1 } else { sum += Double(inverse[p]); count += 1 }
                    }
                }
                let q = y * hw + x
                hole[q] = holes > 0
                if holes == 0, count > 0 { value[q] = sum / Double(count); supported[q] = 1 }
            }
        }
        let k = max(4, Int((reach / 2).rounded()))
        let moments = PlaneMoments(value: value, mask: supported, width: hw, height: hh)
        let nearHole = Self.within(2 * k, of: hole, width: hw, height: hh)
        var a = [Float](repeating: 0, count: hw * hh), b = a, c = a, weight = a
        let full = Double((2 * k + 1) * (2 * k + 1)), tolerance = planeTolerance
        for y in 0..<hh {
            for x in 0..<hw where nearHole[y * hw + x] && supported[y * hw + x] > 0 {
                guard let fit = moments.plane(x0: x - k, y0: y - k, x1: x + k, y1: y + k) else { continue }
                let v = fit.a * moments.X(x) + fit.b * moments.Y(y) + fit.c
                guard v > 0 else { continue }
                let e = fit.rms / (tolerance * v)
                let q = y * hw + x
                weight[q] = Float(fit.count / full * exp(-e * e))
                (a[q], b[q], c[q]) = (Float(fit.a), Float(fit.b), Float(fit.c))
            }
        }
        guard weight.contains(where: { $0 > 0 }) else { return inverse }
        let spreadA = try completion.halfResolutionFill(a, weight, smoother)
        let spreadB = try completion.halfResolutionFill(b, weight, smoother).values
        let spreadC = try completion.halfResolutionFill(c, weight, smoother).values
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
                guard bilinear(spreadA.weight) >= minimumWeight else { continue }
                let v = bilinear(spreadA.values) * Float(moments.X(gx)) + bilinear(spreadB) * Float(moments.Y(gy)) + bilinear(spreadC)
                if v.isFinite, range.contains(v) { out[y * w + x] = v }
            }
        }
        return out
    }

    /// Cells within `radius` (Chebyshev) of a true cell of `mask`.
    static func within(_ radius: Int, of mask: [Bool], width: Int, height: Int) -> [Bool] {
        var rows = [Bool](repeating: false, count: mask.count)
        for y in 0..<height {
            var last = -Int.max / 2
            var next = [Int](repeating: Int.max / 2, count: width)
            var upcoming = Int.max / 2
            for x in stride(from: width - 1, through: 0, by: -1) {
                if mask[y * width + x] { upcoming = x }
                next[x] = upcoming
            }
            for x in 0..<width {
                if mask[y * width + x] { last = x }
                rows[y * width + x] = x - last <= radius || next[x] - x <= radius
            }
        }
        var out = rows
        for x in 0..<width {
            var last = -Int.max / 2
            var next = [Int](repeating: Int.max / 2, count: height)
            var upcoming = Int.max / 2
            for y in stride(from: height - 1, through: 0, by: -1) {
                if rows[y * width + x] { upcoming = y }
                next[y] = upcoming
            }
            for y in 0..<height {
                if rows[y * width + x] { last = y }
                out[y * width + x] = y - last <= radius || next[y] - y <= radius
            }
        }
        return out
    }
}

/// Box sums of the moments of masked values on a grid (integral images, in
/// Double), for least-squares planes v = a X + b Y + c over any rectangle.
struct PlaneMoments {
    let width: Int, height: Int
    /// Integral images of 1, X, Y, XX, XY, YY, v, Xv, Yv, vv over the mask, (width + 1) x (height + 1).
    private var sums: [[Double]]

    /// X and Y of a grid point: about the grid's centre, over its width.
    func X(_ x: Double) -> Double { (x - Double(width) / 2) / Double(width) }
    func Y(_ y: Double) -> Double { (y - Double(height) / 2) / Double(width) }
    func X(_ x: Int) -> Double { X(Double(x)) }
    func Y(_ y: Int) -> Double { Y(Double(y)) }

    init(value: [Double], mask: [Double], width: Int, height: Int) {
        self.width = width
        self.height = height
        let stride = width + 1
        sums = [[Double]](repeating: [Double](repeating: 0, count: stride * (height + 1)), count: 10)
        for y in 0..<height {
            var row = [Double](repeating: 0, count: 10)
            for x in 0..<width {
                let m = mask[y * width + x]
                if m > 0 {
                    let X = self.X(x), Y = self.Y(y), v = value[y * width + x]
                    let terms = [1, X, Y, X * X, X * Y, Y * Y, v, X * v, Y * v, v * v]
                    for t in 0..<10 { row[t] += m * terms[t] }
                }
                let at = (y + 1) * stride + x + 1
                for t in 0..<10 { sums[t][at] = sums[t][at - stride] + row[t] }
            }
        }
    }

    /// The least-squares plane over [x0, x1] x [y0, y1] (clipped to the grid):
    /// coefficients, the weighted count and the RMS residual; nil when the
    /// points do not span a plane (fewer than 12, or degenerate).
    func plane(x0: Int, y0: Int, x1: Int, y1: Int) -> (a: Double, b: Double, c: Double, count: Double, rms: Double)? {
        let lx = max(0, x0), ly = max(0, y0), hx = min(width - 1, x1), hy = min(height - 1, y1)
        guard lx <= hx, ly <= hy else { return nil }
        let stride = width + 1
        func box(_ t: Int) -> Double {
            let s = sums[t]
            return s[(hy + 1) * stride + hx + 1] - s[ly * stride + hx + 1] - s[(hy + 1) * stride + lx] + s[ly * stride + lx]
        }
        let n = box(0), sx = box(1), sy = box(2), sxx = box(3), sxy = box(4), syy = box(5)
        let sv = box(6), sxv = box(7), syv = box(8), svv = box(9)
        guard n >= 12 else { return nil }
        // Centred moments (about the mean point) keep the 3x3 system well conditioned.
        let mx = sx / n, my = sy / n, mv = sv / n
        let cxx = sxx / n - mx * mx, cxy = sxy / n - mx * my, cyy = syy / n - my * my
        let cxv = sxv / n - mx * mv, cyv = syv / n - my * mv, cvv = svv / n - mv * mv
        let det = cxx * cyy - cxy * cxy
        guard det > 1e-12 * max(1e-30, cxx * cyy) else { return nil }
        let a = (cxv * cyy - cyv * cxy) / det, b = (cyv * cxx - cxv * cxy) / det
        let c = mv - a * mx - b * my
        let residual = cvv - a * cxv - b * cyv
        return (a, b, c, n, max(0, residual).squareRoot())
    }
}
