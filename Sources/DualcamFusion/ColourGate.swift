import DualcamOpenCV
import DualcamGeometry
import Foundation

/// The colour test of `PlaneExtrapolation`: which measurements and which
/// planes belong to the surface a pixel shows, judged by the local mean
/// colour of the guide on the half-resolution grid (hand-written: a
/// bilateral normalized convolution of sparse plane coefficients restricted
/// to the pixels that need it; OpenCV's bilateral filters smooth a dense
/// image and would spend the whole grid on it).
///
/// Colour: the guide at half resolution (area), blurred with a Gaussian of
/// `blurSigma` half-resolution px, so a textured surface has a mean colour
/// and an object's edge still a sharp step. The similarity of two cells p, q
/// is exp(-|c_p - c_q|^2 / (2 s^2)), s = `softness` in 8-bit grey levels.
struct ColourGate {
    let half: PixelSize
    /// The blurred colour, 3 floats per half-resolution cell, row-major.
    let colour: [Float]
    /// s, grey levels.
    let softness: Float

    /// `halfGuide`: the 8-bit RGB guide area-resized to the half grid.
    init(halfGuide: CVMat, blurSigma: Double, softness: Float) throws {
        let rows = halfGuide.rows, rowBytes = 3 * halfGuide.cols
        half = PixelSize(width: halfGuide.cols, height: rows)
        self.softness = softness
        let blurred = try CVImgproc.gaussianBlur(halfGuide, sigma: blurSigma)
        var colour = [Float](repeating: 0, count: rowBytes * rows)
        blurred.withUnsafeBytes { bytes in
            for y in 0..<rows {
                for i in 0..<rowBytes { colour[y * rowBytes + i] = Float(bytes[y * blurred.step + i]) }
            }
        }
        self.colour = colour
    }

    /// |c_p - c_q|^2 of two cells, grey levels squared.
    @inline(__always) func distanceSquared(_ p: Int, _ q: Int) -> Float {
        let r = colour[3 * p] - colour[3 * q], g = colour[3 * p + 1] - colour[3 * q + 1], b = colour[3 * p + 2] - colour[3 * q + 2]
        return r * r + g * g + b * b
    }

    /// The `candidate` cells that have a `source` cell (a measurement) within
    /// `reach` cells (Euclidean) whose colour is within `tolerance` s of
    /// theirs; the rest are false. Sources are searched nearest first, so a
    /// cell amid its own surface's measurements stops at the first.
    func supported(candidate: [Bool], source: [Bool], reach: Int, tolerance: Float) -> [Bool] {
        let w = half.width, h = half.height
        var offsets: [(dx: Int, dy: Int)] = []
        for dy in -reach...reach {
            for dx in -reach...reach where dx * dx + dy * dy <= reach * reach { offsets.append((dx, dy)) }
        }
        offsets.sort { $0.dx * $0.dx + $0.dy * $0.dy < $1.dx * $1.dx + $1.dy * $1.dy }
        let limit = tolerance * softness * tolerance * softness
        var out = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w where candidate[y * w + x] {
                let q = y * w + x
                for o in offsets {
                    let sx = x + o.dx, sy = y + o.dy
                    guard sx >= 0, sy >= 0, sx < w, sy < h, source[sy * w + sx] else { continue }
                    if distanceSquared(q, sy * w + sx) <= limit {
                        out[q] = true
                        break
                    }
                }
            }
        }
        return out
    }

    /// The planes of `nodes` spread to the `want` cells: per cell, sums over
    /// the nodes within `radius` cells of w_n G(d) S(c) (a_n, b_n, c_n) and of
    /// w_n G(d) S(c), with G the Gaussian of `sigma` cells and S the colour
    /// similarity (the plane is the first over the second). Only nodes on a
    /// `stride` grid take part: neighbouring nodes' planes differ little, and
    /// the cost falls with stride^2.
    func spread(_ nodes: [PlaneExtrapolation.Node], want: [Bool], sigma: Double, radius: Int, stride: Int) -> PlaneExtrapolation.PlaneSums {
        let w = half.width, h = half.height, st = max(1, stride)
        let grid = NodeGrid(nodes, colour: colour, width: w, height: h, stride: st)
        let cells = radius / st + 1, radius2 = Float(radius * radius)
        let spatial = Float(1 / (2 * sigma * sigma)), chromatic = 1 / (2 * softness * softness)
        var sums = PlaneExtrapolation.PlaneSums(count: w * h)
        grid.slots.withUnsafeBufferPointer { slots in
            colour.withUnsafeBufferPointer { colour in
                for y in 0..<h {
                    for x in 0..<w where want[y * w + x] {
                        let q = y * w + x
                        let r = colour[3 * q], g = colour[3 * q + 1], b = colour[3 * q + 2]
                        var sw: Float = 0, sa: Float = 0, sb: Float = 0, sc: Float = 0
                        for cy in max(0, y / st - cells)...min(grid.height - 1, y / st + cells) {
                            for cx in max(0, x / st - cells)...min(grid.width - 1, x / st + cells) {
                                let n = slots[cy * grid.width + cx]
                                guard n.weight > 0 else { continue }
                                let dx = n.x - Float(x), dy = n.y - Float(y), d2 = dx * dx + dy * dy
                                guard d2 <= radius2 else { continue }
                                let dr = n.r - r, dg = n.g - g, db = n.bl - b
                                // exp underflows below -87 (and takes libm's slow path there).
                                let exponent = -d2 * spatial - (dr * dr + dg * dg + db * db) * chromatic
                                guard exponent > Self.underflow else { continue }
                                let weight = n.weight * exp(exponent)
                                sw += weight
                                sa += weight * n.a
                                sb += weight * n.b
                                sc += weight * n.c
                            }
                        }
                        sums.weight[q] = sw
                        sums.a[q] = sa
                        sums.b[q] = sb
                        sums.c[q] = sc
                    }
                }
            }
        }
        return sums
    }

    /// The nodes on the `stride` grid, one slot per grid cell (weight 0: none),
    /// with their colour: what the spread's inner loop reads.
    struct NodeGrid {
        struct Slot {
            var x: Float = 0, y: Float = 0, weight: Float = 0
            var a: Float = 0, b: Float = 0, c: Float = 0
            var r: Float = 0, g: Float = 0, bl: Float = 0
        }
        let width: Int, height: Int
        let slots: [Slot]

        init(_ nodes: [PlaneExtrapolation.Node], colour: [Float], width w: Int, height h: Int, stride st: Int) {
            width = (w + st - 1) / st
            height = (h + st - 1) / st
            var slots = [Slot](repeating: Slot(), count: width * height)
            for n in nodes where n.x % st == 0 && n.y % st == 0 {
                let i = n.index
                slots[(n.y / st) * width + n.x / st] = Slot(x: Float(n.x), y: Float(n.y), weight: n.weight, a: Float(n.a), b: Float(n.b),
                                                             c: Float(n.c), r: colour[3 * i], g: colour[3 * i + 1], bl: colour[3 * i + 2])
            }
            self.slots = slots
        }
    }

    /// Below this exponent a float exp is 0 or subnormal: the node adds nothing.
    static let underflow: Float = -87
}
