import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import XCTest

/// Scene content the procedural texture lacks: repetitive textures, painted
/// (textureless) walls, thin structures, and the `office` scene that has them
/// all, measured on rendered images and ground truth.
final class SceneContentTests: XCTestCase {
    typealias F = ConditionFixtures

    /// The office at 320x240 through the nominal rig (one sample per pixel),
    /// rendered once with its ground truth, co-visibility and LiDAR samples.
    static let office = Result { () throws -> SynthDataset in
        var spec = SynthSpec(sceneName: "office", calibration: try NominalDevice.load(),
                             size: PixelSize(width: 320, height: 240))
        spec.render = RenderOptions(samplesPerAxis: 1)
        return try Synthesizer.make(spec)
    }

    /// The office is a pure function of its seed: the same seed renders the
    /// same image, another seed other textures and shading on the same geometry.
    func testOfficeIsDeterministicForASeed() throws {
        let rig = try RenderFixtures.nominalRig(width: 160)
        func render(_ seed: UInt64) throws -> RenderedView {
            var options = SceneLibrary.Options()
            options.seed = seed
            return try Renderer.render(SceneLibrary.office(options), camera: .tele, of: rig,
                                       options: RenderOptions(samplesPerAxis: 1))
        }
        let a = try render(42), b = try render(42), c = try render(43)
        XCTAssertEqual(a.image, b.image)
        XCTAssertNotEqual(a.image, c.image)
        XCTAssertEqual(a.depth, c.depth)
    }

    /// Stripes, a chessboard and tiles on a fronto-parallel wall repeat every
    /// f_px * period / Z pixels along a row (autocorrelation of rows 100-139,
    /// `ConditionFixtures.rowPeriod`), for several periods and both cameras
    /// (wide f = 300 px, tele f = 600 px); within 1.5 %.
    func testRepetitivePeriodInPixelsIsFocalTimesPeriodOverDepth() throws {
        let rig = try F.pinhole(width: 320, height: 240, f: 300)
        let a = RGB(0.8, 0.75, 0.7), b = RGB(0.25, 0.3, 0.35)
        let cases: [(RepetitiveTexture.Kind, periodMetres: Double, depth: Double, camera: FrameName)] = [
            (.stripesAlongU(dutyCycle: 0.5), 0.06, 2, .wide),        // 9 px
            (.stripesAlongU(dutyCycle: 0.2), 0.1, 1.5, .wide),       // 20 px, thin lines
            (.chessboard, 0.1, 2.5, .wide),                          // 12 px
            (.tiles(groutMetres: 0.012), 0.14, 2, .wide),            // 21 px
            (.stripesAlongU(dutyCycle: 0.5), 0.05, 3, .tele),        // 10 px
            (.tiles(groutMetres: 0.006), 0.073, 4, .tele),           // 10.95 px
        ]
        for (kind, period, depth, camera) in cases {
            let texture = RepetitiveTexture(kind: kind, periodMetres: period, primary: a, secondary: b)
            let view = try F.render(F.wall(.repetitive(texture), depth: depth), camera, rig: rig, conditions: .clean,
                                    region: RenderRegion(x: 0, y: 100, width: 320, height: 40))
            let f = try rig.camera(camera).model.intrinsics.fx
            let expected = f * period / depth
            let measured = F.rowPeriod(view.image, rows: 100..<140)
            F.record("period \(kind) \(period) m at \(depth) m \(camera): measured, expected px", measured, expected)
            XCTAssertEqual(measured, expected, accuracy: 0.015 * expected, "\(kind) \(period) m at \(depth) m, \(camera)")
        }
        // Stripes along v do not repeat along a row.
        let across = RepetitiveTexture(kind: .stripesAlongV(dutyCycle: 0.5), periodMetres: 0.06, primary: a, secondary: b)
        let view = try F.render(F.wall(.repetitive(across), depth: 2), rig: rig, conditions: .clean,
                                region: RenderRegion(x: 0, y: 100, width: 320, height: 40))
        XCTAssertEqual(F.standardDeviation((0..<320).map { view.image[x: $0, y: 120, channel: 0] }), 0, accuracy: 1e-9)
    }

