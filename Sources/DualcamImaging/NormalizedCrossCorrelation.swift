/// Zero-mean normalised cross-correlation of two equally long float buffers
/// over the positions where both values are finite (NaN marks "no data"):
///
///     ncc = sum (a - mean a)(b - mean b) / sqrt(sum (a - mean a)^2 sum (b - mean b)^2)
///
/// in [-1, 1]; 1 for images equal up to gain and offset. Returns the score and
/// the number of positions used; the score is 0 when either side has no
/// variance. Sums are accumulated in Double in one pass.
public func normalizedCrossCorrelation(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) -> (score: Double, count: Int) {
    precondition(a.count == b.count, "NCC needs buffers of one length")
    var n = 0
    var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
    for i in 0..<a.count {
        let x = a[i], y = b[i]
        guard x.isFinite, y.isFinite else { continue }
        let dx = Double(x), dy = Double(y)
        n += 1
        sa += dx; sb += dy
        saa += dx * dx; sbb += dy * dy; sab += dx * dy
    }
    guard n > 1 else { return (0, n) }
    let count = Double(n)
    let va = saa - sa * sa / count, vb = sbb - sb * sb / count
    let cov = sab - sa * sb / count
    guard va > 1e-9 * count, vb > 1e-9 * count else { return (0, n) }
    return (max(-1, min(1, cov / (va * vb).squareRoot())), n)
}
