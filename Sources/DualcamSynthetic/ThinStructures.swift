import DualcamGeometry

/// Thin structures: bars, poles and wires a few pixels wide, which stereo
/// matchers and depth filters erase or fatten. They are geometry (boxes), so
/// they have their own ground-truth depth in front of what lies behind them.
///
/// A bar of width w metres, fronto-parallel at depth Z, seen by a camera of
/// focal length f_px pixels, is f_px * w / Z pixels wide.
public struct Grille: Equatable, Sendable {
    /// Centre of the grille's frame, world metres (the bars' mid-plane is z = center.z).
    public var center: Vector3
    /// Extent of the grille in x and y, metres (bars span the whole other extent).
    public var widthMetres: Double
    public var heightMetres: Double
    /// Distance between neighbouring vertical bars' centres (0 = no vertical bars).
    public var verticalPitchMetres: Double
    /// Distance between neighbouring horizontal bars' centres (0 = no horizontal bars).
    public var horizontalPitchMetres: Double
    /// Bar cross-section: width across the view and depth along z, metres.
    public var barWidthMetres: Double
    public var barDepthMetres: Double
    public var appearance: Appearance

    public init(center: Vector3, widthMetres: Double, heightMetres: Double, verticalPitchMetres: Double,
                horizontalPitchMetres: Double = 0, barWidthMetres: Double, barDepthMetres: Double = 0.02,
                appearance: Appearance) {
        self.center = center
        self.widthMetres = widthMetres
        self.heightMetres = heightMetres
        self.verticalPitchMetres = verticalPitchMetres
        self.horizontalPitchMetres = horizontalPitchMetres
        self.barWidthMetres = barWidthMetres
        self.barDepthMetres = barDepthMetres
        self.appearance = appearance
    }

    /// The bars' x centres: center.x + (i - (n - 1) / 2) * pitch for
    /// i = 0..<n, n = floor(width / pitch) + 1 (symmetric about the centre).
    public var verticalBarCentres: [Double] { Self.centres(center.x, widthMetres, verticalPitchMetres) }
    /// The horizontal bars' y centres, likewise.
    public var horizontalBarCentres: [Double] { Self.centres(center.y, heightMetres, horizontalPitchMetres) }

    static func centres(_ middle: Double, _ extent: Double, _ pitch: Double) -> [Double] {
        guard pitch > 0 else { return [] }
        let n = Int((extent / pitch).rounded(.down)) + 1
        return (0..<n).map { middle + (Double($0) - Double(n - 1) / 2) * pitch }
    }

    /// One box per bar, named "`name` vertical bar i" / "`name` horizontal bar i".
    public func objects(name: String) -> [SceneObject] {
        let halfDepth = barDepthMetres / 2, halfBar = barWidthMetres / 2
        let vertical = verticalBarCentres.enumerated().map { i, x in
            SceneObject(name: "\(name) vertical bar \(i)",
                        shape: .box(center: Vector3(x, center.y, center.z),
                                    halfSize: Vector3(halfBar, heightMetres / 2, halfDepth), interior: false),
                        appearance: appearance)
        }
        let horizontal = horizontalBarCentres.enumerated().map { i, y in
            SceneObject(name: "\(name) horizontal bar \(i)",
                        shape: .box(center: Vector3(center.x, y, center.z),
                                    halfSize: Vector3(widthMetres / 2, halfBar, halfDepth), interior: false),
                        appearance: appearance)
        }
        return vertical + horizontal
    }
}

extension SceneLibrary {
    /// A vertical pole (or, lying along x, a wire): a box of square cross
    /// section `widthMetres` from `bottom` up by `heightMetres` (y grows down).
    public static func pole(_ name: String, bottom: Vector3, heightMetres: Double, widthMetres: Double,
                            appearance: Appearance) -> SceneObject {
        SceneObject(name: name,
                    shape: .box(center: Vector3(bottom.x, bottom.y - heightMetres / 2, bottom.z),
                                halfSize: Vector3(widthMetres / 2, heightMetres / 2, widthMetres / 2), interior: false),
                    appearance: appearance)
    }

    /// A horizontal wire along x at height y and depth z, from x0 to x1.
    public static func wire(_ name: String, y: Double, z: Double, x0: Double, x1: Double, thicknessMetres: Double,
                            appearance: Appearance) -> SceneObject {
        SceneObject(name: name,
                    shape: .box(center: Vector3((x0 + x1) / 2, y, z),
                                halfSize: Vector3(abs(x1 - x0) / 2, thicknessMetres / 2, thicknessMetres / 2), interior: false),
                    appearance: appearance)
    }
}
