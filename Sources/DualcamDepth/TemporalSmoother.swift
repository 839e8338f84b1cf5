/// Temporal smoothing of filtered disparity over a sequence: an exponential
/// average per pixel, value_t = a value_{t-1} + (1 - a) current, applied only
/// where the previous and current values agree within `relativeTolerance`
/// (|prev - cur| <= tol |cur|); elsewhere (motion, new surfaces) the current
/// value is taken as is, so edges do not trail.
public final class TemporalSmoother: @unchecked Sendable {
    public let weight: Float
    public let relativeTolerance: Float
    private var previous: [Float]?

    /// `weight` a in [0, 1): the share of the previous frame.
    public init(weight: Float = 0.5, relativeTolerance: Float = 0.05) {
        self.weight = min(max(weight, 0), 0.99)
        self.relativeTolerance = relativeTolerance
    }

    /// Smooths `current` against the previous frame's result and remembers the result.
    public func smooth(_ current: [Float]) -> [Float] {
        guard let prev = previous, prev.count == current.count else {
            previous = current
            return current
        }
        var out = current
        let a = weight, tol = relativeTolerance
        for i in out.indices {
            let c = current[i], p = prev[i]
            if c.isFinite, p.isFinite, abs(p - c) <= tol * abs(c) { out[i] = a * p + (1 - a) * c }
        }
        previous = out
        return out
    }
}
