import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import XCTest

/// The split view composed straight from the inputs (`ConvergenceWarp.view`,
/// only the visible halves resampled) is byte for byte the split of the
/// registered pair, on both canvases: the tele canvas (the wide warped in,
/// all valid) and the wide canvas (the wide undistorted, the tele covering
/// only its middle, so the mask path runs).
final class SplitViewTests: XCTestCase {
    func testComposedSplitEqualsTheSplitOfTheRegisteredPair() throws {
        let scene = try Fixtures.room()
        for canvas in ConvergenceCanvas.allCases {
            let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig(), canvas: canvas)
            for metres in [0.5, 1.2, 6.0] {
                let d = try Distance(metres: metres)
                let pair = try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: d)
                let expected = try ConvergenceViews.compose(.split, pair)
                let fused = try warp.view(.split, wide: scene.wide.image, tele: scene.tele.image, distance: d)
                XCTAssertEqual(fused, expected, "\(canvas) canvas at \(d)")
                if canvas == .wide { XCTAssertFalse(pair.movingFullyValid, "the tele covers part of the wide canvas") }
            }
        }
        // Other views and grey inputs take the general path, same result.
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig())
        let d = try Distance(metres: 1.2)
        let grey = try ImageOps.convertToGray(scene.wide.image), greyTele = try ImageOps.convertToGray(scene.tele.image)
        XCTAssertEqual(try warp.view(.split, wide: grey, tele: greyTele, distance: d),
                       try ConvergenceViews.compose(.split, try warp.register(wide: grey, tele: greyTele, distance: d)))
        XCTAssertEqual(try warp.view(.anaglyph, wide: scene.wide.image, tele: scene.tele.image, distance: d),
                       try ConvergenceViews.compose(.anaglyph, try warp.register(wide: scene.wide.image, tele: scene.tele.image, distance: d)))
    }
}
