/// Summary statistics over all channel values of an image: finite values
/// give min / max / mean; NaN and infinities are counted separately (depth
/// maps use NaN or inf for "unknown").
public struct ImageStatistics: Equatable, Codable, Sendable {
    public var finiteCount = 0
    public var nanCount = 0
    public var infiniteCount = 0
    public var minimum: Double?
    public var maximum: Double?
    public var mean: Double?

    public init(_ image: Image) {
        let values = image.doubleValues()
        var sum = 0.0
        var lo = Double.infinity, hi = -Double.infinity
        for v in values {
            if v.isNaN { nanCount += 1; continue }
            if v.isInfinite { infiniteCount += 1; continue }
            finiteCount += 1
            sum += v
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        if finiteCount > 0 {
            minimum = lo
            maximum = hi
            mean = sum / Double(finiteCount)
        }
    }
}
