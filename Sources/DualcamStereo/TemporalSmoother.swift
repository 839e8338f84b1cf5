/// Temporal smoothing of filtered disparity over a sequence: an exponential
/// average per pixel, value_t = a value_{t-1} + (1 - a) current, applied only
/// where the previous and current values agree within `relativeTolerance`
/// (|prev - cur| <= tol |cur|); elsewhere (motion, new surfaces) the current
/// value is taken as is, so edges do not trail.
///
/// The memory is finite: the result for a frame is that average run afresh
/// over the last `memoryFrames` frames only (the oldest of them taken as is).
/// So a frame's result depends on exactly those frames and nothing before
/// them: a recording cut into chunks (`dualcam batch`) gives byte-identical
/// maps when each chunk first feeds the `memoryFrames - 1` pairs before it
/// (its warm-up, whose results are discarded). With the default a = 0.5 and
/// 4 frames the weights are 1/2, 1/4, 1/8, 1/8 where all agree (the
/// unbounded average would give the 4th frame 1/16 and older ones the rest).
public final class TemporalSmoother: @unchecked Sendable {
    public let weight: Float
    public let relativeTolerance: Float
    /// Frames a result depends on (>= 1; 1 = no smoothing).
    public let memoryFrames: Int
    /// The inputs of up to `memoryFrames - 1` previous frames, oldest first.
    private var history: [[Float]] = []

    /// Half from the past: noise drops by about sqrt(3) over the memory
    /// while a change shows in the next frame.
    public static let defaultWeight: Float = 0.5
    /// Values within this fraction of each other are one surface; a larger
    /// change is motion or a new surface, taken as is.
    public static let defaultRelativeTolerance: Float = 0.05
    /// A short memory: a chunk's warm-up stays three pairs.
    public static let defaultMemoryFrames = 4
    /// The weight is at most this, so the current frame always counts.
    static let maximumWeight: Float = 0.99

    /// `weight` a in [0, 1): the share of the previous frame.
    public init(weight: Float = defaultWeight, relativeTolerance: Float = defaultRelativeTolerance,
                memoryFrames: Int = defaultMemoryFrames) {
        self.weight = min(max(weight, 0), Self.maximumWeight)
        self.relativeTolerance = relativeTolerance
        self.memoryFrames = max(memoryFrames, 1)
    }

    /// The frames before a chunk that a chunk must feed first to give the
    /// results of an uncut run (`memoryFrames - 1`).
    public var warmUpFrames: Int { memoryFrames - 1 }

    /// Smooths `current` against the previous frames' inputs and remembers it.
    public func smooth(_ current: [Float]) -> [Float] {
        if history.contains(where: { $0.count != current.count }) { history.removeAll() }
        var out = history.first ?? current
        for frame in history.dropFirst() { out = step(out, frame) }
        if !history.isEmpty { out = step(out, current) }
        history.append(current)
        if history.count > memoryFrames - 1 { history.removeFirst(history.count - (memoryFrames - 1)) }
        return out
    }

    /// One step of the average: `previous` (the result so far) with `current`.
    private func step(_ previous: [Float], _ current: [Float]) -> [Float] {
        var out = current
        let a = weight, tol = relativeTolerance
        for i in out.indices {
            let c = current[i], p = previous[i]
            if c.isFinite, p.isFinite, abs(p - c) <= tol * abs(c) { out[i] = a * p + (1 - a) * c }
        }
        return out
    }
}
