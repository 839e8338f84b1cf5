import DualcamOpenCV
import XCTest

/// The refinement's extra blur per view (`CVStereoParameters.leftRefineBlur`,
/// `rightRefineBlur`): checked at the C API, and it changes only what it should.
final class CVStereoBlurTests: XCTestCase {
    /// A random texture (seeded) and the same texture 6 px to the left.
    func pair(width w: Int = 128, height h: Int = 48, contrast: UInt64 = 170) throws -> (CVMat, CVMat) {
        var state: UInt64 = 12345
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(40 + (state >> 33) % contrast)
        }
        let wide = w + 8
        let texture = (0..<(wide * h)).map { _ in next() }
        func image(_ shift: Int) throws -> CVMat {
            var bytes = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { bytes[y * w + x] = texture[y * wide + x + shift] } }
            return try CVMat(rows: h, cols: w, channels: 1, depth: .uint8, bytes: bytes)
        }
        return (try image(0), try image(6))
    }

    func match(left blur0: Double, right blur1: Double, contrast: UInt64 = 170) throws -> (disparity: [Float], confidence: [Float]) {
        let (left, right) = try pair(contrast: contrast)
        var params = CVStereoParameters(minDisparity: 0, numDisparities: 16)
        params.leftRefineBlur = blur0
        params.rightRefineBlur = blur1
        let m = try CVStereo.match(left: left, right: right, leftValid: nil, rightValid: nil, parameters: params,
                                   referenceIsRight: false, refineMask: nil)
        func floats(_ mat: CVMat) -> [Float] { mat.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        return (floats(m.disparity), floats(m.confidence))
    }

    func testBadBlursAreRefused() throws {
        for bad in [-1, Double.nan, .infinity, 17] {
            XCTAssertThrowsError(try match(left: bad, right: 0), "\(bad)") { error in
                XCTAssertTrue("\(error)".contains("extra blur"), "\(error)")
            }
            XCTAssertThrowsError(try match(left: 0, right: bad), "\(bad)")
        }
        XCTAssertNoThrow(try match(left: 16, right: 0))
    }

    /// A blur on either view changes the fit and keeps it on the true shift.
    /// On a low-contrast texture (where the texture term is far from 1) a
    /// blurred reference has the confidence of a blurred match image: its
    /// texture sigma follows the blur's gradient attenuation (without that,
    /// the reference's weaker gradients alone would lower its texture term).
    func testBlurChangesTheFitOfTheViewItIsOn() throws {
        let plain = try match(left: 0, right: 0)
        XCTAssertGreaterThan(plain.disparity.filter(\.isFinite).count, 2000)
        for blurred in [try match(left: 0.7, right: 0), try match(left: 0, right: 0.7)] {
            let both = zip(plain.disparity, blurred.disparity).filter { $0.0.isFinite && $0.1.isFinite }
            XCTAssertGreaterThan(both.count, 2000)
            XCTAssertGreaterThan(both.filter { $0.0 != $0.1 }.count, both.count / 2)
            // The pair is an exact integer shift: the fit stays on it either way.
            let errors = both.map { abs($0.1 - 6) }.sorted()
            XCTAssertLessThan(errors[errors.count / 2], 0.05)
        }
        func meanConfidence(_ m: (disparity: [Float], confidence: [Float])) -> Float {
            let c = zip(m.disparity, m.confidence).filter { $0.0.isFinite }.map(\.1)
            return c.reduce(0, +) / Float(max(1, c.count))
        }
        let reference = try match(left: 0.7, right: 0, contrast: 10), other = try match(left: 0, right: 0.7, contrast: 10)
        XCTAssertEqual(meanConfidence(reference), meanConfidence(other), accuracy: 0.1 * meanConfidence(other))
        XCTAssertLessThan(meanConfidence(other), 0.5, "the texture term is far from 1 at this contrast")
    }
}
