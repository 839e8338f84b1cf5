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

extension ConvergenceWarp {
    /// `view` of a pair registered at `distance`: the same image as
    /// `ConvergenceViews.compose(view, register(...))`.
    public func view(_ view: ConvergenceView, wide: Image, tele: Image, distance: Distance,
                     wideIntrinsics: Intrinsics? = nil, teleIntrinsics: Intrinsics? = nil) throws -> Image {
        let g = try geometry(wideSize: PixelSize(width: wide.width, height: wide.height),
                             teleSize: PixelSize(width: tele.width, height: tele.height),
                             wideIntrinsics: wideIntrinsics, teleIntrinsics: teleIntrinsics)
        return try self.view(view, wide: wide, tele: tele, maps: try maps(g, distance: distance))
    }

    /// `view` of a pair with tables built before. The split view of 3-channel
    /// uint8 images (the streaming case) is composed straight from the inputs
    /// (`PreparedRemap.splitView`): only the visible half of the moving image
    /// is resampled, the fixed image's visible half is copied (or undistorted),
    /// and no registered pair is made; other views and inputs go through
    /// `register` and `ConvergenceViews.compose`.
    public func view(_ view: ConvergenceView, wide: Image, tele: Image, maps: ConvergenceMaps) throws -> Image {
        let g = maps.geometry
        let movingImage = g.canvas == .tele ? wide : tele, fixedImage = g.canvas == .tele ? tele : wide
        guard view == .split, [wide, tele].allSatisfy({ $0.channels == 3 && $0.element == .uint8 }),
              wide.width == g.wideSize.width, wide.height == g.wideSize.height,
              tele.width == g.teleSize.width, tele.height == g.teleSize.height else {
            return try ConvergenceViews.compose(view, try register(wide: wide, tele: tele, maps: maps))
        }
        let w = g.canvasSize.width, half = w / 2, seamWidth = ViewCompositing.seamWidth
        let seam0 = max(0, half - seamWidth / 2), seam1 = min(w, seam0 + seamWidth)
        let white = RGB8.white
        return try maps.moving.prepared.splitView(
            moving: movingImage, fixed: fixedImage, fixedTable: maps.fixed?.prepared,
            valid: maps.moving.isFullyValid ? nil : maps.moving.valid, movingOnLeft: g.canvas == .tele,
            seam: seam0..<seam1, seamRGB: (white.r, white.g, white.b))
    }
}
