import DualcamGeometry

extension SceneLibrary {
    /// Geometry of the `office` scene, world metres (the wide camera's frame:
    /// x right, y down, z forward).
    public enum Office {
        /// Side walls at x = -+halfWidth, ceiling at y = ceiling, floor at y = floor, back wall at z = backWall.
        public static let halfWidth = 2.5, ceiling = -1.5, floor = 1.2, backWall = 6.0, front = -0.5
        /// The window opening in the back wall: x in windowX, y in windowY.
        public static let windowX = 0.4...1.7, windowY = -1.0...0.3
        /// The outside seen through the window: a building facade at this depth.
        public static let outsideDepth = 20.0
        /// Floor tiles: pitch and grout width.
        public static let floorTilePeriodMetres = 0.4, floorGroutMetres = 0.006
        /// The tiled panel on the back wall (1 cm in front of it): x and y extents, pitch, grout.
        public static let wallTilesX = -1.8 ... -0.8, wallTilesY = -1.1 ... -0.2
        public static let wallTilePeriodMetres = 0.15, wallGroutMetres = 0.004
        /// Striped wallpaper on the right wall (x = +halfWidth), stripes along z.
        public static let wallpaperPeriodMetres = 0.2
        /// The window grille: bar width and pitches (bars' mid-plane 3 cm in front of the back wall).
        public static let grilleBarWidthMetres = 0.025, grilleVerticalPitchMetres = 0.13, grilleHorizontalPitchMetres = 0.45
        public static let grilleDepth = backWall - 0.03
        /// The floor lamp's pole: width and position (its foot on the floor).
        public static let poleWidthMetres = 0.015, poleFoot = Vector3(-0.2, floor, 3.0), poleHeightMetres = 1.6
        /// A cable across the room: thickness, height and depth.
        public static let cableThicknessMetres = 0.008, cableY = -1.0, cableDepth = 4.5
    }

    /// `office`: a room (5 x 2.7 m, back wall 6 m ahead, floor 1.2 m below the
    /// camera) with what the other scenes lack, each in both cameras' view:
    ///
    /// - repetitive: a tiled floor (0.4 m tiles), a tiled panel on the back wall
    ///   (0.15 m, fronto-parallel), striped wallpaper on the right wall (0.2 m);
    /// - textureless: the painted back wall, left wall and ceiling
    ///   (`PaintedSurface`, 2 % shading over 1.5 m);
    /// - thin structures: a window grille (2.5 cm bars every 13 cm, two
    ///   cross bars) in front of a bright facade 20 m away, a floor lamp's
    ///   1.5 cm pole at 3 m and a 8 mm cable at 4.5 m;
    /// - ordinary textured objects: a desk, a cabinet, a ball, a lamp shade and
    ///   a box of books at 1.3 m.
    ///
    /// Object names say what each is ("floor tiles", "window grille vertical
    /// bar 3", "painted back wall (left)", ...); `Office` holds the numbers.
    /// `Options.untextured` adds nothing here (the scene has its own).
    public static func office(_ options: Options) -> Scene {
        let room = OfficeRoom(seed: options.seed)
        let objects = room.floorAndCeiling() + room.sideWalls() + room.backWall() + [room.outside()]
            + officeGrille() + officeThinStructures(seed: options.seed) + officeObjects(seed: options.seed)
        return Scene(name: "office", objects: objects)
    }

    /// The window grille in front of the opening.
    static func officeGrille() -> [SceneObject] {
        typealias O = Office
        let grille = Grille(
            center: Vector3((O.windowX.lowerBound + O.windowX.upperBound) / 2,
                            (O.windowY.lowerBound + O.windowY.upperBound) / 2, O.grilleDepth),
            widthMetres: O.windowX.upperBound - O.windowX.lowerBound,
            heightMetres: O.windowY.upperBound - O.windowY.lowerBound,
            verticalPitchMetres: O.grilleVerticalPitchMetres, horizontalPitchMetres: O.grilleHorizontalPitchMetres,
            barWidthMetres: O.grilleBarWidthMetres, barDepthMetres: 0.02, appearance: .flat(RGB(0.12, 0.12, 0.13)))
        return grille.objects(name: "window grille")
    }

