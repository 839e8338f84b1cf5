/// The `--fit` search: when a pair fails at STREAMON with ENOSPC, lower format,
/// rate and size one step at a time until the pair runs.
///
/// One step from a mode, among the modes a device enumerates:
/// 1. the same size and rate in MJPEG (compressed, ~1/8 of YUYV) when the mode
///    was uncompressed;
/// 2. else the next lower rate at the same format and size, down to 15 fps;
/// 3. else the next smaller size at the same format, at the highest rate not
///    above the originally requested one;
/// 4. else the next lower rate below 15 fps.
/// Size is kept as long as possible because depth and convergence need pixels;
/// both cameras step together so they keep one shared size and rate.
public enum BandwidthFit {
    public static let preferredMinimumFPS = 15.0

    /// The next cheaper mode after `mode`, or nil when nothing cheaper is offered.
    public static func nextStep(after mode: CaptureMode, requestedFPS: Double, available: [CaptureMode]) -> CaptureMode? {
        let here = available.filter { $0.pixelFormat == mode.pixelFormat && $0.size == mode.size }
        if !mode.pixelFormat.isCompressed,
           let mjpeg = available.first(where: { $0.pixelFormat.isCompressed && $0.size == mode.size && $0.framesPerSecond == mode.framesPerSecond }) {
            return mjpeg
        }
        let lowerRates = here.filter { $0.framesPerSecond < mode.framesPerSecond }.sorted { $0.framesPerSecond > $1.framesPerSecond }
        if let r = lowerRates.first, r.framesPerSecond >= preferredMinimumFPS { return r }
        let smaller = available.filter { $0.pixelFormat == mode.pixelFormat && $0.size.pixels < mode.size.pixels }
        if let size = smaller.map(\.size).max(by: { $0.pixels < $1.pixels }) {
            let atSize = smaller.filter { $0.size == size }
            let rate = atSize.filter { $0.framesPerSecond <= requestedFPS }.max { $0.framesPerSecond < $1.framesPerSecond }
                ?? atSize.min { $0.framesPerSecond < $1.framesPerSecond }!
            return rate
        }
        return lowerRates.first
    }

    /// One attempt of the search and its outcome.
    public struct Attempt: Equatable, Sendable {
        public var modes: [CaptureMode]
        /// nil when the streams started; the ENOSPC message otherwise.
        public var failure: String?
    }

    /// Tries `start` (one mode per device), then cheaper steps, until `attempt`
    /// succeeds. `attempt` must throw ``V4L2Error/noBandwidth(path:mode:detail:)``
    /// to ask for the next step; any other error ends the search. Returns the
    /// modes that ran and every attempt; throws the last ENOSPC error when no
    /// step remains.
    public static func search(
        start: [CaptureMode], available: [[CaptureMode]], maxSteps: Int = 64,
        attempt: ([CaptureMode]) throws -> Void
    ) throws -> (modes: [CaptureMode], attempts: [Attempt]) {
        precondition(start.count == available.count)
        var modes = start
        var attempts: [Attempt] = []
        for _ in 0..<maxSteps {
            do {
                try attempt(modes)
                attempts.append(Attempt(modes: modes, failure: nil))
                return (modes, attempts)
            } catch let error as V4L2Error {
                guard case .noBandwidth = error else { throw error }
                attempts.append(Attempt(modes: modes, failure: error.description))
                var next: [CaptureMode] = []
                for (i, mode) in modes.enumerated() {
                    guard let step = nextStep(after: mode, requestedFPS: start[i].framesPerSecond, available: available[i]) else {
                        throw error
                    }
                    next.append(step)
                }
                modes = next
            }
        }
        throw V4L2Error.noBandwidth(path: "--fit", mode: modes.map(\.description).joined(separator: " + "),
                                    detail: "gave up after \(maxSteps) steps")
    }
}
