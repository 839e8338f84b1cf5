import DualcamGeometry
import Foundation

/// A tapped point: a pixel of the canvas, or of one camera's own image.
///
/// - `.canvas`: ideal (undistorted) canvas pixels, what `dualcam converge
///   --at x,y` has always meant.
/// - `.wide` / `.tele`: a pixel of that camera's image as captured (sensor
///   pixels, lens distortion included), what a user tapping on the image
///   they are looking at gives (`--at wide:x,y`, `--at tele:x,y`).
///
/// Pixel centres are at integer coordinates (OpenCV), origin top left.
public struct TapPoint: Equatable, Hashable, Sendable {
    public enum Image: String, Equatable, Hashable, Sendable, CaseIterable {
        case canvas
        case wide
        case tele
    }

    public var image: Image
    public var pixel: Vector2

    public init(_ image: Image, _ pixel: Vector2) {
        self.image = image
        self.pixel = pixel
    }

    /// Parses `x,y` (canvas pixels), `wide:x,y` or `tele:x,y`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var image = Image.canvas, rest = Substring(trimmed)
        if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].lowercased()
            guard let named = Image(rawValue: name), named != .canvas else {
                throw ConvergenceError.invalidOption(
                    "unknown image '\(trimmed[..<colon])'; expected x,y (canvas pixels), wide:x,y or tele:x,y")
            }
            image = named
            rest = trimmed[trimmed.index(after: colon)...]
        }
        let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw ConvergenceError.invalidOption("expected two numbers x,y, optionally after wide: or tele:, e.g. 640,480 or wide:800,600")
        }
        self.init(image, Vector2(x, y))
    }

    /// `x,y`, `wide:x,y` or `tele:x,y` (whole numbers as they are, others to 0.1 px).
    public var text: String {
        func number(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.1f", v)
        }
        let xy = "\(number(pixel.x)),\(number(pixel.y))"
        return image == .canvas ? xy : "\(image.rawValue):\(xy)"
    }
}

/// What the automatic distance does when the scored window has no texture
/// along the baseline (`AutoConvergenceResult.lowTexture`).
public enum LowTexturePolicy: String, Equatable, Sendable {
    /// Throw `ConvergenceError.lowTexture` (the message names the window and
    /// the measured contrast).
    case refuse
    /// Score the whole overlap instead and say so (`fellBackToWholeOverlap`);
    /// throws when the whole overlap has no texture either.
    case wholeOverlap
    /// Return the result flagged `lowTexture` (for trackers that skip such frames).
    case accept
}

/// Options of the automatic convergence distance (`--distance auto [--at x,y]`).
public struct AutoConvergenceOptions: Equatable, Sendable {
    /// Nearest distance swept (default 0.2 m).
    public var near: Distance
    /// Farthest distance swept (default infinity: the plane at infinity is a candidate).
    public var far: Distance
    /// Score only a window around this point (tap-to-converge); nil scores
    /// the whole overlap. A tap in the moving camera's image is scored in
    /// that camera's view (see `AutoConvergenceResult.scoredIn`).
    public var tap: TapPoint?
    /// Side of the window around the tap, pixels of the tapped view (default 96).
    public var window: Int
    /// Coarse sweep steps; nil picks max(64, enough for a step to move the
    /// moving image by at most half a pixel of the coarse level), at most 1024.
    public var coarseSteps: Int?
    /// Resize factor of the canvas for the coarse sweep; nil picks the
    /// smallest of 1, 1/2, 1/4, 1/8 that keeps the scored region at least
    /// 48 pixels (window) or 120 pixels (whole overlap) on its shorter side.
    public var coarseScale: Double?
    /// Refine around the best coarse step at full resolution (default true).
    public var refine: Bool
    /// Two peaks of the score curve whose NCC differ by less than this are
    /// both candidates and the answer is `ambiguous` (default 0.1; see
    /// docs/convergence.md for the figures behind it).
    public var ambiguityMargin: Double
    /// The score curve must rise this far (NCC) above its median at the peak,
    /// otherwise the window has no usable texture along the baseline
    /// (default 0.1).
    public var minimumCurveContrast: Double
    /// What to do when the window has no texture (default `.refuse`).
    public var lowTexture: LowTexturePolicy

    /// The tap as canvas pixels (`TapPoint.Image.canvas`); nil when there is
    /// no tap or it is in a camera's image.
    public var at: Vector2? {
        get { tap?.image == .canvas ? tap?.pixel : nil }
        set { tap = newValue.map { TapPoint(.canvas, $0) } }
    }

    public init(near: Distance = try! Distance(metres: 0.2), far: Distance = .infinity, at: Vector2? = nil,
                tap: TapPoint? = nil, window: Int = 96, coarseSteps: Int? = nil, coarseScale: Double? = nil,
                refine: Bool = true, ambiguityMargin: Double = 0.1, minimumCurveContrast: Double = 0.1,
                lowTexture: LowTexturePolicy = .refuse) {
        self.near = near
        self.far = far
        self.tap = tap ?? at.map { TapPoint(.canvas, $0) }
        self.window = window
        self.coarseSteps = coarseSteps
        self.coarseScale = coarseScale
        self.refine = refine
        self.ambiguityMargin = ambiguityMargin
        self.minimumCurveContrast = minimumCurveContrast
        self.lowTexture = lowTexture
    }
}
