@testable import DualcamFusion
import TestSupport
import XCTest

/// The fast paths behind `dualcam bench fuse` against plain reference
/// computations: the IRLS median's branch-free quickselect against a sort,
/// and the sample verifier's plane fit against the array entry point.
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
}
