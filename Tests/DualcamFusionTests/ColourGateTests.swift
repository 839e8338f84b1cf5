import DualcamGeometry
import DualcamOpenCV
import XCTest
@testable import DualcamFusion

/// `ColourGate`: measurements and planes count only for pixels of their colour.
final class ColourGateTests: XCTestCase {
    /// A guide whose left `split` full-size columns are blue and the rest grey.
    static func twoColourGate(width: Int, height: Int, split: Int) throws -> ColourGate {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c: [UInt8] = x < split ? [60, 90, 200] : [128, 128, 128]
                for k in 0..<3 { rgb[3 * (y * width + x) + k] = c[k] }
            }
        }
        let size = PixelSize(width: width, height: height)
        let half = PixelSize(width: (width + 1) / 2, height: (height + 1) / 2)
        let halfGuide = try CVImgproc.resize(try FloatMaps.mat(bytes: rgb, channels: 3, size), width: half.width, height: half.height,
                                             interpolation: .area)
        return try ColourGate(halfGuide: halfGuide, blurSigma: 1, softness: 4)
    }

    /// A node at (x, y) of the half grid with the constant plane c.
    static func node(_ x: Int, _ y: Int, width: Int, c: Double) -> PlaneExtrapolation.Node {
        PlaneExtrapolation.Node(index: y * width + x, x: x, y: y, a: 0, b: 0, c: c, weight: 1)
    }

    /// A grey cell right of a blue object takes the farther grey planes, not
    /// the nearer blue ones (which a spread by distance alone would give it).
    func testSpreadTakesThePlanesOfItsOwnColour() throws {
        let gate = try Self.twoColourGate(width: 120, height: 40, split: 40)  // half grid 60x20, blue x < 20
        let hw = 60
        var nodes: [PlaneExtrapolation.Node] = []
        for y in 0..<20 {
            for x in 10..<18 { nodes.append(Self.node(x, y, width: hw, c: 0.9)) }  // blue, 6-13 cells from the test cell
            for x in 44..<52 { nodes.append(Self.node(x, y, width: hw, c: 0.2)) }  // grey, 20-27 cells away
        }
        var want = [Bool](repeating: false, count: hw * 20)
        want[10 * hw + 24] = true
        let sums = gate.spread(nodes, want: want, sigma: 6, radius: 40, stride: 1)
        let q = 10 * hw + 24
        XCTAssertGreaterThan(sums.weight[q], 0)
        XCTAssertEqual(sums.c[q] / sums.weight[q], 0.2, accuracy: 0.01)
        // By distance alone (one colour everywhere) the blue planes win.
        let plain = try Self.twoColourGate(width: 120, height: 40, split: 0)
        let mixed = plain.spread(nodes, want: want, sigma: 6, radius: 40, stride: 1)
        XCTAssertGreaterThan(mixed.c[q] / mixed.weight[q], 0.8)
        // Cells not wanted are left at zero; a stride keeps only grid nodes.
        XCTAssertEqual(sums.weight[10 * hw + 30], 0)
        let strided = gate.spread(nodes, want: want, sigma: 6, radius: 40, stride: 4)
        XCTAssertEqual(strided.c[q] / strided.weight[q], 0.2, accuracy: 0.01)
    }

    /// A measurement supports the cells of its colour within the reach, and no others.
    func testSupportNeedsAMeasurementOfTheSameColour() throws {
        let gate = try Self.twoColourGate(width: 120, height: 40, split: 40)
        let hw = 60, n = hw * 20
        var source = [Bool](repeating: false, count: n)
        source[10 * hw + 16] = true  // a blue measurement 4 cells left of the colour edge
        let candidate = [Bool](repeating: true, count: n)
        let supported = gate.supported(candidate: candidate, source: source, reach: 8, tolerance: 2)
        XCTAssertTrue(supported[10 * hw + 12], "blue, 4 cells away")
        XCTAssertTrue(supported[4 * hw + 16], "blue, 6 cells away")
        XCTAssertFalse(supported[10 * hw + 22], "grey, 6 cells away: across the edge")
        XCTAssertFalse(supported[10 * hw + 6], "blue, 10 cells away: beyond the reach")
        // Only candidates are tested.
        var some = [Bool](repeating: false, count: n)
        some[10 * hw + 12] = true
        XCTAssertEqual(gate.supported(candidate: some, source: source, reach: 8, tolerance: 2).filter { $0 }.count, 1)
    }
}
