import Foundation

/// Box sums of the moments of masked values on a grid (integral images, in
/// Double), for least-squares planes v = a X + b Y + c over any rectangle.
struct PlaneMoments {
    /// A window's plane needs at least this many supported cells: with
    /// fewer, a plane through them follows their noise.
    static let minimumCount = 12.0
    /// A plane's centred normal matrix is singular (cells on a line) below
    /// this determinant relative to the product of its diagonal.
    static let minimumConditioning = 1e-12
    /// Floor of that product, so that a window with no spread at all fails.
    static let minimumSpread = 1e-30
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
        guard n >= Self.minimumCount else { return nil }
        // Centred moments (about the mean point) keep the 3x3 system well conditioned.
        let mx = sx / n, my = sy / n, mv = sv / n
        let cxx = sxx / n - mx * mx, cxy = sxy / n - mx * my, cyy = syy / n - my * my
        let cxv = sxv / n - mx * mv, cyv = syv / n - my * mv, cvv = svv / n - mv * mv
        let det = cxx * cyy - cxy * cxy
        guard det > Self.minimumConditioning * max(Self.minimumSpread, cxx * cyy) else { return nil }
        let a = (cxv * cyy - cyv * cxy) / det, b = (cyv * cxx - cxv * cxy) / det
        let c = mv - a * mx - b * my
        let residual = cvv - a * cxv - b * cyv
        return (a, b, c, n, max(0, residual).squareRoot())
    }
}
