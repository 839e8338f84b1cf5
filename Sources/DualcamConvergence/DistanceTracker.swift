import DualcamGeometry

/// Tap-to-converge over a sequence: follows the tapped subject's distance
/// from frame to frame, so that a single false peak (a pattern's repeat, a
/// frame without texture) cannot make the convergence plane jump.
///
/// The state is the inverse distance q (1/m; parallax is linear in it) and
/// its velocity v per frame, an alpha-beta filter:
///
///     predicted p = q + v
///     gate      g = max(gateFraction * p, gatePixels / rate)      (rate: parallax px per 1/m)
///     measured  c = the candidate nearest p (all candidates of an ambiguous frame count)
///     if |c - p| <= g:  q = p + alpha (c - p),  v = v + beta (c - p)        (followed)
///     else:             q = p,  v = 0.9 v                                    (coasted)
///
/// A coasting filter keeps most of its velocity, so a subject that keeps
/// moving through a few bad frames is still followed; a frame without a
/// usable measurement (low texture) coasts too. When
/// `reacquireAfter` frames in a row were rejected and their measurements
/// agree with each other (each within the gate of the one before), the
/// subject has changed: the filter restarts there (q = c, v = 0). The
/// distance handed out moves at most `maxStepFraction` of q per frame (of
/// the larger of the old and new q), so even a restart glides instead of jumping.
///
/// The first frame starts the filter at its best candidate (a frame with
/// only low texture starts nothing and hands out its own best).
public struct DistanceTracker: Sendable {
    public struct Options: Equatable, Sendable {
        /// Gain of the position correction (default 0.7).
        public var alpha: Double
        /// Gain of the velocity correction (default 0.35; with alpha 0.7 a
        /// subject moving at constant speed is followed without lag after
        /// three frames).
        public var beta: Double
        /// Gate as a fraction of the predicted inverse distance (default 0.1).
        public var gateFraction: Double
        /// Smallest gate, pixels of parallax (default 1).
        public var gatePixels: Double
        /// Consecutive rejected, mutually consistent measurements that restart the filter (default 5).
        public var reacquireAfter: Int
        /// Largest change of the handed-out inverse distance per frame,
        /// relative (default 0.15).
        public var maxStepFraction: Double

        public init(alpha: Double = 0.7, beta: Double = 0.35, gateFraction: Double = 0.1, gatePixels: Double = 1,
                    reacquireAfter: Int = 5, maxStepFraction: Double = 0.15) {
            self.alpha = alpha
            self.beta = beta
            self.gateFraction = gateFraction
            self.gatePixels = gatePixels
            self.reacquireAfter = reacquireAfter
            self.maxStepFraction = maxStepFraction
        }
    }

    /// One frame's measurement.
    public struct Measurement: Equatable, Sendable {
        /// Candidate inverse distances (1/m), best first.
        public var candidates: [Double]
        /// Parallax per unit inverse distance at the tap, pixels per 1/m.
        public var rate: Double
        /// False for a frame whose window had no texture.
        public var usable: Bool

        public init(candidates: [Double], rate: Double, usable: Bool = true) {
            self.candidates = candidates
            self.rate = rate
            self.usable = usable
        }

        /// From an automatic distance (its candidates; usable unless low texture).
        public init(_ result: AutoConvergenceResult) {
            self.init(candidates: result.candidates.map(\.inverseDistance), rate: result.parallaxRate, usable: !result.lowTexture)
        }
    }

    public enum Decision: String, Equatable, Sendable {
        /// The first measurement started the filter.
        case started
        /// A candidate within the gate was taken.
        case followed
        /// No usable candidate within the gate: the prediction was kept.
        case coasted
        /// Consistent rejected measurements restarted the filter.
        case restarted
        /// Nothing to follow yet: the frame's own best is handed out.
        case waiting
    }

    public struct Step: Equatable, Sendable {
        /// The distance to converge this frame at.
        public var distance: Distance
        /// 1 / distance.
        public var inverseDistance: Double
        public var decision: Decision
    }

    public let options: Options
    private var q: Double?
    private var v = 0.0
    private var output: Double?
    private var rejected: [Double] = []

    public init(options: Options = Options()) {
        self.options = options
    }

    public mutating func update(_ m: Measurement) -> Step {
        let o = options
        let decision: Decision
        if let state = q {
            let p = max(0, state + v)
            let gate = max(o.gateFraction * p, o.gatePixels / max(m.rate, 1e-9))
            let nearest = m.usable ? m.candidates.min { abs($0 - p) < abs($1 - p) } : nil
            if let c = nearest, abs(c - p) <= gate {
                q = max(0, p + o.alpha * (c - p))
                v += o.beta * (c - p)
                rejected = []
                decision = .followed
            } else {
                q = p
                v *= 0.9
                if m.usable, let best = m.candidates.first {
                    if let last = rejected.last, abs(best - last) > max(o.gateFraction * last, o.gatePixels / max(m.rate, 1e-9)) {
                        rejected = []
                    }
                    rejected.append(best)
                }
                if rejected.count >= o.reacquireAfter, let last = rejected.last {
                    q = last
                    v = 0
                    rejected = []
                    decision = .restarted
                } else {
                    decision = .coasted
                }
            }
        } else if m.usable, let best = m.candidates.first {
            q = best
            v = 0
            decision = .started
        } else {
            let best = m.candidates.first ?? output ?? 0
            output = best
            return Step(distance: Self.distance(best), inverseDistance: best, decision: .waiting)
        }
        let target = q!
        let next: Double
        if let previous = output {
            let step = o.maxStepFraction * max(previous, target)
            next = min(previous + step, max(previous - step, target))
        } else {
            next = target
        }
        output = next
        return Step(distance: Self.distance(next), inverseDistance: next, decision: decision)
    }

    static func distance(_ q: Double) -> Distance {
        q > 0 ? ((try? Distance(metres: 1 / q)) ?? .infinity) : .infinity
    }
}