    /// The floor lamp (pole and shade) and the cable.
    static func officeThinStructures(seed s: UInt64) -> [SceneObject] {
        typealias O = Office
        return [
            pole("lamp pole", bottom: O.poleFoot, heightMetres: O.poleHeightMetres, widthMetres: O.poleWidthMetres,
                 appearance: .flat(RGB(0.25, 0.24, 0.22))),
            SceneObject(name: "lamp shade", shape: .sphere(
                center: Vector3(O.poleFoot.x, O.poleFoot.y - O.poleHeightMetres - 0.12, O.poleFoot.z), radius: 0.15),
                        appearance: texture(7, seed: s, distance: 3)),
            wire("cable", y: O.cableY, z: O.cableDepth, x0: -O.halfWidth, x1: O.halfWidth,
                 thicknessMetres: O.cableThicknessMetres, appearance: .flat(RGB(0.1, 0.1, 0.1))),
        ]
    }

    /// The ordinary textured objects: desk, cabinet, ball, books.
    static func officeObjects(seed s: UInt64) -> [SceneObject] {
        [
            SceneObject(name: "desk", shape: .box(center: Vector3(1.0, 0.83, 3.6), halfSize: Vector3(0.7, 0.37, 0.4),
                                                  interior: false),
                        appearance: texture(3, seed: s, distance: 3.2)),
            SceneObject(name: "cabinet", shape: .box(center: Vector3(-1.7, 0.6, 4.2), halfSize: Vector3(0.4, 0.6, 0.3),
                                                     interior: false),
                        appearance: texture(4, seed: s, distance: 4)),
            SceneObject(name: "ball", shape: .sphere(center: Vector3(-0.5, 0.4, 2.5), radius: 0.3),
                        appearance: texture(2, seed: s, distance: 2.2)),
            SceneObject(name: "books", shape: .box(center: Vector3(0.25, 0.25, 1.3), halfSize: Vector3(0.12, 0.12, 0.12),
                                                   interior: false),
                        appearance: texture(1, seed: s, distance: 1.2)),
        ]
    }
}

/// The office's walls, floor and ceiling and what is seen through the window.
struct OfficeRoom {
    typealias O = SceneLibrary.Office
    let seed: UInt64
    /// Extents: the walls overlap at the corners by `margin`, so no ray slips between them.
    let x0: Double, x1: Double, y0: Double, y1: Double, z0: Double, z1: Double
    let wallPaint = RGB(0.80, 0.78, 0.72)

    init(seed: UInt64) {
        self.seed = seed
        let margin = 0.01
        (x0, x1) = (-O.halfWidth - margin, O.halfWidth + margin)
        (y0, y1) = (O.ceiling - margin, O.floor + margin)
        (z0, z1) = (O.front, O.backWall + margin)
    }

    func paint(_ colour: RGB, _ k: UInt64) -> Appearance {
        .painted(PaintedSurface(base: colour, seed: seed &* 1_000_003 &+ k))
    }

    func rect(_ name: String, x: ClosedRange<Double>, y: ClosedRange<Double>, z: Double,
              _ appearance: Appearance) -> SceneObject {
        SceneObject(name: name, shape: .rectangle(
            center: Vector3((x.lowerBound + x.upperBound) / 2, (y.lowerBound + y.upperBound) / 2, z),
            normal: Vector3(0, 0, -1), uAxis: Vector3(1, 0, 0),
            halfWidth: (x.upperBound - x.lowerBound) / 2, halfHeight: (y.upperBound - y.lowerBound) / 2),
                    appearance: appearance)
    }

