import DualcamImaging

/// Which pixels of a scored window register at one distance: the tapped
/// subject's support when the window also shows things at other depths.
///
/// A window larger than the subject (or on its edge) mixes two surfaces; its
/// NCC peak then lies between their distances, pulled towards the other
/// surface by a few percent. Restricting the refinement to the pixels that
/// agree at the chosen distance removes that pull.
///
/// With z-scores over the window's valid pixels, z_f = (f - mean f) / sd f
/// and z_m likewise for the moving image warped at the distance, a pixel
/// agrees when the local mean of (z_f - z_m)^2 (Gaussian weights,
/// `sigmaPixels`, over valid pixels) is at most `threshold`. Registered
/// content gives about 2 (1 - rho) (near 0 for rho near 1); unrelated content
/// about 2, so 0.5 keeps pixels whose local correlation is above ~0.75.
///
/// A surface close in depth (a background a couple of pixels of parallax
/// behind a small subject) still agrees at that threshold; so a pixel is
/// kept only if it also agrees at least as well at the distance as at the
/// `neighbours` (the moving image warped a pixel or two of parallax nearer
/// and farther), up to `margin` (flat areas agree equally everywhere and
/// must not be decided by noise): a per-pixel plane sweep of three steps,
/// which sends each pixel to the surface it belongs to.
enum SupportMask {
    static func agreeing(fixed: [Float], moving: [Float], neighbours: [[Float]] = [], width: Int, height: Int,
                         sigmaPixels: Double = 2, threshold: Double = 0.5, margin: Double = 0.1) throws -> [Bool] {
        let own = try localDisagreement(fixed: fixed, moving: moving, width: width, height: height, sigmaPixels: sigmaPixels)
        let others = try neighbours.map {
            try localDisagreement(fixed: fixed, moving: $0, width: width, height: height, sigmaPixels: sigmaPixels)
        }
        return own.indices.map { i in
            guard let d = own[i], d <= threshold else { return false }
            return others.allSatisfy { ($0[i] ?? .infinity) >= d - margin }
        }
    }

    /// Per pixel the local mean of (z_f - z_m)^2 (nil where the pixel has no
    /// data or too few valid neighbours).
    static func localDisagreement(fixed: [Float], moving: [Float], width: Int, height: Int,
                                  sigmaPixels: Double) throws -> [Double?] {
        precondition(fixed.count == width * height && moving.count == fixed.count, "one value per pixel")
        var n = 0.0, sf = 0.0, sm = 0.0, sff = 0.0, smm = 0.0
        for i in fixed.indices where fixed[i].isFinite && moving[i].isFinite {
            let f = Double(fixed[i]), m = Double(moving[i])
            n += 1; sf += f; sm += m; sff += f * f; smm += m * m
        }
        guard n > 1 else { return [Double?](repeating: nil, count: fixed.count) }
        let mf = sf / n, mm = sm / n
        let df = max(1e-12, (sff / n - mf * mf).squareRoot()), dm = max(1e-12, (smm / n - mm * mm).squareRoot())
        var squared = [Float](repeating: 0, count: fixed.count), weight = squared
        for i in fixed.indices where fixed[i].isFinite && moving[i].isFinite {
            let d = (Double(fixed[i]) - mf) / df - (Double(moving[i]) - mm) / dm
            squared[i] = Float(d * d)
            weight[i] = 1
        }
        let blurredSquared = try ImageOps.gaussianBlur(try Image(width: width, height: height, channels: 1, pixels: squared),
                                                       sigma: sigmaPixels).pixels(as: Float.self)
        let blurredWeight = try ImageOps.gaussianBlur(try Image(width: width, height: height, channels: 1, pixels: weight),
                                                      sigma: sigmaPixels).pixels(as: Float.self)
        return (0..<fixed.count).map { i in
            weight[i] > 0 && blurredWeight[i] > 0.25 ? Double(blurredSquared[i] / blurredWeight[i]) : nil
        }
    }
}
