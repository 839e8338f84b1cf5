import DualcamGeometry

/// A camera's lens distortion as a fast scalar map from ideal (pinhole) pixels
/// to sensor pixels, for building remap tables: `distortPixel` of
/// `LensDistortion` without enum dispatch, SIMD or `throws` in the inner loop
/// for the common cases (none, Brown-Conrady).
///
/// Domain: polynomial distortion models fold over far outside the calibrated
/// field, where a distant ideal point can land back on the sensor. Ideal
/// points farther from the principal point than 1.1 x the farthest undistorted
/// sensor border point are therefore reported as outside (nil); within that
/// radius the model is used as is. The radius is measured in normalised
/// coordinates K^-1 u (so it does not depend on the buffer size).
struct PixelDistorter: Sendable {
    private enum Kind: Sendable {
        case none
        case brownConrady(BrownConrady)
        case generic(LensDistortion)
    }

    private let kind: Kind
    private let intrinsics: Intrinsics
    // K and K^-1 entries, for the scalar path.
    private let fx, fy, skew, cx, cy: Double
    /// Largest valid squared normalised radius (infinity: no limit).
    private let maxRadius2: Double

    /// True when the map is the identity (no distortion).
    var isIdentity: Bool { if case .none = kind { return true } else { return false } }

    /// `model` at its own buffer size (`model.intrinsics.referenceSize`).
    init(_ model: CameraModel) {
        let k = model.intrinsics
        intrinsics = k
        fx = k.fx; fy = k.fy; skew = k.skew; cx = k.cx; cy = k.cy
        switch model.distortion {
        case _ where model.distortion.isNone: kind = .none
        case let .brownConrady(b): kind = .brownConrady(b)
        default: kind = .generic(model.distortion)
        }
        if case .none = kind {
            maxRadius2 = .infinity
        } else {
            maxRadius2 = Self.domainRadius2(model)
        }
    }

    /// Squared normalised radius of 1.1 x the farthest undistorted border
    /// point (32 samples per edge); infinity when none could be undistorted.
    private static func domainRadius2(_ model: CameraModel) -> Double {
        let k = model.intrinsics
        let w = Double(k.referenceSize.width - 1), h = Double(k.referenceSize.height - 1)
        var best = 0.0
        let n = 32
        for i in 0...n {
            let t = Double(i) / Double(n)
            for p in [Vector2(t * w, 0), Vector2(t * w, h), Vector2(0, t * h), Vector2(w, t * h)] {
                guard let ideal = try? model.distortion.undistortPixel(p, intrinsics: k) else { continue }
                let q = k.normalized(fromPixel: ideal)
                best = max(best, q.x * q.x + q.y * q.y)
            }
        }
        return best > 0 ? best * 1.21 : .infinity
    }

    /// Sensor pixel of the ideal pixel (u, v), or nil outside the model's domain.
    @inline(__always)
    func distort(_ u: Double, _ v: Double) -> (x: Double, y: Double)? {
        switch kind {
        case .none:
            return (u, v)
        case let .brownConrady(b):
            let y = (v - cy) / fy
            let x = (u - cx - skew * y) / fx
            let r2 = x * x + y * y
            guard r2 <= maxRadius2 else { return nil }
            let r4 = r2 * r2, r6 = r4 * r2
            let radial = (1 + b.k1 * r2 + b.k2 * r4 + b.k3 * r6) / (1 + b.k4 * r2 + b.k5 * r4 + b.k6 * r6)
            let xd = x * radial + 2 * b.p1 * x * y + b.p2 * (r2 + 2 * x * x)
            let yd = y * radial + b.p1 * (r2 + 2 * y * y) + 2 * b.p2 * x * y
            return (fx * xd + skew * yd + cx, fy * yd + cy)
        case let .generic(distortion):
            let y = (v - cy) / fy
            let x = (u - cx - skew * y) / fx
            guard x * x + y * y <= maxRadius2,
                  let p = try? distortion.distortPixel(Vector2(u, v), intrinsics: intrinsics) else { return nil }
            return (p.x, p.y)
        }
    }
}
