import DualcamImaging
import XCTest

final class MaskDilationTests: XCTestCase {
    /// `MaskDilation.dilated` is a Chebyshev dilation: a square of side 2 r + 1 about each
    /// true cell, clipped at the borders.
    func testDilationIsTheChebyshevNeighbourhood() {
        let width = 9, height = 7
        var mask = [Bool](repeating: false, count: width * height)
        mask[3 * width + 4] = true  // (4, 3)
        mask[0 * width + 8] = true  // (8, 0): a corner
        let out = MaskDilation.dilated(mask, width: width, height: height, radius: 2)
        for y in 0..<height {
            for x in 0..<width {
                let expected = (abs(x - 4) <= 2 && abs(y - 3) <= 2) || (abs(x - 8) <= 2 && y <= 2)
                XCTAssertEqual(out[y * width + x], expected, "(\(x), \(y))")
            }
        }
        XCTAssertEqual(MaskDilation.dilated([Bool](repeating: false, count: 12), width: 4, height: 3, radius: 3),
                       [Bool](repeating: false, count: 12))
    }
}
