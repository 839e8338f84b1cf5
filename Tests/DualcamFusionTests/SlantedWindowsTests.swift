@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `SlantedWindows`: the relabelling keeps its changes at depth steps and
/// takes them back on slanted planes.
final class SlantedWindowsTests: XCTestCase {
    let size = PixelSize(width: 12, height: 8)

    /// 1/z = 0.2 + 0.01 x: a 5x5 window spans 0.24 / 0.2, a 20 % depth
    /// ratio (above the relabelling's 15 %), on one plane.
    func slanted() -> [Float] {
        (0..<(size.width * size.height)).map { p in 1 / (0.2 + 0.01 * Float(p % size.width)) }
    }

    /// A step from 2 m to 3 m at x = 6.
    func step() -> [Float] {
        (0..<(size.width * size.height)).map { p in p % size.width < 6 ? 2 : 3 }
    }

    func testPlaneIsSlantedAndStepIsNot() {
        let guardTest = SlantedWindows(size: size, radius: 2, tolerance: 0.03)
        let plane = slanted().map { 1 / $0 }, edge = step().map { 1 / $0 }
        plane.withUnsafeBufferPointer { XCTAssertTrue(guardTest.isSlanted($0, x: 5, y: 3)) }
        // Clamped at the border, still one plane.
        plane.withUnsafeBufferPointer { XCTAssertTrue(guardTest.isSlanted($0, x: 0, y: 0)) }
        edge.withUnsafeBufferPointer { XCTAssertFalse(guardTest.isSlanted($0, x: 5, y: 3)) }
        // Noise within the tolerance keeps a plane a plane; beyond it does not.
        var noisy = plane
        noisy[3 * size.width + 5] *= 1.02
        noisy.withUnsafeBufferPointer { XCTAssertTrue(guardTest.isSlanted($0, x: 5, y: 3)) }
        noisy[3 * size.width + 5] *= 1.05
        noisy.withUnsafeBufferPointer { XCTAssertFalse(guardTest.isSlanted($0, x: 5, y: 3)) }
        var missing = plane
        missing[2 * size.width + 4] = .nan
        missing.withUnsafeBufferPointer { XCTAssertFalse(guardTest.isSlanted($0, x: 5, y: 3)) }
    }

    func testRestoresChangesOnPlanesOnly() {
        let guardTest = SlantedWindows(size: size, radius: 2, tolerance: 0.03)
        for (original, restored) in [(slanted(), true), (step(), false)] {
            var depth = original
            let p = 3 * size.width + 5
            depth[p] = 10
            guardTest.restore(&depth, original: original)
            XCTAssertEqual(depth[p], restored ? original[p] : 10)
        }
    }
}
