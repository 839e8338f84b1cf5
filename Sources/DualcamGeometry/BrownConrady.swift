/// Brown-Conrady lens distortion in OpenCV's form, acting on normalised image
/// coordinates (x, y) = (X/Z, Y/Z), with r^2 = x^2 + y^2:
///
///     radial = (1 + k1 r^2 + k2 r^4 + k3 r^6) / (1 + k4 r^2 + k5 r^4 + k6 r^6)
///     x_d = x radial + 2 p1 x y + p2 (r^2 + 2 x^2)
///     y_d = y radial + p1 (r^2 + 2 y^2) + 2 p2 x y
///
/// Coefficient order is OpenCV's: (k1, k2, p1, p2[, k3[, k4, k5, k6]]).
/// The model is independent of image scale, so it needs no rescaling when the
/// intrinsics are scaled to a buffer size.
public struct BrownConrady: Equatable, Hashable, Sendable {
    public var k1, k2, p1, p2, k3, k4, k5, k6: Double

    public init(k1: Double = 0, k2: Double = 0, p1: Double = 0, p2: Double = 0, k3: Double = 0,
                k4: Double = 0, k5: Double = 0, k6: Double = 0) throws {
        let all = [k1, k2, p1, p2, k3, k4, k5, k6]
        guard all.allSatisfy(\.isFinite) else {
            throw GeometryError.invalidDistortion("distortion coefficients must be finite, got \(all)")
        }
        self.k1 = k1; self.k2 = k2; self.p1 = p1; self.p2 = p2
        self.k3 = k3; self.k4 = k4; self.k5 = k5; self.k6 = k6
    }

    /// From OpenCV's coefficient vector: 4, 5 or 8 values (k1 k2 p1 p2 [k3 [k4 k5 k6]]).
    /// Longer OpenCV vectors (thin prism / tilt terms) are accepted only if those terms are zero.
    public init(coefficients c: [Double]) throws {
        guard [4, 5, 8, 12, 14].contains(c.count) else {
            throw GeometryError.invalidDistortion(
                "expected 4, 5 or 8 distortion coefficients (k1 k2 p1 p2 [k3 [k4 k5 k6]]), got \(c.count)")
        }
        if c.count > 8, c[8...].contains(where: { $0 != 0 }) {
            throw GeometryError.invalidDistortion(
                "thin-prism/tilt distortion terms (s1..s4, tx, ty) are not supported; they must be zero")
        }
        let v = c + Array(repeating: 0, count: max(0, 8 - c.count))
        try self.init(k1: v[0], k2: v[1], p1: v[2], p2: v[3], k3: v[4], k4: v[5], k5: v[6], k6: v[7])
    }

    /// True when k4..k6 (the rational denominator) are in use.
    public var isRational: Bool { k4 != 0 || k5 != 0 || k6 != 0 }

    /// True when every coefficient is zero.
    public var isIdentity: Bool { [k1, k2, p1, p2, k3, k4, k5, k6].allSatisfy { $0 == 0 } }

    /// OpenCV's vector: 5 values, or 8 when the rational terms are used.
    public var coefficients: [Double] {
        isRational ? [k1, k2, p1, p2, k3, k4, k5, k6] : [k1, k2, p1, p2, k3]
    }

    /// Applies the distortion to a normalised point (formula in the type's doc).
    public func distort(_ p: Vector2) -> Vector2 {
        let x = p.x, y = p.y
        let r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2
        let radial = (1 + k1 * r2 + k2 * r4 + k3 * r6) / (1 + k4 * r2 + k5 * r4 + k6 * r6)
        return Vector2(x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
                       y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y)
    }

    /// Inverts `distort` by Newton's method (numerical 2x2 Jacobian), starting
    /// from the distorted point. Converged when |distort(p) - target| <= `tolerance`
    /// (normalised units; 1e-14 is ~3e-11 px at f = 3000 px). Throws when it does
    /// not converge in 50 steps, which happens far outside the calibrated field
    /// where the polynomial folds over, and when the only solution found lies on
    /// a folded-over sheet (the Jacobian there is not orientation-preserving:
    /// det <= 0 or trace <= 0), which is not the physical point.
    public func undistort(_ target: Vector2, tolerance: Double = 1e-14) throws -> Vector2 {
        if isIdentity { return target }
        func jacobian(_ p: Vector2) -> (jx: Vector2, jy: Vector2, det: Double) {
            let h = 1e-7 * max(1, p.norm)
            let jx = (distort(p + Vector2(h, 0)) - distort(p - Vector2(h, 0))) / (2 * h)
            let jy = (distort(p + Vector2(0, h)) - distort(p - Vector2(0, h))) / (2 * h)
            return (jx, jy, jx.x * jy.y - jy.x * jx.y)
        }
        var p = target
        for _ in 0..<50 {
            let residual = distort(p) - target
            let (jx, jy, det) = jacobian(p)
            if residual.norm <= tolerance {
                if det > 0, jx.x + jy.y > 0 { return p }
                break
            }
            guard det.isFinite, abs(det) > 1e-14 else { break }
            // Solve J delta = residual with J = [jx jy] (columns).
            let delta = Vector2((jy.y * residual.x - jy.x * residual.y) / det,
                                (-jx.y * residual.x + jx.x * residual.y) / det)
            p -= delta
            guard p.x.isFinite, p.y.isFinite else { break }
        }
        if (distort(p) - target).norm <= tolerance {
            let (jx, jy, det) = jacobian(p)
            if det > 0, jx.x + jy.y > 0 { return p }
        }
        throw GeometryError.undistortionDidNotConverge(
            "undistortion of normalised point (\(target.x), \(target.y)) did not converge (outside the lens model's valid range?)")
    }
}
