import DualcamOpenCV
import XCTest

/// The refinement's predicted disparity sigma (`CVStereo.match(... predictsNoise:)`):
/// present where the refinement ran, larger on a noisier pair, and of the
/// order of the actual error once calibrated (the fusion's factor 3.3).
final class CVStereoNoiseTests: XCTestCase {
    /// A smooth random texture (values on a 3-px grid, bilinear between
    /// them), the right view shifted by `disparity` px, plus uniform noise of
    /// +-`noise` grey levels; a seeded generator, so a failure reproduces.
    func pair(disparity: Double, noise: Double, width w: Int = 160, height h: Int = 64) throws -> (CVMat, CVMat) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let spacing = 3.0, gw = w / 3 + 8, gh = h / 3 + 2
        let grid = (0..<(gw * gh)).map { _ in 40 + 170 * next() }
        func texture(_ x: Double, _ y: Double) -> Double {
            let gx = x / spacing, gy = y / spacing
            let x0 = Int(gx.rounded(.down)), y0 = Int(gy.rounded(.down)), fx = gx - Double(x0), fy = gy - Double(y0)
            func g(_ i: Int, _ j: Int) -> Double { grid[min(gh - 1, j) * gw + min(gw - 1, i)] }
            return (1 - fy) * ((1 - fx) * g(x0, y0) + fx * g(x0 + 1, y0)) + fy * ((1 - fx) * g(x0, y0 + 1) + fx * g(x0 + 1, y0 + 1))
        }
        func image(_ shift: Double) throws -> CVMat {
            var bytes = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let v = texture(Double(x) + shift, Double(y)) + noise * (2 * next() - 1)
                    bytes[y * w + x] = UInt8(max(0, min(255, v.rounded())))
                }
            }
            return try CVMat(rows: h, cols: w, channels: 1, depth: .uint8, bytes: bytes)
        }
        return (try image(0), try image(disparity))
    }

    func floats(_ mat: CVMat) -> [Float] {
        mat.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Median predicted sigma and RMS actual error (px) over the pixels with both.
    func measure(noise: Double) throws -> (predicted: Double, actual: Double, count: Int) {
        let truth = 7.3
        let (left, right) = try pair(disparity: truth, noise: noise)
        let params = CVStereoParameters(minDisparity: 0, numDisparities: 16)
        let m = try CVStereo.match(left: left, right: right, leftValid: nil, rightValid: nil, parameters: params,
                                   referenceIsRight: false, refineMask: nil, predictsNoise: true)
        let d = floats(m.disparity), s = floats(try XCTUnwrap(m.disparitySigma))
        var sigmas: [Double] = [], squares = 0.0
        for i in d.indices where d[i].isFinite {
            XCTAssertTrue(s[i].isFinite && s[i] >= 0, "a refined pixel without a prediction")
            sigmas.append(Double(s[i]))
            squares += (Double(d[i]) - truth) * (Double(d[i]) - truth)
        }
        sigmas.sort()
        return (sigmas.isEmpty ? .nan : sigmas[sigmas.count / 2], (squares / Double(max(1, sigmas.count))).squareRoot(), sigmas.count)
    }

    func testPredictedSigmaFollowsTheNoise() throws {
        let clean = try measure(noise: 1), noisy = try measure(noise: 12)
        XCTAssertGreaterThan(clean.count, 3000)
        XCTAssertGreaterThan(noisy.count, 3000)
        XCTAssertGreaterThan(noisy.predicted, 2 * clean.predicted, "clean \(clean), noisy \(noisy)")
        // Calibrated (x3.3 in the fusion) the prediction is the error's order.
        for m in [clean, noisy] {
            XCTAssertLessThan(m.actual, 10 * m.predicted, "\(m)")
            XCTAssertGreaterThan(m.actual, 0.5 * m.predicted, "\(m)")
        }
    }

    func testWithoutPredictionNoSigma() throws {
        let (left, right) = try pair(disparity: 5, noise: 1)
        let m = try CVStereo.match(left: left, right: right, leftValid: nil, rightValid: nil,
                                   parameters: CVStereoParameters(minDisparity: 0, numDisparities: 16),
                                   referenceIsRight: false, refineMask: nil, predictsNoise: false)
        XCTAssertNil(m.disparitySigma)
    }
}
