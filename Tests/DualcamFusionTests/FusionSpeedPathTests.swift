@testable import DualcamFusion
import DualcamOpenCV
import DualcamGeometry
import TestSupport
import XCTest

/// The fast paths behind `dualcam bench fuse` against plain reference
/// computations: the IRLS median's branch-free quickselect against a sort,
/// the sample verifier's plane fit against the array entry point, and the
/// hole fill on the holes' bounding box against the whole-image morphology.
final class FusionSpeedPathTests: XCTestCase {
    func testMedianMatchesSortedMiddleWithTiesAndOddAndEvenCounts() {
        var rng = SeededGenerator(seed: 6)
        for count in [1, 2, 3, 4, 5, 8, 17, 64, 255, 1000, 1001] {
            for levels in [3, 1000, 0] {
                // levels 3: many ties; 0: continuous values.
                let values = (0..<count).map { _ -> Double in
                    levels == 0 ? Double.random(in: 0..<1, using: &rng) : Double(Int.random(in: 0..<levels, using: &rng)) * 0.25
                }
                let sorted = values.sorted()
                let expected = count % 2 == 1 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2])
                XCTAssertEqual(ScaleShiftFitter.median(values), expected, "count \(count), levels \(levels)")
            }
        }
        XCTAssertEqual(ScaleShiftFitter.median([]), 0)
    }

    func testPlaneValueRecoversAPlaneWithOneOutlier() throws {
        // v = 0.5 + 0.01 x - 0.02 y on a 3x3 grid without its centre, one point off by 1.
        var points: [(Double, Double, Double)] = []
        for y in -1...1 {
            for x in -1...1 where x != 0 || y != 0 {
                points.append((Double(x), Double(y), 0.5 + 0.01 * Double(x) - 0.02 * Double(y) + (x == 1 && y == 1 ? 1 : 0)))
            }
        }
        let value = try XCTUnwrap(SampleVerifier.planeValue(points))
        XCTAssertEqual(value, 0.5, accuracy: 1e-9)
        XCTAssertNil(SampleVerifier.planeValue(Array(points.prefix(3))))
    }

    func testHoleFillOnTheHolesBoxMatchesTheWholeImage() throws {
        // A slanted surface (1/z from 0.2 to 1.1) with two holes: a 6x5 one and a single pixel.
        let size = PixelSize(width: 160, height: 120)
        var inverse = (0..<(size.width * size.height)).map { p in Float(0.2 + 0.9 * Double(p % size.width) / 160 + 0.001 * Double(p / size.width)) }
        var holes: [Int] = [37 * size.width + 101]
        for y in 50..<55 { for x in 60..<66 { holes.append(y * size.width + x) } }
        for p in holes { inverse[p] = .nan }
        let completion = try FusionCompletion(size: size, guideRGB: [UInt8](repeating: 128, count: size.width * size.height * 3))
        let filled = try completion.fillRemainingHoles(inverse, wideHoleSmoother: nil)
        let whole = FloatMaps.floats(try CVEdgeAware.morphologicalFill(
            sparseDepth: try FloatMaps.mat(inverse.map { $0.isFinite ? 1 / $0 : .nan }, size), maxDepth: 5))
        for p in holes {
            XCTAssertEqual(filled[p], 1 / whole[p], accuracy: 1e-5, "pixel \(p % size.width), \(p / size.width)")
        }
        for p in inverse.indices where inverse[p].isFinite { XCTAssertEqual(filled[p], inverse[p]) }
        XCTAssertEqual(try completion.fillRemainingHoles(filled, wideHoleSmoother: nil), filled, "nothing to fill")
    }
}