    /// The painted back wall of the office is textureless: inside it (5x5
    /// windows of that wall only) the local standard deviation stays below
    /// 0.52 levels in both views (the most a window split between two
    /// adjacent 8-bit levels can have, 13 / 12 pixels: the shading only
    /// crosses rounding steps), while the textured ball's is above 10;
    /// its ground-truth depth is valid (the wall at Z = 6 m).
    func testPaintedWallIsTexturelessWithValidGroundTruth() throws {
        let dataset = try Self.office.get()
        let names = try SceneLibrary.scene(named: "office", options: .init()).objects.map(\.name)
        let painted = Set(names.indices.filter { names[$0].hasPrefix("painted back wall") }.map(Int32.init))
        let ball: Set<Int32> = [Int32(names.firstIndex(of: "ball")!)]
        for view in [dataset.pairs[0].wide, dataset.pairs[0].tele] {
            let wall = Self.localDeviations(view, ids: painted)
            F.record("\(view.camera) painted wall local sd: max, mean", wall.max() ?? .nan, F.mean(wall))
            XCTAssertGreaterThan(wall.count, 2000, "\(view.camera): the painted wall is in view")
            XCTAssertLessThan(wall.max()!, 0.52, "\(view.camera)")
            XCTAssertLessThan(F.mean(wall), 0.35, "\(view.camera)")
            let textured = Self.localDeviations(view, ids: ball)
            XCTAssertGreaterThan(textured.count, 200)
            F.record("\(view.camera) ball local sd mean", F.mean(textured))
            XCTAssertGreaterThan(F.mean(textured), 10, "\(view.camera): the ball is textured")
            let depth = view.depthValues()
            let wallDepths = depth.indices.filter { painted.contains(view.objectIDs[$0]) }.map { Double(depth[$0]) }
            XCTAssertTrue(wallDepths.allSatisfy(\.isFinite))
            if view.camera == .wide {
                XCTAssertEqual(wallDepths.min()!, 6, accuracy: 1e-4)
                XCTAssertEqual(wallDepths.max()!, 6, accuracy: 1e-4)
            }
        }
    }

    /// Per pixel whose 5x5 window shows only objects of `ids`: the largest of
    /// the three channels' standard deviations over the window.
    static func localDeviations(_ view: RenderedView, ids: Set<Int32>) -> [Double] {
        let (w, h) = (view.size.width, view.size.height)
        var result: [Double] = []
        for y in 2..<(h - 2) {
            for x in 2..<(w - 2) {
                guard (-2...2).allSatisfy({ dy in (-2...2).allSatisfy { ids.contains(view.objectIDs[(y + dy) * w + x + $0]) } })
                else { continue }
                result.append((0..<3).map { c in
                    F.standardDeviation((-2...2).flatMap { dy in (-2...2).map { view.image[x: x + $0, y: y + dy, channel: c] } })
                }.max()!)
            }
        }
        return result
    }

    /// Grille bars w metres wide at Z = 3 in front of a white wall at 5 m are
    /// f * w / Z pixels wide (f = 300 px): 2.0, 2.35 and 3.0 px (the bars are
    /// 0.4 mm deep, so their sides add under 0.01 px off axis; 10.37 px apart,
    /// so the 8 bars fall at different sub-pixel phases). Measured from the
    /// image (the darkness integral across each bar, 8x8 samples per pixel)
    /// within 0.06 px on average and 0.15 px per bar, and from the
    /// ground-truth object ids (bar pixels per row and bar).
    func testGrilleBarsAreFocalTimesWidthOverDepthPixelsWide() throws {
        let rig = try F.pinhole(width: 320, height: 240, f: 300)
        let front = 3 - 0.0002
        for barWidth in [0.02, 0.0235, 0.03] {
            let grille = Grille(center: Vector3(0.0123, 0, 3), widthMetres: 0.8, heightMetres: 1, verticalPitchMetres: 0.1037,
                                barWidthMetres: barWidth, barDepthMetres: 0.0004, appearance: .flat(.black))
            let scene = Scene(name: "grille", objects: grille.objects(name: "grille")
                + F.wall(.flat(.white), depth: 5).objects)
            let rows = 110..<130
            let view = try F.render(scene, rig: rig, conditions: .clean, samplesPerAxis: 8,
                                    region: RenderRegion(x: 0, y: rows.lowerBound, width: 320, height: rows.count))
            let expected = 300 * barWidth / front
            let k = try rig.camera(.wide).model.intrinsics
            var widths: [Double] = []
            for bar in grille.verticalBarCentres {
                let centre = Int((k.cx + 300 * bar / front).rounded())
                let width = rows.map { y in
                    ((centre - 4)...(centre + 4)).reduce(0.0) { $0 + (255 - view.image[x: $1, y: y, channel: 0]) / 255 }
                }
                widths.append(F.mean(width))
            }
            XCTAssertEqual(widths.count, 8)
            F.record("bar \(barWidth) m: mean image width, min, max, expected px", F.mean(widths), widths.min()!, widths.max()!, expected)
            XCTAssertEqual(F.mean(widths), expected, accuracy: 0.06, "bar width \(barWidth) m")
            for w in widths { XCTAssertEqual(w, expected, accuracy: 0.15) }
            let barPixels = rows.reduce(0) { n, y in n + (0..<320).filter { (0..<8).contains(view.objectIDs[y * 320 + $0]) }.count }
            XCTAssertEqual(Double(barPixels) / Double(8 * rows.count), expected, accuracy: 0.2, "ground-truth ids")
            let depth = view.depthValues()
            let barDepths = rows.flatMap { y in (0..<320).filter { (0..<8).contains(view.objectIDs[y * 320 + $0]) }.map { depth[y * 320 + $0] } }
            XCTAssertTrue(barDepths.allSatisfy { abs(Double($0) - front) < 1e-5 }, "bars' front faces at 2.9998 m")
        }
    }

