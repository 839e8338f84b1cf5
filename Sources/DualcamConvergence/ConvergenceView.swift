import DualcamGeometry
import DualcamImaging

/// How a registered pair is shown (`dualcam converge --view`). Camera order
/// is fixed whatever the canvas: the WIDE camera is the left / red / first
/// image, the TELE camera the right / cyan / second one (in the nominal rig
/// the wide camera sits left of the tele, so this matches the eyes).
///
/// | view | size | content |
/// | --- | --- | --- |
/// | `split` | W x H | columns x < W/2 wide, x >= W/2 tele, a 2-px white seam at W/2 - 1 and W/2 |
/// | `side-by-side` | 2W x H | wide in the left W columns, tele in the right W |
/// | `blend` | W x H | (wide + tele + 1) / 2 per channel |
/// | `anaglyph` | W x H | R from wide, G and B from tele |
/// | `difference` | W x H | abs(wide - tele) per channel (dark where the plane registers) |
/// | `checker` | W x H | tiles of side round(min(W, H) / 8), wide in the top-left tile, alternating |
/// | `aligned` | W x H | the moving image only (the wide on the `.tele` canvas, the tele on `.wide`) |
///
/// W x H is the canvas size. Where the moving image has no data (outside its
/// field of view) every view shows the canvas camera's own image in its
/// place (so on the `.wide` canvas the wide frame surrounds the warped tele,
/// and `difference` is black there).
public enum ConvergenceView: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case split
    case sideBySide = "side-by-side"
    case blend
    case anaglyph
    case difference
    case checker
    case aligned

    /// The default view.
    public static let `default` = ConvergenceView.split

    /// A view from its name (`split`, `side-by-side`, ...); an unknown name is
    /// an error listing the accepted ones.
    public init(parsing text: String) throws {
        guard let view = ConvergenceView(rawValue: text.lowercased()) else {
            throw ConvergenceError.invalidOption(
                "unknown view '\(text)'; expected one of \(ConvergenceView.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = view
    }

    /// The output size for a canvas of `canvas` size.
    public func outputSize(canvas: PixelSize) -> PixelSize {
        self == .sideBySide ? PixelSize(width: 2 * canvas.width, height: canvas.height) : canvas
    }
}

public enum ConvergenceViews {
    /// Composes `view` of `pair` (RGB uint8; see `ConvergenceView` for sizes
    /// and the camera order). The inputs must be uint8 images.
    public static func compose(_ view: ConvergenceView, _ pair: ConvergedPair) throws -> Image {
        // Fill the moving image's no-data pixels from the canvas camera.
        let moving = pair.movingFullyValid ? pair.moving
            : try ViewCompositing.masked(pair.moving, mask: pair.movingValid, fallback: pair.fixed)
        let wide = pair.canvas == .tele ? moving : pair.wide
        let tele = pair.canvas == .tele ? pair.tele : moving
        switch view {
        case .split: return try ViewCompositing.split(wide, tele)
        case .sideBySide: return try ViewCompositing.sideBySide(wide, tele)
        case .blend: return try ViewCompositing.blend(wide, tele)
        case .anaglyph: return try ViewCompositing.anaglyph(red: wide, cyan: tele)
        case .difference: return try ViewCompositing.difference(wide, tele)
        case .checker: return try ViewCompositing.checker(wide, tele)
        case .aligned: return try moving.rgb8("aligned")
        }
    }
}
