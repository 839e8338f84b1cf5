import DualcamGeometry

/// Distances for a convergence sweep (`--sweep NEAR:FAR --steps N`): the
/// plane moves from near to far uniformly in inverse distance, so that every
/// step shifts the parallax by the same number of pixels:
///
///     q_i = 1/near + i (1/far - 1/near) / (N - 1),  d_i = 1 / q_i,  i = 0..<N
///
/// (1/far = 0 when far is infinite, whose last step is the plane at infinity).
public enum ConvergenceSweep {
    public static func distances(near: Distance, far: Distance, steps: Int) throws -> [Distance] {
        guard near < far else {
            throw ConvergenceError.invalidOption("sweep: near (\(near)) must be closer than far (\(far))")
        }
        guard steps >= 2 else {
            throw ConvergenceError.invalidOption("sweep: steps must be at least 2, got \(steps)")
        }
        guard !near.isInfinite else {
            throw ConvergenceError.invalidOption("sweep: near must be finite")
        }
        let qNear = 1 / near.metres, qFar = far.isInfinite ? 0 : 1 / far.metres
        return try (0..<steps).map { i in
            if i == 0 { return near }
            if i == steps - 1 { return far }
            return try Distance(metres: 1 / (qNear + Double(i) * (qFar - qNear) / Double(steps - 1)))
        }
    }
}
