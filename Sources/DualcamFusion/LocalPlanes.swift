import DualcamGeometry
import Foundation

/// Planes through the samples around each pixel, where the surface there is
/// one (hand-written: a few thousand 3x3 weighted least-squares solves over
/// a bucket grid; no library fits this).
///
/// Inverse depth is linear in pixel coordinates on a plane (see
/// `SampleVerifier`), v(x, y) = c0 + cx (x - x0) + cy (y - y0). The
/// edge-aware fills are piecewise smooth, not piecewise linear: on a slanted
/// wall they bend between samples and keep the stereo's noise at the scale
/// of the wall's texture (figures in docs/fusion.md), while many samples,
/// each with centimetre noise, pin a plane to a few millimetres.
///
/// On a grid of nodes `step` pixels apart, each node fits a plane to the
/// samples within the radius r = sqrt(`expectedSamples` / (pi density)) (the
/// disc holds that many samples on average; clamped to `radiusRange`) whose
/// inverse depth lies within `selectTolerance` (relative) of the reference
/// map at the node (the same surface), with weights max(confidence,
/// `FusionConstants.sampleConfidenceFloor`) x (1 - d^2 / r^2)^2, then once
/// more with Cauchy weights at `cauchyNoiseSigmas` sample noise sigmas
/// (sigma_v = noise v^2 in inverse depth). A node's plane is kept when
/// at least `minimumSamples` samples span it (the normal matrix is well
/// conditioned) and their weighted RMS residual, in metres (dv / v^2), is at
/// most `maximumResidualSigmas` sample noise sigmas: planes bent over a
/// crease or a strongly curved surface fail this.
/// Each pixel takes the bilinear-weighted mean of its four surrounding nodes'
/// planes evaluated at the pixel, counting only planes within
/// `acceptTolerance` (relative) of the reference there (a node across a depth
/// edge fits the other surface); NaN where none qualifies.
public struct LocalPlanes: Equatable, Sendable {
    /// Samples in the fitting disc on average (sets its radius from the sample density).
    public var expectedSamples = 36.0
    /// The disc radius's bounds, pixels: room for the samples' spacing on
    /// dense grids, and local planes however sparse the samples. Output
    /// pixels: on a finer fusion grid `FusionPipeline` scales them by the
    /// grid's ratio (`scaled(by:)`).
    public var radiusRange = 6.0...40.0
    /// Node spacing, pixels: the planes vary slowly between nodes, and the
    /// fits per node are most of the stage's time.
    public var step = 8
    /// Samples within this fraction of the reference's 1/z at the node are
    /// its surface: loose, since the fill there may itself be off.
    public var selectTolerance = 0.09
    /// A node's plane applies to a pixel only within this fraction of the
    /// reference there (a node across a depth edge fits the other surface).
    public var acceptTolerance = 0.03
    /// A plane needs at least this many samples: three to span it, the
    /// rest to show whether it fits.
    public var minimumSamples = 5
    /// A plane is kept when the weighted RMS residual is at most this many
    /// sample noise sigmas.
    public var maximumResidualSigmas = 2.5

    public init() {}

    /// The planes for a grid `ratio` times finer per axis: the disc's radius
    /// bounds in that grid's pixels, so a plane spans the same part of the
    /// scene (the rest is unchanged: the node step is a cost, not a reach).
    public func scaled(by ratio: Double) -> LocalPlanes {
        var planes = self
        planes.radiusRange = (radiusRange.lowerBound * ratio)...(radiusRange.upperBound * ratio)
        return planes
    }

    /// A fitted node: v = c0 + cx dx + cy dy around the node.
    private struct Plane {
        var c0: Double, cx: Double, cy: Double

        func value(dx: Double, dy: Double) -> Double { c0 + cx * dx + cy * dy }
    }

    /// `reference`: inverse depth per pixel (NaN = unknown) choosing each
    /// node's surface; `sampleNoiseMetres`: the samples' depth noise (sigma);
    /// samples with `include(i)` false are ignored. Returns inverse depth per
    /// pixel, NaN where no plane applies.
    public func fit(reference: [Float], size: PixelSize, samples: [MetricSample], sampleNoiseMetres: Double,
                    include: (Int) -> Bool = { _ in true }) -> [Float] {
        let w = size.width, h = size.height
        let used = samples.indices.lazy.filter(include).count
        let density = Double(max(1, used)) / Double(w * h)
        let radius = min(radiusRange.upperBound, max(radiusRange.lowerBound, (expectedSamples / (Double.pi * density)).squareRoot()))
        let planes = nodePlanes(reference: reference, size: size, samples: samples, radius: radius,
                                sampleNoiseMetres: sampleNoiseMetres, include: include)
        return pixelValues(planes, reference: reference, size: size)
    }

    /// The nodes' spacing in pixels (`step`, at least 1).
    private var nodeStep: Int { max(1, step) }

    /// The node grid's columns and rows for `size`.
    private func nodeGrid(_ size: PixelSize) -> (columns: Int, rows: Int) {
        let step = nodeStep
        return ((size.width - 1) / step + 2, (size.height - 1) / step + 2)
    }

