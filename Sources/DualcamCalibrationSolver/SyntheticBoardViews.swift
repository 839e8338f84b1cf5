import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import DualcamSynthetic
import Foundation

/// Board observations of a rig with known truth, without rendering: the
/// target's corners are projected through the rig's camera models
/// (distortion included; `BoardGroundTruth.corners`) for random board poses
/// that fit both cameras (`BoardPoses.sample`), and each pixel coordinate
/// gets independent Gaussian noise of `cornerNoisePixels` (a stand-in for
/// detection noise: detected corners on rendered views match the truth within
/// 0.08-0.11 px RMS for chessboards). Deterministic for a seed.
public struct SyntheticBoardViews: Sendable {
    public var target = BoardTarget(kind: .chessboard(columns: 9, rows: 6), squareSize: 0.025)
    public var views = 20
    /// Extra views, made from the same rig but kept apart (for `verify`).
    public var heldBackViews = 0
    public var cornerNoisePixels = 0.2
    public var seed: UInt64 = 1
    /// Image size of both cameras (the rig's intrinsics are scaled to it).
    public var size = PixelSize(width: 4032, height: 3024)
    /// Largest board tilt about x and y (see `BoardPoses.sample`).
    public var maxTiltDegrees = 30.0

    public init() {}

    public struct Output: Sendable {
        /// The rig at `size`: the ground truth.
        public var truth: CalibrationFile
        public var observations: CalibrationObservations
        public var heldBack: CalibrationObservations
    }

    /// Makes the views of `rig` (default: the nominal phone wide/tele rig).
    public func make(rig calibration: CalibrationFile? = nil) throws -> Output {
        guard views >= 1, heldBackViews >= 0, cornerNoisePixels >= 0, cornerNoisePixels.isFinite else {
            throw DualcamError.invalidValue(name: "synthetic views", reason: "expected at least 1 view and a finite noise >= 0")
        }
        var truth = try calibration ?? NominalDevice.load()
        truth.rig = try Synthesizer.scaledRig(truth.rig, to: size)
        let rig = truth.rig
        let poses = try BoardPoses.sample(count: views + heldBackViews, target: target, rig: rig,
                                             maxTiltDegrees: maxTiltDegrees, seed: seed)
        var rng = Gaussian(seed: seed)
        var pairs: [PairObservation] = []
        for (index, pose) in poses.enumerated() {
            func observe(_ camera: FrameName) throws -> BoardObservation {
                let pixels = try BoardGroundTruth.corners(of: target, worldFromBoard: pose, camera: camera, rig: rig)
                return BoardObservation(cornerIndices: Array(pixels.indices),
                                        pixels: pixels.map { $0 + Vector2(rng.next(), rng.next()) * cornerNoisePixels })
            }
            pairs.append(PairObservation(name: String(format: "%03d", index), wide: try observe(.wide), tele: try observe(.tele)))
        }
        let teleSize = try rig.camera(.tele).size, wideSize = try rig.camera(.wide).size
        return Output(truth: truth,
                      observations: CalibrationObservations(target: target, wideSize: wideSize, teleSize: teleSize,
                                                            pairs: Array(pairs.prefix(views))),
                      heldBack: CalibrationObservations(target: target, wideSize: wideSize, teleSize: teleSize,
                                                        pairs: Array(pairs.dropFirst(views))))
    }
}

/// Standard normal samples (Box-Muller over SplitMix64), reproducible for a seed.
struct Gaussian {
    var state: UInt64
    var spare: Double?

    init(seed: UInt64) { state = seed ^ 0x6361_6C69_6272_6174 }

    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) * 0x1p-53
    }

    mutating func next() -> Double {
        if let s = spare { spare = nil; return s }
        let r = (-2 * log(uniform())).squareRoot(), angle = 2 * Double.pi * uniform()
        spare = r * sin(angle)
        return r * cos(angle)
    }
}