    /// The office holds each element in both views (ground-truth object ids,
    /// pixels at 320x240): the tiled floor and wall panel, the painted back
    /// wall, the window grille in front of the facade 20 m away, the lamp
    /// pole, the cable, the textured objects. The pole (0.015 m square, 3 m
    /// ahead, 0.21 m left of the tele's centre) is f w / Z + f |X| w / Z^2 px
    /// wide in tele (front face plus the side it shows: 2.38 + 0.17 px); being
    /// vertical, it covers the same 2 or 3 pixel centres on every row (ground
    /// truth). The grille is co-visible; there are LiDAR samples.
    func testOfficeContainsEveryElementInBothViews() throws {
        let dataset = try Self.office.get()
        let pair = dataset.pairs[0]
        let scene = try SceneLibrary.scene(named: "office", options: .init())
        let names = scene.objects.map(\.name)
        func count(_ view: RenderedView, _ match: (String) -> Bool) -> Int {
            view.objectIDs.filter { $0 >= 0 && match(names[Int($0)]) }.count
        }
        let minimum: [(String, wide: Int, tele: Int)] = [
            ("floor tiles", 5000, 300), ("wall tiles", 300, 1500), ("painted back wall", 8000, 20000),
            ("window grille", 250, 1000), ("outside facade", 400, 2000), ("lamp pole", 100, 300), ("cable", 50, 150),
            ("ball", 500, 2000), ("books", 500, 2000), ("desk", 1000, 300), ("striped wallpaper", 3000, 0),
        ]
        for (prefix, wideMinimum, teleMinimum) in minimum {
            XCTAssertGreaterThanOrEqual(count(pair.wide, { $0.hasPrefix(prefix) }), wideMinimum, "wide \(prefix)")
            XCTAssertGreaterThanOrEqual(count(pair.tele, { $0.hasPrefix(prefix) }), teleMinimum, "tele \(prefix)")
        }
        XCTAssertEqual(names.filter { $0.hasPrefix("window grille") }.count, 13, "11 vertical + 2 horizontal bars")
        // Through the window: the facade's depth.
        let facade = Int32(names.firstIndex(of: "outside facade")!)
        let depths = pair.tele.depthValues()
        XCTAssertTrue(pair.tele.objectIDs.indices.filter { pair.tele.objectIDs[$0] == facade }.allSatisfy { depths[$0] > 19 })
        // The pole's width in tele, from ground truth.
        let pole = Int32(names.firstIndex(of: "lamp pole")!)
        let f = try dataset.calibration.rig.camera(.tele).model.intrinsics.fx
        let perRow = (0..<240).map { y in (0..<320).filter { pair.tele.objectIDs[y * 320 + $0] == pole }.count }.filter { $0 > 0 }
        XCTAssertGreaterThan(perRow.count, 100)
        let w = SceneLibrary.Office.poleWidthMetres
        let expected = f * w / 3 + f * 0.21 * w / 9
        F.record("office pole tele px per row: mean, expected", F.mean(perRow.map(Double.init)), expected)
        XCTAssertTrue(perRow.allSatisfy { Double($0) >= expected.rounded(.down) && Double($0) <= expected.rounded(.up) },
                      "\(Set(perRow)) vs \(expected)")
        // Ground truth works like the room's: co-visible grille, LiDAR samples.
        let grille = Set(names.indices.filter { names[$0].hasPrefix("window grille") }.map(Int32.init))
        XCTAssertGreaterThan(pair.wide.objectIDs.indices.filter { grille.contains(pair.wide.objectIDs[$0]) && pair.covisible[$0] }.count, 100)
        XCTAssertGreaterThan(pair.lidar.count, 300)
    }
}
