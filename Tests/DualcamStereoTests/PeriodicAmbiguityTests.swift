import XCTest
@testable import DualcamStereo

/// `PeriodicAmbiguity` on small rectified pairs built here: a periodic
/// pattern, a random texture, and a window across a depth edge.
final class PeriodicAmbiguityTests: XCTestCase {
    static let width = 320, height = 128

    /// A deterministic pseudo-random grey texture, smoothed a little so that
    /// the coarse images keep contrast.
    static func randomTexture(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 33) / Double(1 << 31)
        }
        let coarse = (0..<((width / 4 + 2) * (height / 4 + 2))).map { _ in next() }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                out[y * width + x] = UInt8(40 + 170 * coarse[(y / 4) * (width / 4 + 2) + x / 4])
            }
        }
        return out
    }

    /// Vertical stripes, `period` px, of `phase` px offset.
    static func stripes(width: Int, height: Int, period: Int, phase: Int) -> [UInt8] {
        (0..<(width * height)).map { i in ((i % width + phase) / (period / 2)) % 2 == 0 ? 40 : 210 }
    }

    /// The other (left) view of `reference` (the right view) at disparity
    /// `d`: x_left = x + d.
    static func shifted(_ reference: [UInt8], width: Int, by d: (Int, Int) -> Int) -> [UInt8] {
        var out = [UInt8](repeating: 128, count: reference.count)
        for y in 0..<(reference.count / width) {
            for x in 0..<width {
                let xr = x - d(x, y)
                if xr >= 0 && xr < width { out[y * width + x] = reference[y * width + xr] }
            }
        }
        return out
    }

    func flaggedShare(reference: [UInt8], other: [UInt8], measured: Float, inside: (Int, Int) -> Bool = { _, _ in true },
                      otherIsLeft: Bool = true, search: (min: Int, count: Int) = (0, 96),
                      parameters: PeriodicAmbiguity.Parameters = .init()) -> Double {
        flaggedShare(reference: reference, other: other, measured: { _, _ in measured }, inside: inside,
                     otherIsLeft: otherIsLeft, search: search, parameters: parameters)
    }

    /// The share of the pixels `inside` (within the test's central area)
    /// flagged, with the measured disparity `measured(x, y)`.
    func flaggedShare(reference: [UInt8], other: [UInt8], measured: (Int, Int) -> Float,
                      inside: (Int, Int) -> Bool = { _, _ in true }, otherIsLeft: Bool = true,
                      search: (min: Int, count: Int) = (0, 96), parameters: PeriodicAmbiguity.Parameters = .init()) -> Double {
        let (w, h) = (Self.width, Self.height)
        let disparity = (0..<(w * h)).map { measured($0 % w, $0 / w) }
        let flags = PeriodicAmbiguity.ambiguous(reference: reference, other: other, width: w, height: h, disparity: disparity,
                                                otherIsLeft: otherIsLeft, search: search, parameters: parameters)
        var n = 0, flagged = 0
        for y in 40..<(h - 40) {
            for x in 100..<(w - 100) where inside(x, y) {
                n += 1
                if flags[y * w + x] { flagged += 1 }
            }
        }
        return Double(flagged) / Double(n)
    }

    /// Stripes of period 32 px at disparity 20: the other view matches as
    /// well at 52 and 84, so the measurement (right or a period off) is
    /// ambiguous.
    func testPeriodicPatternIsAmbiguous() {
        let reference = Self.stripes(width: Self.width, height: Self.height, period: 32, phase: 0)
        let other = Self.shifted(reference, width: Self.width) { _, _ in 20 }
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: 20), 0.9)
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: 52), 0.9)
    }

    /// The same with the left view as the reference (the other view is the
    /// right one: x_right = x - d) and a search starting below zero, as
    /// `depth` runs a same-lens pair; and the distinct-peak condition is live:
    /// with a valley no curve can have, nothing is flagged.
    func testPeriodicPatternIsAmbiguousFromTheLeftView() {
        let reference = Self.stripes(width: Self.width, height: Self.height, period: 32, phase: 5)
        var other = [UInt8](repeating: 128, count: reference.count)
        for y in 0..<Self.height { for x in 20..<Self.width { other[y * Self.width + x - 20] = reference[y * Self.width + x] } }
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: 20, otherIsLeft: false, search: (-2, 96)), 0.9)
        var noValley = PeriodicAmbiguity.Parameters()
        noValley.dip = 3
        XCTAssertEqual(flaggedShare(reference: reference, other: other, measured: 20, otherIsLeft: false, search: (-2, 96),
                                    parameters: noValley), 0)
    }

    /// The sign convention matters: on a random texture, with the two
    /// structural conditions off (no valley, no self-similarity), the true
    /// disparity is a clear single peak; read with the wrong sign the curve
    /// is noise around the measurement, and nearly every window is flagged.
    func testDisparitySignConvention() {
        let reference = Self.randomTexture(width: Self.width, height: Self.height, seed: 3)
        let other = Self.shifted(reference, width: Self.width) { _, _ in 24 }
        var bare = PeriodicAmbiguity.Parameters()
        bare.dip = 0
        bare.selfSimilarity = -2
        XCTAssertEqual(flaggedShare(reference: reference, other: other, measured: 24, parameters: bare), 0)
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: 24, otherIsLeft: false, parameters: bare), 0.5)
    }

    /// A random texture matches at one disparity only: nothing flagged,
    /// neither at the true disparity nor with the test's thresholds at
    /// their loosest sensible values.
    func testRandomTextureIsNotAmbiguous() {
        let reference = Self.randomTexture(width: Self.width, height: Self.height, seed: 7)
        let other = Self.shifted(reference, width: Self.width) { _, _ in 24 }
        XCTAssertEqual(flaggedShare(reference: reference, other: other, measured: 24), 0)
        var loose = PeriodicAmbiguity.Parameters()
        loose.margin = 0.2
        XCTAssertEqual(flaggedShare(reference: reference, other: other, measured: 24, parameters: loose), 0)
    }

    /// A window across a depth edge has two peaks, one per surface, but the
    /// reference does not repeat at their lag: not ambiguous. Without the
    /// self-similarity test the same windows are flagged, so the test is
    /// what keeps them.
    func testDepthEdgeIsNotAmbiguous() {
        let reference = Self.randomTexture(width: Self.width, height: Self.height, seed: 11)
        // Left half at disparity 12, right half at 44 (a nearer surface).
        let other = Self.shifted(reference, width: Self.width) { x, _ in x < 160 + 12 ? 12 : 44 }
        let nearEdge: (Int, Int) -> Bool = { x, _ in abs(x - 160) < 24 }
        XCTAssertLessThan(flaggedShare(reference: reference, other: other, measured: 12, inside: nearEdge), 0.05)
        // The same with each surface measured at its own disparity: the
        // self-similarity test then reads each window's own surface only,
        // which does not repeat either.
        XCTAssertLessThan(flaggedShare(reference: reference, other: other, measured: { x, _ in x < 172 ? 12 : 44 },
                                       inside: nearEdge), 0.05)
        var noSelfTest = PeriodicAmbiguity.Parameters()
        noSelfTest.selfSimilarity = -2
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: 12, inside: nearEdge, parameters: noSelfTest), 0.2)
    }

    /// A pattern beside another surface (a chessboard's border): the
    /// windows of the pattern's measurements near the border reach across
    /// it. The reference repeats on the pattern's side only, which the
    /// self-similarity test reads when the other side is measured at its own
    /// disparity (most of those windows flagged); counting the other side's
    /// cells as the pattern's (one disparity everywhere) flags almost none.
    func testPatternBesideAnotherSurfaceIsAmbiguous() {
        let (w, h) = (Self.width, Self.height)
        let stripes = Self.stripes(width: w, height: h, period: 32, phase: 0)
        // A binary texture: more contrast than the stripes, so that it weighs
        // in a window that reaches across.
        let texture = Self.randomTexture(width: w, height: h, seed: 5).map { $0 < 125 ? UInt8(0) : 255 }
        let edge = 170
        // Stripes left of the edge at disparity 20, a random texture right of
        // it at 70 (between the stripes' peaks at 52 and 84).
        let reference = (0..<(w * h)).map { $0 % w < edge ? stripes[$0] : texture[$0] }
        // The other (left) view, x_left = x + d: the stripes continue behind
        // the nearer texture.
        let other = (0..<(w * h)).map { i -> UInt8 in
            let x = i % w
            return x - 70 >= edge ? texture[i - 70] : (x >= 20 ? stripes[i - 20] : 128)
        }
        let besideEdge: (Int, Int) -> Bool = { x, _ in x >= edge - 12 && x < edge }
        let surfaces = flaggedShare(reference: reference, other: other, measured: { x, _ in x < edge ? 20 : 70 },
                                    inside: besideEdge)
        let oneDisparity = flaggedShare(reference: reference, other: other, measured: { _, _ in 20 }, inside: besideEdge)
        print("pattern beside another surface: flagged \(surfaces) with both surfaces measured, \(oneDisparity) with one disparity")
        XCTAssertGreaterThan(surfaces, 0.5)
        XCTAssertLessThan(oneDisparity, 0.1)
    }

    /// A small island of the pattern matched a period off (stripes at 20,
    /// a 24x24 px island measured at 52): leaving the rest of its window out
    /// as another surface would leave too little to test, so the whole
    /// window decides, and the island is flagged.
    func testIslandAPeriodOffIsAmbiguous() {
        let (w, h) = (Self.width, Self.height)
        let reference = Self.stripes(width: w, height: h, period: 32, phase: 0)
        let other = Self.shifted(reference, width: w) { _, _ in 20 }
        let island: (Int, Int) -> Bool = { x, y in (148..<172).contains(x) && (52..<76).contains(y) }
        XCTAssertGreaterThan(flaggedShare(reference: reference, other: other, measured: { x, y in island(x, y) ? 52 : 20 },
                                          inside: island), 0.9)
    }

    /// No measurement, a blank image or a search too short for a second
    /// peak: nothing flagged, and the result covers every pixel.
    func testNothingToTest() {
        let (w, h) = (Self.width, Self.height)
        let stripes = Self.stripes(width: w, height: h, period: 32, phase: 0)
        let none = PeriodicAmbiguity.ambiguous(reference: stripes, other: stripes, width: w, height: h,
                                               disparity: [Float](repeating: .nan, count: w * h), otherIsLeft: true,
                                               search: (min: 0, count: 96))
        XCTAssertEqual(none.count, w * h)
        XCTAssertFalse(none.contains(true))
        let blank = [UInt8](repeating: 100, count: w * h)
        XCTAssertFalse(PeriodicAmbiguity.ambiguous(reference: blank, other: blank, width: w, height: h,
                                                   disparity: [Float](repeating: 8, count: w * h), otherIsLeft: true,
                                                   search: (min: 0, count: 96)).contains(true))
        XCTAssertFalse(PeriodicAmbiguity.ambiguous(reference: stripes, other: stripes, width: w, height: h,
                                                   disparity: [Float](repeating: 4, count: w * h), otherIsLeft: true,
                                                   search: (min: 0, count: 8)).contains(true))
        XCTAssertFalse(PeriodicAmbiguity.ambiguous(reference: Array(stripes.prefix(40 * 20)), other: Array(stripes.prefix(40 * 20)),
                                                   width: 40, height: 20, disparity: [Float](repeating: 4, count: 800),
                                                   otherIsLeft: true, search: (min: 0, count: 32)).contains(true))
    }

    /// Out-of-range parameters: `StereoDepthOptions.validate` names them in one
    /// line, and the test itself flags nothing instead of dividing by zero.
    func testInvalidParametersAreRefused() {
        var options = StereoDepthOptions()
        options.periodicAmbiguity?.factor = 0
        XCTAssertThrowsError(try options.validate()) { error in
            XCTAssertTrue("\(error)".contains("periodic ambiguity"), "\(error)")
        }
        options.periodicAmbiguity = PeriodicAmbiguity.Parameters()
        options.periodicAmbiguity?.margin = -.infinity
        XCTAssertThrowsError(try options.validate())
        options.periodicAmbiguity = nil
        XCTAssertNoThrow(try options.validate())
        var zero = PeriodicAmbiguity.Parameters()
        zero.factor = 0
        let stripes = Self.stripes(width: Self.width, height: Self.height, period: 32, phase: 0)
        XCTAssertFalse(PeriodicAmbiguity.ambiguous(reference: stripes, other: stripes, width: Self.width, height: Self.height,
                                                   disparity: [Float](repeating: 4, count: stripes.count), otherIsLeft: true,
                                                   search: (min: 0, count: 96), parameters: zero).contains(true))
    }

    /// The curve's reading, on hand-built curves (in a slice not starting at
    /// 0, as the curves of later cells are): a distinct second peak gives its
    /// lag; unknown values in the valley or around the measurement decide
    /// nothing; and a peak the self-similarity test refuses does not hide a
    /// later one it takes.
    func testSecondPeakOnBuiltCurves() {
        let p = PeriodicAmbiguity.Parameters()
        let periodic: [Float] = [0.2, 0.95, 0.1, -0.6, -0.8, -0.5, 0.2, 0.94, 0.1, -0.7]
        let padded = [Float](repeating: 0, count: 7) + periodic
        let curve = padded[7...]
        XCTAssertEqual(PeriodicAmbiguity.secondPeakLag(curve, measured: 1, parameters: p), 6)
        XCTAssertEqual(PeriodicAmbiguity.secondPeakLag(curve, measured: 7.2, parameters: p), -6)
        var gap = periodic
        gap[4] = .nan
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(gap[...], measured: 1, parameters: p))
        var blind = periodic
        (blind[0], blind[1], blind[2]) = (.nan, .nan, .nan)
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(blind[...], measured: 1, parameters: p))
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(curve, measured: .nan, parameters: p))
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(curve, measured: 40, parameters: p))
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(periodic[0..<3], measured: 1, parameters: p))
        // Two candidate peaks (lags 3 and 6): the first refused, the second taken.
        let two: [Float] = [0.2, 0.95, -0.4, -0.3, 0.93, -0.6, -0.8, 0.94, 0.1, -0.7]
        XCTAssertEqual(PeriodicAmbiguity.secondPeakLag(two[...], measured: 1, parameters: p), 3)
        XCTAssertEqual(PeriodicAmbiguity.secondPeakLag(two[...], measured: 1, parameters: p, accept: { $0 != 3 }), 6)
        XCTAssertNil(PeriodicAmbiguity.secondPeakLag(two[...], measured: 1, parameters: p, accept: { _ in false }))
    }
}
