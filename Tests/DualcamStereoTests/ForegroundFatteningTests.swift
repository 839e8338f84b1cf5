import DualcamOpenCV
import XCTest
@testable import DualcamStereo

/// `ForegroundFattening.remove`: on the half-occluded side, a run's end whose
/// colour continues the blank region towards a farther measurement of that
/// colour is fattened.
final class ForegroundFatteningTests: XCTestCase {
    /// The edge zone's default jump test (0.4 px or 4 %).
    static let jump = CVEdgeSnapParameters().isJump

    /// One grey row: a textured near surface (d = 10) at x 0..<10 whose
    /// disparity runs on over x 10..<13 of a blank wall (grey 200), holes on
    /// the wall at 13..<20, the wall measured (d = 5) from x 20.
    func row(farColour: UInt8 = 200, holeColour: (Int) -> UInt8 = { _ in 200 }, farDisparity: Float = 5)
        -> (d: [Float], c: [UInt8]) {
        var d = [Float](repeating: .nan, count: 30), c = [UInt8](repeating: 200, count: 30)
        for x in 0..<13 { d[x] = 10 }
        for x in 0..<10 { c[x] = UInt8(60 + 17 * (x % 5)) }
        for x in 13..<20 { c[x] = holeColour(x) }
        for x in 20..<30 { d[x] = farDisparity; c[x] = farColour }
        return (d, c)
    }

    /// Half-occlusions right of the nearer surface (the wall is on that side).
    func remove(_ r: (d: [Float], c: [UInt8]), occlusionSide: Int = 1) -> [Float] {
        ForegroundFattening.remove(r.d, width: r.d.count, height: 1, colour: r.c, channels: 1,
                                   occlusionSide: occlusionSide, jump: Self.jump)
    }

    func testTheWallPixelsCarryingTheNearDisparityAreRemoved() {
        let out = remove(row())
        XCTAssertEqual(out[0..<10].filter { $0 == 10 }.count, 10, "the near surface stays")
        XCTAssertTrue(out[10..<13].allSatisfy { $0.isNaN }, "the fattened wall pixels go")
        XCTAssertTrue(out[20..<30].allSatisfy { $0 == 5 }, "the far surface stays")
    }

    func testTheOtherSideIsLeftAlone() {
        XCTAssertEqual(remove(row(), occlusionSide: -1).filter { $0.isFinite }.count, 23)
        // The mirrored row on the left-occlusion side loses the same pixels.
        let r = row(), mirrored = (d: Array(r.d.reversed()), c: Array(r.c.reversed()))
        XCTAssertEqual(Array(remove(mirrored, occlusionSide: -1).reversed()).map { $0.isNaN },
                       remove(r).map { $0.isNaN })
    }

    func testAFarMeasurementOfAnotherColourIsNoBlankSurface() {
        XCTAssertEqual(remove(row(farColour: 120)).filter { $0.isFinite }.count, 23)
    }

    func testATexturedFarSideKeepsTheRun() {
        XCTAssertEqual(remove(row(holeColour: { UInt8(150 + 20 * ($0 % 3)) })).filter { $0.isFinite }.count, 23)
    }

    func testWithoutADepthEdgeNothingIsRemoved() {
        // The measurement beyond the holes is the same surface.
        XCTAssertEqual(remove(row(farDisparity: 10)).filter { $0.isFinite }.count, 23)
        // Nothing measured beyond: no edge known.
        var r = row()
        for x in 20..<30 { r.d[x] = .nan }
        XCTAssertEqual(remove(r).filter { $0.isFinite }.count, 13)
    }
}