    /// Each node's plane (nil where none is kept). Nodes are independent:
    /// two halves of the node rows on two threads, each node writing only its
    /// own slot. The samples are read through unsafe buffers and each half
    /// keeps its picked samples in buffers of its own: per sample, array
    /// accesses and appends cost bounds checks, reference counting and
    /// uniqueness checks, most of the stage's time.
    private func nodePlanes(reference: [Float], size: PixelSize, samples: [MetricSample], radius: Double,
                            sampleNoiseMetres: Double, include: (Int) -> Bool) -> [Plane?] {
        let w = size.width, h = size.height, step = nodeStep
        let cell = max(1, Int(radius.rounded(.up)))
        let columns = w / cell + 1, rows = h / cell + 1
        let buckets = SampleGrid(samples, cell: cell, columns: columns, rows: rows, include: include)
        let (nodeColumns, nodeRows) = nodeGrid(size)
        // Per sample: x, y, 1/z and weight, side by side.
        let table = samples.map { (x: $0.x, y: $0.y, v: 1 / $0.depthMetres, w: max(FusionConstants.sampleConfidenceFloor, $0.confidence)) }
        let r2 = radius * radius, inverseR2 = 1 / r2
        let residualLimit = maximumResidualSigmas * sampleNoiseMetres
        var planes = [Plane?](repeating: nil, count: nodeColumns * nodeRows)
        planes.withUnsafeMutableBufferPointer { planes in
        table.withUnsafeBufferPointer { table in
        reference.withUnsafeBufferPointer { reference in
        buckets.withBuffers { start, order in
        Concurrently.inHalves(nodeRows) { rowRange in
        // The picked samples' (dx, dy, 1/z) and weights: room for all.
        let picked = UnsafeMutableBufferPointer<(Double, Double, Double)>.allocate(capacity: max(1, order.count))
        let weight = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(1, order.count))
        defer {
            picked.deallocate()
            weight.deallocate()
        }
        for ny in rowRange {
            for nx in 0..<nodeColumns {
                let x0 = Double(nx * step), y0 = Double(ny * step)
                let r0 = Double(reference[min(h - 1, ny * step) * w + min(w - 1, nx * step)])
                guard r0.isFinite, r0 > 0 else { continue }
                var count = 0
                let bx = min(columns - 1, Int(x0) / cell), by = min(rows - 1, Int(y0) / cell)
                for gy in max(0, by - 1)...min(rows - 1, by + 1) {
                    for gx in max(0, bx - 1)...min(columns - 1, bx + 1) {
                        let b = gy * columns + gx
                        for m in start[b]..<start[b + 1] {
                            let s = table[order[m]]
                            let dx = s.x - x0, dy = s.y - y0, d2 = dx * dx + dy * dy
                            guard d2 <= r2, abs(s.v - r0) <= selectTolerance * r0 else { continue }
                            let u = 1 - d2 * inverseR2
                            picked[count] = (dx, dy, s.v)
                            weight[count] = s.w * u * u
                            count += 1
                        }
                    }
                }
                let points = UnsafeBufferPointer(rebasing: picked[0..<count])
                let weights = UnsafeMutableBufferPointer(rebasing: weight[0..<count])
                if let plane = Self.reweightedPlane(points, weights, minimumSamples: minimumSamples,
                                                    sampleNoiseMetres: sampleNoiseMetres, residualLimit: residualLimit) {
                    planes[ny * nodeColumns + nx] = plane
                }
            }
        }
        }
        }
        }
        }
        }
        return planes
    }

    /// A node's plane through `points` (dx, dy, 1/z) with `weights`: the
    /// weighted fit, once more with Cauchy weights at 3 noise sigmas
    /// (sigma_v = noise v^2; `weights` are reweighted in place), kept when it
    /// has at least `minimumSamples` points, c0 > 0 and a weighted RMS
    /// residual (dv / v^2) of at most `residualLimit` metres.
    private static func reweightedPlane(_ points: UnsafeBufferPointer<(Double, Double, Double)>,
                                        _ weights: UnsafeMutableBufferPointer<Double>, minimumSamples: Int,
                                        sampleNoiseMetres: Double, residualLimit: Double) -> Plane? {
        guard points.count >= minimumSamples, let first = solve(points, UnsafeBufferPointer(weights)) else { return nil }
        let scale = 1 / (cauchyNoiseSigmas * sampleNoiseMetres * first.c0 * first.c0)
        for k in 0..<points.count {
            let (dx, dy, v) = points[k]
            let u = (v - first.value(dx: dx, dy: dy)) * scale
            weights[k] /= 1 + u * u
        }
        guard let plane = solve(points, UnsafeBufferPointer(weights)), plane.c0 > 0 else { return nil }
        var sum = 0.0, total = 0.0
        for k in 0..<points.count {
            let (dx, dy, v) = points[k]
            let r = v - plane.value(dx: dx, dy: dy)
            sum += weights[k] * r * r
            total += weights[k]
        }
        guard total > 0, (sum / total).squareRoot() / (plane.c0 * plane.c0) <= residualLimit else { return nil }
        return plane
    }

    /// Per pixel: the agreeing planes of the four surrounding nodes,
    /// bilinearly weighted; tile by tile (the pixels between four nodes),
    /// tile rows on two threads.
    private func pixelValues(_ planes: [Plane?], reference: [Float], size: PixelSize) -> [Float] {
        let w = size.width, h = size.height, step = nodeStep
        let (nodeColumns, nodeRows) = nodeGrid(size)
        var out = [Float](repeating: .nan, count: w * h)
        let inverseStep = 1 / Double(step), accept = acceptTolerance
        out.withUnsafeMutableBufferPointer { out in
        planes.withUnsafeBufferPointer { planes in
        reference.withUnsafeBufferPointer { reference in
        Concurrently.inHalves(nodeRows - 1) { tileRows in
        for ty in tileRows {
            for tx in 0..<(nodeColumns - 1) {
                // Corner k: node (tx + (k & 1), ty + (k >> 1)).
                let corners = (planes[ty * nodeColumns + tx], planes[ty * nodeColumns + tx + 1],
                               planes[(ty + 1) * nodeColumns + tx], planes[(ty + 1) * nodeColumns + tx + 1])
                guard corners.0 != nil || corners.1 != nil || corners.2 != nil || corners.3 != nil else { continue }
                for y in (ty * step)..<min(h, (ty + 1) * step) {
                    let fy = Double(y - ty * step) * inverseStep
                    for x in (tx * step)..<min(w, (tx + 1) * step) {
                        let r0 = Double(reference[y * w + x])
                        guard r0.isFinite, r0 > 0 else { continue }
                        let fx = Double(x - tx * step) * inverseStep
                        var sum = 0.0, total = 0.0
                        func add(_ plane: Plane?, _ corner: Int) {
                            guard let plane else { return }
                            let v = plane.value(dx: Double(x - (tx + (corner & 1)) * step), dy: Double(y - (ty + (corner >> 1)) * step))
                            guard abs(v - r0) <= accept * r0 else { return }
                            let b = (corner & 1 == 0 ? 1 - fx : fx) * (corner >> 1 == 0 ? 1 - fy : fy) + Self.cornerWeightFloor
                            sum += b * v
                            total += b
                        }
                        add(corners.0, 0)
                        add(corners.1, 1)
                        add(corners.2, 2)
                        add(corners.3, 3)
                        if total > 0 { out[y * w + x] = Float(sum / total) }
                    }
                }
            }
        }
        }
        }
        }
        }
        return out
    }

    /// The Cauchy reweighting's scale, in sample noise sigmas: residuals
    /// beyond it count as another surface, not noise.
    static let cauchyNoiseSigmas = 3.0
    /// Every corner plane that agrees with the reference keeps at least this
    /// bilinear weight, so a pixel at a corner still averages over the
    /// planes that apply rather than taking one.
    static let cornerWeightFloor = 1e-3
    /// A plane fit whose determinant, relative to the product of the normal
    /// matrix's diagonal, is below this has collinear samples.
    static let minimumConditioning = 1e-6

    /// Weighted least squares of v = c0 + cx dx + cy dy (3x3 normal
    /// equations by Cramer's rule); nil when the samples do not span a plane
    /// (normalized determinant below `minimumConditioning`: collinear or too few).
    private static func solve(_ points: UnsafeBufferPointer<(Double, Double, Double)>, _ weight: UnsafeBufferPointer<Double>) -> Plane? {
        var a00 = 0.0, a01 = 0.0, a02 = 0.0, a11 = 0.0, a12 = 0.0, a22 = 0.0, b0 = 0.0, b1 = 0.0, b2 = 0.0
        for k in 0..<points.count {
            let (dx, dy, v) = points[k], c = weight[k]
            a00 += c; a01 += c * dx; a02 += c * dy
            a11 += c * dx * dx; a12 += c * dx * dy; a22 += c * dy * dy
            b0 += c * v; b1 += c * dx * v; b2 += c * dy * v
        }
        let det = a00 * (a11 * a22 - a12 * a12) - a01 * (a01 * a22 - a12 * a02) + a02 * (a01 * a12 - a11 * a02)
        // Scale-free conditioning: det relative to the product of the diagonal.
        guard a00 > 0, det > Self.minimumConditioning * a00 * a11 * a22 else { return nil }
        let c0 = (b0 * (a11 * a22 - a12 * a12) - a01 * (b1 * a22 - a12 * b2) + a02 * (b1 * a12 - a11 * b2)) / det
        let cx = (a00 * (b1 * a22 - a12 * b2) - b0 * (a01 * a22 - a12 * a02) + a02 * (a01 * b2 - b1 * a02)) / det
        let cy = (a00 * (a11 * b2 - b1 * a12) - a01 * (a01 * b2 - b1 * a02) + b0 * (a01 * a12 - a11 * a02)) / det
        return Plane(c0: c0, cx: cx, cy: cy)
    }
}
