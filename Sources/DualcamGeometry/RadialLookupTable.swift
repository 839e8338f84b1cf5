/// Radial lookup-table lens distortion (AVFoundation's
/// `lensDistortionLookupTable` model), in pixel coordinates of `referenceSize`:
///
///     p' = c + (1 + m(r)) (p - c),   r = |p - c|
///
/// where c is the distortion centre and m is linearly interpolated from N
/// samples evenly spaced over r in [0, rmax], rmax being the distance from c to
/// the farthest image corner (beyond rmax the last sample holds). The forward
/// table maps an ideal (undistorted) point to its distorted position; the
/// optional inverse table maps distorted to ideal the same way and only seeds
/// the exact numerical inversion in `undistort`.
public struct RadialLookupTable: Equatable, Hashable, Sendable {
    public var center: Vector2
    public var referenceSize: PixelSize
    public var magnification: [Double]
    public var inverseMagnification: [Double]?

    public init(center: Vector2, referenceSize: PixelSize, magnification: [Double],
                inverseMagnification: [Double]? = nil) throws {
        guard magnification.count >= 2 else {
            throw GeometryError.invalidDistortion(
                "a radial lookup table needs at least 2 samples, got \(magnification.count)")
        }
        if let inv = inverseMagnification, inv.count < 2 {
            throw GeometryError.invalidDistortion("an inverse lookup table needs at least 2 samples, got \(inv.count)")
        }
        guard center.x.isFinite, center.y.isFinite,
              (magnification + (inverseMagnification ?? [])).allSatisfy({ $0.isFinite && $0 > -1 }) else {
            throw GeometryError.invalidDistortion(
                "lookup-table centre and magnifications must be finite, magnifications above -1")
        }
        guard referenceSize.width > 0, referenceSize.height > 0 else {
            throw GeometryError.invalidDistortion("lookup-table reference size must be positive")
        }
        self.center = center
        self.referenceSize = referenceSize
        self.magnification = magnification
        self.inverseMagnification = inverseMagnification
        // The forward map r -> r (1 + m(r)) must be strictly increasing over
        // [0, rmax], or undistortion has several answers. Between samples it is
        // a quadratic in r, so checking 8 points per interval is a fine test.
        let rmax = maxRadius
        let steps = (magnification.count - 1) * 8
        var previous = 0.0
        for i in 1...steps {
            let r = rmax * Double(i) / Double(steps)
            let value = r * (1 + self.magnification(atRadius: r))
            guard value > previous else {
                throw GeometryError.invalidDistortion(
                    "lookup-table distortion folds over near radius \(r) px (r (1 + m(r)) must increase with r)")
            }
            previous = value
        }
    }

    /// Distance from the centre to the farthest corner of the reference image.
    public var maxRadius: Double {
        let w = Double(referenceSize.width), h = Double(referenceSize.height)
        return [Vector2(0, 0), Vector2(w, 0), Vector2(0, h), Vector2(w, h)]
            .map { ($0 - center).norm }.max()!
    }

    static func interpolate(_ table: [Double], radius r: Double, maxRadius: Double) -> Double {
        let position = r / maxRadius * Double(table.count - 1)
        if position >= Double(table.count - 1) { return table[table.count - 1] }
        let i = Int(position)
        let f = position - Double(i)
        return table[i] * (1 - f) + table[i + 1] * f
    }

    /// m(r) of the forward table.
    public func magnification(atRadius r: Double) -> Double {
        Self.interpolate(magnification, radius: r, maxRadius: maxRadius)
    }

    /// Distorted position of an ideal point (reference pixels).
    public func distort(_ p: Vector2) -> Vector2 {
        let d = p - center
        return center + (1 + magnification(atRadius: d.norm)) * d
    }

    /// Ideal position of a distorted point (reference pixels): solves
    /// r (1 + m(r)) = r_d for r by safeguarded Newton iteration (bisection on a
    /// bracket), seeded from the inverse table when there is one. Converged when
    /// the error in r, |r (1 + m(r)) - r_d| / slope, is at most `tolerance` pixels
    /// (and the residual too) on an increasing stretch of r (1 + m(r)); throws
    /// otherwise (a table that is not monotonic in r (1 + m(r)) has no unique inverse).
    public func undistort(_ p: Vector2, tolerance: Double = 1e-9) throws -> Vector2 {
        let d = p - center
        let rd = d.norm
        if rd == 0 { return p }
        let rmax = maxRadius
        func f(_ r: Double) -> Double { r * (1 + magnification(atRadius: r)) - rd }
        var lo = 0.0, hi = rd / max(1e-6, 1 + magnification.min()!) * 2 + 1
        var r = inverseMagnification.map { rd * (1 + Self.interpolate($0, radius: rd, maxRadius: rmax)) } ?? rd
        if !(r > lo && r < hi) { r = (lo + hi) / 2 }
        for _ in 0..<200 {
            let value = f(r)
            let h = max(1e-6, r * 1e-9)
            let slope = (f(r + h) - f(r - h)) / (2 * h)
            // The error in r is |value| / slope: bound that (not just the residual, which
            // under-reports it where the slope is below 1), and only on an increasing stretch.
            if slope > 0, abs(value) <= tolerance * min(1, slope) { return center + d * (r / rd) }
            if value < 0 { lo = r } else { hi = r }
            var next = slope > 0 ? r - value / slope : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            r = next
        }
        throw GeometryError.undistortionDidNotConverge(
            "lookup-table undistortion of pixel (\(p.x), \(p.y)) did not converge (table not monotonic?)")
    }
}