    /// Floor (normal up, u along x) and ceiling.
    func floorAndCeiling() -> [SceneObject] {
        [
            SceneObject(name: "floor tiles", shape: .rectangle(
                center: Vector3(0, O.floor, (z0 + z1) / 2), normal: Vector3(0, -1, 0), uAxis: Vector3(1, 0, 0),
                halfWidth: x1, halfHeight: (z1 - z0) / 2),
                        appearance: .repetitive(RepetitiveTexture(
                            kind: .tiles(groutMetres: O.floorGroutMetres), periodMetres: O.floorTilePeriodMetres,
                            primary: RGB(0.70, 0.66, 0.58), secondary: RGB(0.33, 0.31, 0.28)))),
            SceneObject(name: "painted ceiling", shape: .rectangle(
                center: Vector3(0, O.ceiling, (z0 + z1) / 2), normal: Vector3(0, 1, 0), uAxis: Vector3(1, 0, 0),
                halfWidth: x1, halfHeight: (z1 - z0) / 2),
                        appearance: paint(RGB(0.88, 0.88, 0.86), 1)),
        ]
    }

    /// Side walls (u along z): painted left, striped wallpaper right.
    func sideWalls() -> [SceneObject] {
        [
            SceneObject(name: "painted left wall", shape: .rectangle(
                center: Vector3(-O.halfWidth, (y0 + y1) / 2, (z0 + z1) / 2), normal: Vector3(1, 0, 0),
                uAxis: Vector3(0, 0, 1), halfWidth: (z1 - z0) / 2, halfHeight: (y1 - y0) / 2),
                        appearance: paint(RGB(0.62, 0.70, 0.64), 2)),
            SceneObject(name: "striped wallpaper", shape: .rectangle(
                center: Vector3(O.halfWidth, (y0 + y1) / 2, (z0 + z1) / 2), normal: Vector3(-1, 0, 0),
                uAxis: Vector3(0, 0, 1), halfWidth: (z1 - z0) / 2, halfHeight: (y1 - y0) / 2),
                        appearance: .repetitive(RepetitiveTexture(
                            kind: .stripesAlongU(dutyCycle: 0.5), periodMetres: O.wallpaperPeriodMetres,
                            primary: RGB(0.75, 0.68, 0.52), secondary: RGB(0.55, 0.42, 0.36)))),
        ]
    }

    /// One piece of the back wall: the pieces around the window share one
    /// shading, each offset by its centre's position in the whole wall's
    /// (u, v) (v = -y).
    func backWallPiece(_ name: String, x: ClosedRange<Double>, y: ClosedRange<Double>) -> SceneObject {
        let wallCentreY = (y0 + y1) / 2
        let cx = (x.lowerBound + x.upperBound) / 2, cy = (y.lowerBound + y.upperBound) / 2
        return rect(name, x: x, y: y, z: O.backWall, .painted(PaintedSurface(
            base: wallPaint, seed: seed &* 1_000_003 &+ 3, uOffsetMetres: cx, vOffsetMetres: wallCentreY - cy)))
    }

    /// The back wall around the window opening and its tiled panel.
    func backWall() -> [SceneObject] {
        [
            backWallPiece("painted back wall (left)", x: x0...O.windowX.lowerBound, y: y0...y1),
            backWallPiece("painted back wall (right)", x: O.windowX.upperBound...x1, y: y0...y1),
            backWallPiece("painted back wall (above window)", x: O.windowX, y: y0...O.windowY.lowerBound),
            backWallPiece("painted back wall (below window)", x: O.windowX, y: O.windowY.upperBound...y1),
            rect("wall tiles", x: O.wallTilesX, y: O.wallTilesY, z: O.backWall - 0.01,
                 .repetitive(RepetitiveTexture(kind: .tiles(groutMetres: O.wallGroutMetres),
                                               periodMetres: O.wallTilePeriodMetres,
                                               primary: RGB(0.86, 0.88, 0.90), secondary: RGB(0.45, 0.45, 0.47)))),
        ]
    }

    /// The outside, seen through the window.
    func outside() -> SceneObject {
        rect("outside facade", x: -15...15, y: -10...10, z: O.outsideDepth,
             .textured(ProceduralTexture(seed: seed &* 1_000_003 &+ 77, baseColor: RGB(0.85, 0.86, 0.88),
                                         featureSize: 0.003 * O.outsideDepth, contrast: 0.3)))
    }
}
