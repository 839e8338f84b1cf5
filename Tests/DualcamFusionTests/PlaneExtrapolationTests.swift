import XCTest
@testable import DualcamFusion

final class PlaneExtrapolationTests: XCTestCase {
    /// `within` is a Chebyshev dilation: a square of side 2 r + 1 about each
    /// true cell, clipped at the borders.
    func testWithinIsTheChebyshevNeighbourhood() {
        let width = 9, height = 7
        var mask = [Bool](repeating: false, count: width * height)
        mask[3 * width + 4] = true  // (4, 3)
        mask[0 * width + 8] = true  // (8, 0): a corner
        let out = PlaneExtrapolation.within(2, of: mask, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let expected = (abs(x - 4) <= 2 && abs(y - 3) <= 2) || (abs(x - 8) <= 2 && y <= 2)
                XCTAssertEqual(out[y * width + x], expected, "(\(x), \(y))")
            }
        }
        XCTAssertEqual(PlaneExtrapolation.within(3, of: [Bool](repeating: false, count: 12), width: 4, height: 3),
                       [Bool](repeating: false, count: 12))
    }
}
