import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

extension OpsFixtures {
    /// A random texture that is periodic on the `n` x `n` grid and band-limited:
    /// a sum of cosines at every whole DFT frequency below Nyquist with random
    /// phases and amplitudes falling off as 1 / (1 + (f / 0.05)^2) (f in cycles
    /// per pixel), evaluated at (x - dx, y - dy). Two such images with the same
    /// seed differ by an exact circular sub-pixel shift, with no interpolation.
    static func periodicTexture(size n: Int, shiftedBy dx: Double, _ dy: Double, seed: UInt64) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        let half = n / 2
        // coefficients[v + half][u]: complex amplitude of frequency (u, v).
        var coefficients = [[(re: Double, im: Double)]](repeating: .init(repeating: (0, 0), count: half), count: n)
        for v in (-half + 1)..<half {
            for u in 0..<half where u > 0 || v > 0 {
                let f = (Double(u * u + v * v)).squareRoot() / Double(n)
                let amplitude = Double.random(in: 0...1, using: &rng) / (1 + (f / 0.05) * (f / 0.05))
                let phase = Double.random(in: 0..<(2 * .pi), using: &rng)
                coefficients[v + half][u] = (amplitude * cos(phase), amplitude * sin(phase))
            }
        }
        func turn(_ k: Int, _ position: Double) -> (re: Double, im: Double) {
            let t = 2 * Double.pi * Double(k) * position / Double(n)
            return (cos(t), sin(t))
        }
        // Separable evaluation: rows[v][x] = sum_u c(u, v) e^{i 2 pi u (x - dx) / n}.
        var rows = [[(re: Double, im: Double)]](repeating: .init(repeating: (0, 0), count: n), count: n)
        for x in 0..<n {
            let turns = (0..<half).map { turn($0, Double(x) - dx) }
            for v in 0..<n {
                var re = 0.0, im = 0.0
                for (c, e) in zip(coefficients[v], turns) {
                    re += c.re * e.re - c.im * e.im
                    im += c.re * e.im + c.im * e.re
                }
                rows[v][x] = (re, im)
            }
        }
        return try OpsFixtures.float32(width: n, height: n) { x, y in
            var sum = 0.0
            for v in 0..<n {
                let e = turn(v - half, Double(y) - dy)
                sum += rows[v][x].re * e.re - rows[v][x].im * e.im
            }
            return Float(sum)
        }
    }
}

final class PhaseCorrelationImageOpsTests: XCTestCase {
    func testRecoversAnExactSubpixelShiftWithTheDocumentedSign() throws {
        let a = try OpsFixtures.periodicTexture(size: 96, shiftedBy: 0, 0, seed: 11)
        for (dx, dy) in [(3.25, -1.5), (-0.4, 0.7), (0.5, 0.5)] {
            // b(x, y) = a(x - dx, y - dy): a's content moved by (+dx, +dy).
            let b = try OpsFixtures.periodicTexture(size: 96, shiftedBy: dx, dy, seed: 11)
            let circular = try ImageOps.phaseCorrelate(a, b, window: .none)
            XCTAssertClose(circular.shift.dx, dx, absolute: 0.002, "(\(dx), \(dy)) without window")
            XCTAssertClose(circular.shift.dy, dy, absolute: 0.002, "(\(dx), \(dy)) without window")
            XCTAssertGreaterThan(circular.response, 0.99)
            let windowed = try ImageOps.phaseCorrelate(a, b)
            XCTAssertClose(windowed.shift.dx, dx, absolute: 0.02, "(\(dx), \(dy)) Hanning")
            XCTAssertClose(windowed.shift.dy, dy, absolute: 0.02, "(\(dx), \(dy)) Hanning")
            // Swapping the images negates the shift.
            let swapped = try ImageOps.phaseCorrelate(b, a, window: .none)
            XCTAssertClose(swapped.shift.dx, -dx, absolute: 0.002)
            XCTAssertClose(swapped.shift.dy, -dy, absolute: 0.002)
        }
    }

