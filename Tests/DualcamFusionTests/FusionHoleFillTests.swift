import DualcamOpenCV
@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `FusionCompletion.fillWideHoles`: holes far from any value take the
/// half-resolution fill of the values around them, within their surface.
final class FusionHoleFillTests: XCTestCase {
    let size = PixelSize(width: 160, height: 120)
    let smoother = CVEdgeAware.SmootherParameters(lambda: 2400, sigmaColor: 12, iterations: 2)

    /// Left half red at inverse depth 0.2 (5 m), right half blue at 1.0 (1 m).
    func twoSurfaces() -> (guide: [UInt8], inverse: [Float]) {
        var guide = [UInt8](repeating: 0, count: size.width * size.height * 3)
        var inverse = [Float](repeating: 0, count: size.width * size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = y * size.width + x, left = x < size.width / 2
                guide[3 * p] = left ? 200 : 30
                guide[3 * p + 2] = left ? 30 : 200
                inverse[p] = left ? 0.2 : 1.0
            }
        }
        return (guide, inverse)
    }

    func testAWideHoleTakesItsOwnSurfaceAndTheRimIsLeftAlone() throws {
        let (guide, surfaces) = twoSurfaces()
        var inverse = surfaces
        // A 24x24 hole in the left surface touching the boundary at x = 80.
        var hole: [Int] = []
        for y in 40..<64 { for x in 56..<80 { hole.append(y * size.width + x) } }
        for p in hole { inverse[p] = .nan }
        let completion = try FusionCompletion(size: size, guideRGB: guide)
        let out = try completion.fillWideHoles(inverse, smoother: smoother)
        var filled = 0
        for p in hole {
            let x = p % size.width, y = p / size.width
            let rim = min(x - 56, 79 - x, y - 40, 63 - y) < 2
            if rim {
                XCTAssertTrue(out[p].isNaN, "rim pixel \(x),\(y) is left to the last resort")
            } else if out[p].isFinite {
                filled += 1
                XCTAssertEqual(out[p], 0.2, accuracy: 0.01, "pixel \(x),\(y) takes the red surface, not the blue one next to it")
            }
        }
        XCTAssertGreaterThan(filled, 20 * 20 - 8, "the hole's interior is filled")
        for p in inverse.indices where inverse[p].isFinite { XCTAssertEqual(out[p], inverse[p]) }
    }

    func testScatteredHolesAreLeftToTheLastResort() throws {
        let (guide, clean) = twoSurfaces()
        var inverse = clean
        for p in stride(from: 7, to: inverse.count, by: 97) { inverse[p] = .nan }
        let completion = try FusionCompletion(size: size, guideRGB: guide)
        let out = try completion.fillWideHoles(inverse, smoother: smoother)
        XCTAssertEqual(out.map { $0.isNaN }, inverse.map { $0.isNaN })
        XCTAssertEqual(try completion.fillWideHoles(clean, smoother: smoother), clean, "nothing to fill")
    }
}
