import DualcamConvergence
import DualcamGeometry
import DualcamSupport
import Foundation

/// What `converge --distance auto` reports: the `auto` object of `--json`
/// and the lines on stderr.
struct AutoReport: Encodable {
    struct Candidate: Encodable {
        var distanceMetres: Double?  // nil = infinity
        var score: Double
    }

    struct Tap: Encodable {
        /// The image the point was given in: canvas, wide or tele.
        var image: String
        var pixel: [Double]
        /// The camera whose view was scored and the point in its image (sensor) and ideal pixels.
        var camera: String
        var cameraPixel: [Double]
        var idealPixel: [Double]
        /// On the output canvas (ideal pixels) at the chosen distance.
        var canvasPixel: [Double]?
        /// Where it lands in the other camera's image at the chosen distance.
        var otherCamera: String
        var otherPixel: [Double]?
        var otherInside: Bool
    }

    var at: [Double]?
    var tap: Tap?
    var score: Double
    var confidence: String
    var ambiguous: Bool
    var candidates: [Candidate]
    var peakRatio: Double?
    var peakMargin: Double?
    var sharpnessPerPx: Double?
    var curveContrast: Double
    var patternPeriodPx: Double?
    var supportFraction: Double?
    var lowTexture: Bool
    var fellBackToWholeOverlap: Bool
    var scoredIn: String
    var window: [Int]
    var curve: [[Double]]  // [distance m (inf = -1), score]

    init(_ r: AutoConvergenceResult) {
        func metres(_ d: Distance) -> Double? { d.isInfinite ? nil : d.metres }
        at = r.tap.map { [$0.tap.pixel.x, $0.tap.pixel.y] }
        tap = r.tap.map { t in
            Tap(image: t.tap.image.rawValue, pixel: [t.tap.pixel.x, t.tap.pixel.y], camera: t.camera.rawValue,
                cameraPixel: [t.pixel.x, t.pixel.y], idealPixel: [t.idealPixel.x, t.idealPixel.y],
                canvasPixel: t.canvasPixel.map { [$0.x, $0.y] }, otherCamera: t.otherCamera.rawValue,
                otherPixel: t.otherPixel.map { [$0.x, $0.y] }, otherInside: t.otherInside)
        }
        score = r.score
        confidence = r.confidence.rawValue
        ambiguous = r.ambiguous
        candidates = r.candidates.map { Candidate(distanceMetres: metres($0.distance), score: $0.score) }
        peakRatio = r.peakRatio
        peakMargin = r.peakMargin
        sharpnessPerPx = r.sharpnessPerPixel
        curveContrast = r.curveContrast
        patternPeriodPx = r.patternPeriodPixels
        supportFraction = r.supportFraction
        lowTexture = r.lowTexture
        fellBackToWholeOverlap = r.fellBackToWholeOverlap
        scoredIn = r.scoredIn.rawValue
        window = [r.window.x, r.window.y, r.window.width, r.window.height]
        curve = r.curve.map { [$0.distance.isInfinite ? -1 : $0.distance.metres, $0.score] }
    }
}

/// `1.2345 m` or `inf`.
func formatMetres(_ d: Distance) -> String {
    d.isInfinite ? "inf" : String(format: "%.4f m", d.metres)
}

/// The stderr lines for one automatic distance: where the tap is and lands,
/// the distance with its confidence, and a warning when it is ambiguous or
/// fell back to the whole overlap.
func autoDistanceNotes(_ r: AutoConvergenceResult) -> [String] {
    var notes: [String] = []
    func xy(_ p: Vector2) -> String { String(format: "(%.1f, %.1f)", p.x, p.y) }
    if let t = r.tap {
        var line = "converge: --at \(t.tap.text): \(t.camera) pixel \(xy(t.pixel))"
        if let other = t.otherPixel {
            line += " lands at \(t.otherCamera) pixel \(xy(other))" + (t.otherInside ? "" : " (outside the \(t.otherCamera) image)")
        } else {
            line += " is not seen by the \(t.otherCamera) camera"
        }
        notes.append(line + " at \(formatMetres(r.distance))")
    }
    var figures = [String(format: "NCC %.3f", r.score)]
    if let ratio = r.peakRatio { figures.append(String(format: "peak ratio %.2f", ratio)) }
    if let sharpness = r.sharpnessPerPixel { figures.append(String(format: "loses %.3f per px", sharpness)) }
    figures.append("confidence \(r.confidence.rawValue)")
    notes.append("converge: auto distance \(formatMetres(r.distance)) (\(figures.joined(separator: ", ")))")
    if let reason = r.fallbackReason {
        notes.append("converge: warning: \(reason); used the whole overlap instead")
    }
    if r.ambiguous {
        let period = r.patternPeriodPixels.map { String(format: " (the window repeats every %.1f px along the baseline)", $0) } ?? ""
        let list = r.candidates.map { "\(formatMetres($0.distance)) (NCC " + String(format: "%.3f", $0.score) + ")" }
        notes.append("converge: warning: ambiguous distance\(period): candidates \(list.joined(separator: ", ")); using \(formatMetres(r.distance))")
    }
    return notes
}

/// The automatic distance over a sequence or live pairs: each frame is
/// measured (`.accept`: a textureless window is a frame without a
/// measurement, not an error) and `DistanceTracker` decides the distance.
struct AutoDistanceTrack {
    struct Frame: Encodable {
        var distanceMetres: Double?  // nil = infinity
        /// The frame's own best candidate (nil = infinity).
        var measuredMetres: Double?
        var candidatesMetres: [Double?]
        var decision: String
        var ambiguous: Bool
        var lowTexture: Bool
    }

    var tracker = DistanceTracker()
    var frames: [Frame] = []

    mutating func next(_ result: AutoConvergenceResult) -> Distance {
        let step = tracker.update(DistanceTracker.Measurement(result))
        func metres(_ d: Distance) -> Double? { d.isInfinite ? nil : d.metres }
        frames.append(Frame(distanceMetres: metres(step.distance), measuredMetres: metres(result.distance),
                            candidatesMetres: result.candidates.map { metres($0.distance) }, decision: step.decision.rawValue,
                            ambiguous: result.ambiguous, lowTexture: result.lowTexture))
        return step.distance
    }

    /// `tracked 0.5012-1.9874 m; 3 frames coasted (2 ambiguous, 1 without texture), 0 restarts`.
    var summary: String {
        let ds = frames.compactMap(\.distanceMetres)
        let range = ds.isEmpty ? "at infinity" : String(format: "%.4f-%.4f m", ds.min()!, ds.max()!)
        let coasted = frames.filter { $0.decision == DistanceTracker.Decision.coasted.rawValue }.count
        let restarts = frames.filter { $0.decision == DistanceTracker.Decision.restarted.rawValue }.count
        let ambiguous = frames.filter(\.ambiguous).count, flat = frames.filter(\.lowTexture).count
        return "tracked \(range); \(coasted) frames coasted, \(restarts) restarts; \(ambiguous) ambiguous frames, \(flat) without texture"
    }
}