    func testSignConventionMatchesAWarpByATranslation() throws {
        let a = try OpsFixtures.texture(width: 120, height: 100, sigma: 0.7, seed: 5)
        // warpPerspective with [1 0 tx; 0 1 ty] moves the content by (+tx, +ty).
        for (tx, ty) in [(6.0, -3.0), (3.25, -1.5)] {
            let b = try ImageOps.warpPerspective(a, homography: OpsFixtures.translation(tx, ty), width: 120, height: 100,
                                                 interpolation: .lanczos4)
            let regionA = try crop(a, x: 12, y: 8, width: 96, height: 80)
            let regionB = try crop(b, x: 12, y: 8, width: 96, height: 80)
            let measured = try ImageOps.phaseCorrelate(regionA, regionB)
            // Whole pixels are exact up to the window; a fractional warp is an
            // interpolated (not exact) shift, which phase correlation sees
            // biased towards whole pixels.
            let tolerance = tx.rounded() == tx ? 0.03 : 0.1
            XCTAssertClose(measured.shift.dx, tx, absolute: tolerance, "(\(tx), \(ty))")
            XCTAssertClose(measured.shift.dy, ty, absolute: tolerance, "(\(tx), \(ty))")
            XCTAssertGreaterThan(measured.response, 0.5)
            // OpenCV's own estimator has the same sign convention.
            let opencv = try ImageOps.phaseCorrelate(regionA, regionB, subpixel: .openCVCentroid)
            XCTAssertClose(opencv.shift.dx, tx, absolute: 0.5)
            XCTAssertClose(opencv.shift.dy, ty, absolute: 0.5)
        }
    }

    func testUnrelatedImagesHaveALowResponse() throws {
        let a = try OpsFixtures.texture(width: 64, height: 64, sigma: 0.7, seed: 1)
        let b = try OpsFixtures.texture(width: 64, height: 64, sigma: 0.7, seed: 2)
        XCTAssertLessThan(try ImageOps.phaseCorrelate(a, b).response, 0.2)
        XCTAssertGreaterThan(try ImageOps.phaseCorrelate(a, a).response, 0.99)
    }

    func testAcceptsAnyElementAndConvertsToFloatingPoint() throws {
        let a = try OpsFixtures.periodicTexture(size: 64, shiftedBy: 0, 0, seed: 3)
        let b = try OpsFixtures.periodicTexture(size: 64, shiftedBy: 2, -1, seed: 3)
        func as16(_ image: Image) -> Image { image.converted(to: .float16) }
        func asBytes(_ image: Image) -> Image { image.converted(to: .uint8, scale: 40, offset: 128) }
        for (x, y) in [(as16(a), as16(b)), (asBytes(a), asBytes(b))] {
            let measured = try ImageOps.phaseCorrelate(x, y, window: .none)
            XCTAssertClose(measured.shift.dx, 2, absolute: 0.05, "\(x.element)")
            XCTAssertClose(measured.shift.dy, -1, absolute: 0.05, "\(x.element)")
        }
    }

    func testInvalidInputsThrowDualcamErrors() throws {
        let a = try OpsFixtures.texture(width: 32, height: 32, seed: 1)
        let smaller = try OpsFixtures.texture(width: 32, height: 30, seed: 1)
        assertThrowsDualcamError(try ImageOps.phaseCorrelate(a, smaller), mentioning: "phaseCorrelate",
                                 "differ in size: 32x32 and 32x30")
        assertThrowsDualcamError(try ImageOps.phaseCorrelate(a, smaller, subpixel: .openCVCentroid),
                                 mentioning: "phaseCorrelate", "differ in size")
        let rgb = try Image(width: 32, height: 32, channels: 3, element: .float32)
        assertThrowsDualcamError(try ImageOps.phaseCorrelate(rgb, rgb), mentioning: "phaseCorrelate", "1-channel")
        let flat = try Image(width: 32, height: 32, channels: 1, element: .float32)
        assertThrowsDualcamError(try ImageOps.phaseCorrelate(flat, flat), mentioning: "phaseCorrelate", "no structure")
        var holed = a
        holed[x: 3, y: 4, channel: 0] = .nan
        assertThrowsDualcamError(try ImageOps.phaseCorrelate(a, holed), mentioning: "phaseCorrelate", "NaN")
    }
}
