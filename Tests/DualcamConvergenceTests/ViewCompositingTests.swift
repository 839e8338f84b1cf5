import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import TestSupport
import XCTest

/// Views: documented sizes, which camera is where, and the per-pixel rules.
final class ViewCompositingTests: XCTestCase {
    static func random(_ w: Int, _ h: Int, seed: UInt64, channels: Int = 3) throws -> Image {
        var g = SeededGenerator(seed: seed)
        return try Image(width: w, height: h, channels: channels,
                         pixels: (0..<(w * h * channels)).map { _ in UInt8.random(in: 0...255, using: &g) })
    }

    func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Double] {
        (0..<image.channels).map { image[x: x, y: y, channel: $0] }
    }

    func testSplitSideBySideBlendAnaglyphDifferenceChecker() throws {
        let w = 21, h = 13
        let a = try Self.random(w, h, seed: 1), b = try Self.random(w, h, seed: 2)

        let split = try ViewCompositing.split(a, b)
        XCTAssertEqual([split.width, split.height, split.channels], [w, h, 3])
        for y in 0..<h {
            for x in 0..<w {
                let seam = x == w / 2 - 1 || x == w / 2
                let expected = seam ? [255.0, 255, 255] : (x < w / 2 ? pixel(a, x, y) : pixel(b, x, y))
                XCTAssertEqual(pixel(split, x, y), expected, "split at (\(x), \(y))")
            }
        }
        let noSeam = try ViewCompositing.split(a, b, seamWidth: 0)
        XCTAssertEqual(pixel(noSeam, w / 2 - 1, 3), pixel(a, w / 2 - 1, 3))
        XCTAssertEqual(pixel(noSeam, w / 2, 3), pixel(b, w / 2, 3))

        let sbs = try ViewCompositing.sideBySide(a, b)
        XCTAssertEqual([sbs.width, sbs.height], [2 * w, h])
        XCTAssertEqual(try sbs.cropped(x: 0, y: 0, width: w, height: h), a)
        XCTAssertEqual(try sbs.cropped(x: w, y: 0, width: w, height: h), b)

        let blend = try ViewCompositing.blend(a, b)
        let anaglyph = try ViewCompositing.anaglyph(red: a, cyan: b)
        let difference = try ViewCompositing.difference(a, b)
        for y in 0..<h {
            for x in 0..<w {
                let pa = pixel(a, x, y), pb = pixel(b, x, y)
                XCTAssertEqual(pixel(blend, x, y), zip(pa, pb).map { (($0 + $1 + 1) / 2).rounded(.down) })
                XCTAssertEqual(pixel(anaglyph, x, y), [pa[0], pb[1], pb[2]])
                XCTAssertEqual(pixel(difference, x, y), zip(pa, pb).map { abs($0 - $1) })
            }
        }
        XCTAssertEqual(try ViewCompositing.difference(a, a).bytes.allSatisfy { $0 == 0 }, true)
        XCTAssertEqual(try ViewCompositing.blend(a, a), a)

        // Checker: tiles of round(min(W, H) / 8); the top-left tile is the first image.
        let big1 = try Self.random(64, 48, seed: 3), big2 = try Self.random(64, 48, seed: 4)
        XCTAssertEqual(ViewCompositing.defaultTile(width: 64, height: 48), 6)
        let checker = try ViewCompositing.checker(big1, big2)
        for y in 0..<48 {
            for x in 0..<64 {
                let first = (x / 6 + y / 6) % 2 == 0
                XCTAssertEqual(pixel(checker, x, y), pixel(first ? big1 : big2, x, y), "checker at (\(x), \(y))")
            }
        }
        XCTAssertEqual(try ViewCompositing.checker(big1, big2, tile: 100), big1)
    }

    func testInputsAreNormalisedOrRejected() throws {
        let grey = try Self.random(8, 6, seed: 5, channels: 1)
        let rgba = try Self.random(8, 6, seed: 6, channels: 4)
        let blend = try ViewCompositing.blend(grey, grey)
        XCTAssertEqual(blend.channels, 3)
        XCTAssertEqual(pixel(blend, 3, 2), Array(repeating: grey[x: 3, y: 2, channel: 0], count: 3))
        XCTAssertEqual(pixel(try ViewCompositing.difference(rgba, rgba), 1, 1), [0, 0, 0])
        XCTAssertEqual(pixel(try ViewCompositing.sideBySide(rgba, rgba), 1, 1), Array(pixel(rgba, 1, 1).prefix(3)))

        XCTAssertThrowsError(try ViewCompositing.blend(grey, try Self.random(8, 7, seed: 7))) {
            XCTAssertEqual("\($0)", "views need two images of one size, got 8x6 and 8x7")
        }
        XCTAssertThrowsError(try ViewCompositing.blend(grey.converted(to: .float32), grey)) {
            XCTAssertEqual("\($0)", "first image holds float32 values; views need 8-bit images")
        }
    }

    func testViewNames() throws {
        XCTAssertEqual(ConvergenceView.allCases.map(\.rawValue),
                       ["split", "side-by-side", "blend", "anaglyph", "difference", "checker", "aligned"])
        XCTAssertEqual(ConvergenceView.default, .split)
        XCTAssertEqual(try ConvergenceView(parsing: "Side-By-Side"), .sideBySide)
        XCTAssertThrowsError(try ConvergenceView(parsing: "stereo")) {
            XCTAssertEqual("\($0)", "unknown view 'stereo'; expected one of split, side-by-side, blend, anaglyph, difference, checker, aligned")
        }
        XCTAssertEqual(ConvergenceView.sideBySide.outputSize(canvas: PixelSize(width: 640, height: 480)),
                       PixelSize(width: 1280, height: 480))
        XCTAssertEqual(ConvergenceView.checker.outputSize(canvas: PixelSize(width: 640, height: 480)),
                       PixelSize(width: 640, height: 480))
    }

    /// `compose` puts the wide first (left, red, top-left tile) on both canvases,
    /// and fills the moving image's no-data pixels from the canvas camera.
    func testComposeOnBothCanvases() throws {
        let rig = try Fixtures.nominalRig()
        let scene = try Fixtures.plane(1.2)
        let d = try Distance(metres: 1.2)
        let tele = try ConvergenceWarp(rig: rig).register(wide: scene.wide.image, tele: scene.tele.image, distance: d)
        for view in ConvergenceView.allCases {
            let out = try ConvergenceViews.compose(view, tele)
            let size = view.outputSize(canvas: tele.canvasSize)
            XCTAssertEqual([out.width, out.height, out.channels], [size.width, size.height, 3], "\(view)")
            switch view {
            case .split:
                XCTAssertEqual(try out.cropped(x: 0, y: 0, width: 319, height: 480), try tele.wide.cropped(x: 0, y: 0, width: 319, height: 480))
                XCTAssertEqual(try out.cropped(x: 321, y: 0, width: 319, height: 480), try tele.tele.cropped(x: 321, y: 0, width: 319, height: 480))
            case .sideBySide:
                XCTAssertEqual(try out.cropped(x: 0, y: 0, width: 640, height: 480), tele.wide)
                XCTAssertEqual(try out.cropped(x: 640, y: 0, width: 640, height: 480), tele.tele)
            case .aligned:
                XCTAssertEqual(out, tele.wide)
            case .difference:
                // Registered: the mean difference is small, far below an unregistered pair's.
                let mean = ImageStatistics(out).mean!
                let unregistered = ImageStatistics(try ViewCompositing.difference(scene.wide.image, scene.tele.image)).mean!
                XCTAssertLessThan(mean, unregistered / 3, "difference \(mean) vs \(unregistered)")
            default:
                break
            }
        }

        let wide = try ConvergenceWarp(rig: rig, canvas: .wide).register(wide: scene.wide.image, tele: scene.tele.image, distance: d)
        let aligned = try ConvergenceViews.compose(.aligned, wide)
        let difference = try ConvergenceViews.compose(.difference, wide)
        for (x, y) in [(5, 5), (320, 240), (600, 50), (200, 300)] {
            let inside = wide.movingValid[x: x, y: y, channel: 0] != 0
            XCTAssertEqual(inside, (x, y) == (320, 240) || (x, y) == (200, 300), "tele coverage at (\(x), \(y))")
            XCTAssertEqual(pixel(aligned, x, y), pixel(inside ? wide.tele : wide.wide, x, y))
            if !inside { XCTAssertEqual(pixel(difference, x, y), [0, 0, 0]) }
        }
        let split = try ConvergenceViews.compose(.split, wide)
        XCTAssertEqual(pixel(split, 10, 10), pixel(wide.wide, 10, 10))
        XCTAssertEqual(pixel(split, 630, 10), pixel(wide.wide, 630, 10), "outside the tele view the wide shows")
        XCTAssertEqual(pixel(split, 400, 240), pixel(wide.tele, 400, 240))
    }
}
