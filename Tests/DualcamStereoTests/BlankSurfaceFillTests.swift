import XCTest
@testable import DualcamStereo

/// The fill of blank surfaces: gaps too wide for a half-occlusion, segments
/// by colour, and the robust plane of each segment's measured border.
final class BlankSurfaceFillTests: XCTestCase {
    /// One row: a 6 px gap between disparities 10 and 7 (jump 3) is a
    /// half-occlusion (6 <= 2 x 3 + 0); a 12 px gap between 7 and 6 (jump 1)
    /// is not; a gap at the row's end counts as wide past the margin.
    func testWideGapsAreThoseNoHalfOcclusionExplains() {
        let nan = Float.nan
        var row = [Float](repeating: nan, count: 30)
        row[0] = 10
        for x in 7...8 { row[x] = 7 }
        row[21] = 6
        row[22] = 6
        let wide = WideGaps.mask(row, width: 30, keep: [Bool](repeating: true, count: 30), scale: 1, margin: 0)
        XCTAssertEqual(wide[1...6].filter { $0 }.count, 0, "the half-occlusion beside the jump of 3")
        XCTAssertEqual(wide[9...20].filter { $0 }.count, 12, "12 px between 7 and 6")
        XCTAssertEqual(wide[23...29].filter { $0 }.count, 7, "the gap reaching the row's end")
        let withMargin = WideGaps.mask(row, width: 30, keep: [Bool](repeating: true, count: 30), scale: 1, margin: 12)
        XCTAssertFalse(withMargin.contains(true), "no gap is wider than 12 px plus twice its jump")
    }

    /// Support on one plane (a wall seen at a slight angle) plus an
    /// occluder's rims at a larger disparity that outnumber it two to one,
    /// and a few stray values: the fit returns the far plane, slopes included.
    func testPlaneFitTakesTheSurfaceBehindItsOccludersRims() throws {
        func plane(_ x: Double, _ y: Double) -> Double { 4 + 0.002 * x - 0.001 * y }
        var points = [SupportPlane.Point]()
        for k in 0..<60 {  // the surface's own border: a rectangle's outline
            let t = Double(k) / 60
            let (x, y) = k < 30 ? (200 * t * 2, k % 2 == 0 ? 0.0 : 100) : (k % 2 == 0 ? 0.0 : 200, 100 * (t - 0.5) * 2)
            points.append(.init(x: x, y: y, d: plane(x, y) + (k % 3 == 0 ? 0.03 : -0.02), w: 0.8))
        }
        for k in 0..<100 {  // rims beside an occluder at disparity 9 (twice the border's weight)
            points.append(.init(x: 90 + Double(k % 3), y: Double(k), d: 9 + 0.05 * Double(k % 5), w: 1))
        }
        for k in 0..<5 { points.append(.init(x: Double(k) * 40, y: 50, d: 1 + 2 * Double(k), w: 1)) }
        let fit = try XCTUnwrap(SupportPlane.fit(points, scale: 0.1))
        for (x, y) in [(0.0, 0.0), (200.0, 0.0), (100.0, 50.0), (0.0, 100.0)] {
            XCTAssertEqual(Double(fit.value(x: x, y: y)), plane(x, y), accuracy: 0.05, "at (\(x), \(y))")
        }
    }

    func testPlaneFitNeedsEnoughSupport() {
        let few = (0..<(SupportPlane.minimumSupport - 1)).map { SupportPlane.Point(x: Double($0), y: 0, d: 3, w: 1) }
        XCTAssertNil(SupportPlane.fit(few, scale: 0.1))
        XCTAssertNotNil(SupportPlane.fit(few + [.init(x: 0, y: 1, d: 3, w: 1)], scale: 0.1))
    }

    /// A 60x40 grey map: a blank wall (level 100) at disparity 2 + 0.02 x
    /// measured only along its left and right edges, a blank box (level 200)
    /// at disparity 8 in front of it with a measured outline, and a ceiling
    /// strip (level 150) above a dark line with its own measured edge at 1.5.
    /// Each blank region takes its own surface, not its neighbours'.
    func testEachBlankRegionTakesItsOwnBorderPlane() {
        let w = 60, h = 40
        var colour = [UInt8](repeating: 100, count: w * h)
        var values = [Float](repeating: .nan, count: w * h)
        func wall(_ x: Int) -> Float { 2 + 0.02 * Float(x) }
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if y < 6 { colour[i] = 150 }  // ceiling
                if y == 6 { colour[i] = 20 }  // the corner line
                if (22..<38).contains(x) && (18..<32).contains(y) { colour[i] = 200 }  // box
                if y > 6, x < 2 || x >= w - 2 { values[i] = wall(x) }
                if y < 6, x < 2 { values[i] = 1.5 }
                let onBoxOutline = (x == 22 || x == 37) && (18..<32).contains(y) || (y == 18 || y == 31) && (22..<38).contains(x)
                if onBoxOutline { values[i] = 8 }
            }
        }
        let keep = [Bool](repeating: true, count: w * h)
        let wide = WideGaps.mask(values, width: w, keep: keep, scale: 1, margin: 4)
        let fill = BlankSurfaceFill(width: w, height: h, colour: colour, channels: 1)
        let out = fill.fill(values: values, confidence: [Float](repeating: 1, count: w * h), target: wide, scale: 0.1)
        XCTAssertEqual(out[12 * w + 30], wall(30), accuracy: 0.02, "the wall above the box")
        XCTAssertEqual(out[35 * w + 10], wall(10), accuracy: 0.02, "the wall beside the box")
        XCTAssertEqual(out[25 * w + 30], 8, accuracy: 0.02, "the box's face")
        XCTAssertEqual(out[3 * w + 40], 1.5, accuracy: 0.02, "the ceiling")
        XCTAssertTrue(out[25 * w + 0].isNaN, "measured pixels are not filled")
    }
}
