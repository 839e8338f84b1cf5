#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import XCTest

/// Optical and sensor conditions (`CameraConditions`: blur, shot and read
/// noise, the light level, JPEG), each measured on rendered images.
final class OpticalConditionsTests: XCTestCase {
    typealias F = ConditionFixtures

    /// The second moment of the line-spread function across a vertical step
    /// edge (black | white bitmap on a fronto-parallel wall, principal point
    /// 0.3 px off the edge, 4x4 samples per pixel), rows 20..<100: LSF =
    /// the row's differences of linear light (bytes decoded with gamma 2.2,
    /// the default tone curve), variance about its centroid, averaged over rows.
    static func edgeSpreadVariance(_ image: Image) -> Double {
        var total = 0.0
        for y in 20..<100 {
            let row = (50..<110).map { F.light(image[x: $0, y: y, channel: 1]) }
            let lsf = zip(row.dropFirst(), row).map { $0 - $1 }
            let mass = lsf.reduce(0, +)
            let centre = lsf.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / mass
            total += lsf.enumerated().reduce(0) { $0 + (Double($1.offset) - centre) * (Double($1.offset) - centre) * $1.element } / mass
        }
        return total / 80
    }

    /// Gaussian blur of sigma 0.8 and 2 px, on linear light: convolution adds
    /// variances, so the edge's line-spread variance (in linear light) grows
    /// by sigma^2 over the clean render's: sqrt(var - var_clean) = sigma. The
    /// clean edge is a step split between two pixel differences, a (1 - a)
    /// px^2 with a the edge pixel's linear light: it covers 0.75 of the pixel,
    /// and the renderer averages display values, so a = 0.75^2.2.
    func testBlurWidensAnEdgeBySigma() throws {
        let rig = try F.pinhole(cx: 79.8)
        let scene = F.wall(.bitmap(Bitmap(width: 2, height: 1, pixels: [0, 255])), halfWidth: 1, halfHeight: 1)
        let clean = try F.render(scene, rig: rig, conditions: .clean, samplesPerAxis: 4)
        let cleanVariance = Self.edgeSpreadVariance(clean.image)
        let a = pow(0.75, 2.2)
        XCTAssertEqual(cleanVariance, a * (1 - a), accuracy: 0.01, "the edge covers 3 of 4 sample columns of pixel 80")
        for sigma in [0.8, 2.0] {
            let blurred = try F.render(scene, rig: rig, conditions: CameraConditions(blurSigmaPixels: sigma), samplesPerAxis: 4)
            let measured = (Self.edgeSpreadVariance(blurred.image) - cleanVariance).squareRoot()
            F.record("blur sigma \(sigma): measured sigma (clean LSF variance)", measured, cleanVariance)
            XCTAssertEqual(measured, sigma, accuracy: 0.04 * sigma, "blur sigma \(sigma)")
        }
    }

    /// The standard deviation of each channel on a flat wall (render colour
    /// R = (0.73, 0.66, 0.58), linear light R^2.2 = (0.50, 0.40, 0.30),
    /// 160x120 pixels) against the noise model carried through the tone
    /// curve's slope:
    /// sd = 255 * (1 / gamma) * y^(1 / gamma - 1) * sqrt(shot * x + read^2) / lightLevel,
    /// with y = R^2.2 and x = lightLevel * y, plus 1/12 level^2 of quantization.
    static func assertNoise(gamma: Double, shot: Double, read: Double, lightLevel: Double, tolerance: Double,
                            file: StaticString = #filePath, line: UInt = #line) throws -> [Double] {
        let rig = try F.pinhole()
        let colour = [0.73, 0.66, 0.58]
        let scene = F.wall(.flat(RGB(colour[0], colour[1], colour[2])))
        let view = try F.render(scene, rig: rig, conditions: CameraConditions(gamma: gamma, shotNoise: shot, readNoise: read),
                                lightLevel: lightLevel)
        return colour.enumerated().map { c, r in
            let y = pow(r, 2.2), x = lightLevel * y
            let slope = 255 / gamma * pow(y, 1 / gamma - 1)
            let expected = (pow(slope * (shot * x + read * read).squareRoot() / lightLevel, 2) + 1.0 / 12).squareRoot()
            let measured = F.standardDeviation(F.channel(view.image, c))
            F.record("noise gamma \(gamma) shot \(shot) read \(read) light \(lightLevel) channel \(c): measured, expected sd", measured, expected)
            XCTAssertEqual(measured, expected, accuracy: tolerance * expected, "channel \(c)", file: file, line: line)
            return measured
        }
    }

    /// Good light, gamma 2.2: shot 0.001, read 0.004 (sd 3.9 to 4.0 levels).
    func testNoiseFollowsShotAndReadNoiseThroughTheToneCurve() throws {
        let measured = try Self.assertNoise(gamma: 2.2, shot: 0.001, read: 0.004, lightLevel: 1, tolerance: 0.04)
        XCTAssertGreaterThan(measured.min()!, 3)
    }

    /// Light level 0.05 with the same sensor (gamma 1, linear output): the raw
    /// signal is 20x lower, the gain 20x higher, so the noise in the image
    /// grows by sqrt(shot x + read^2) / (lightLevel sqrt(shot y + read^2)), about 4.5x;
    /// shot noise makes about 95 % of the raw variance, so the image noise is far above
    /// what read noise alone would give after the gain (255 * read / lightLevel).
    func testLowLightMakesShotNoiseDominateAfterGain() throws {
        let normal = try Self.assertNoise(gamma: 1, shot: 0.001, read: 0.001, lightLevel: 1, tolerance: 0.04)
        let low = try Self.assertNoise(gamma: 1, shot: 0.001, read: 0.001, lightLevel: 0.05, tolerance: 0.03)
        for c in 0..<3 {
            XCTAssertGreaterThan(low[c] / normal[c], 4, "channel \(c): noise grows in low light")
            XCTAssertGreaterThan(low[c], 3 * 255 * 0.001 / 0.05, "channel \(c): shot noise dominates")
        }
    }

    /// JPEG round trip of a textured room (nominal rig, 320x240): quality 90
    /// stays within 30-48 dB PSNR of the lossless image, quality 50 loses
    /// more, and most pixels change.
    func testJPEGRoundTripLosesWhatItsQualityAllows() throws {
        let rig = try RenderFixtures.nominalRig(width: 320)
        let scene = RenderFixtures.room()
        let lossless = try Renderer.render(scene, camera: .wide, of: rig)
        let q90 = try F.render(scene, rig: rig, conditions: CameraConditions(jpegQuality: 90))
        let q50 = try F.render(scene, rig: rig, conditions: CameraConditions(jpegQuality: 50))
        let psnr90 = F.psnr(lossless.image, q90.image), psnr50 = F.psnr(lossless.image, q50.image)
        F.record("JPEG PSNR q90, q50 (dB)", psnr90, psnr50)
        XCTAssertGreaterThan(psnr90, 30)
        XCTAssertLessThan(psnr90, 48)
        XCTAssertLessThan(psnr50, psnr90 - 2, "quality 50 loses more than 90")
        XCTAssertGreaterThan(psnr50, 24)
        let changed = lossless.image.withUnsafeBytes { a in q90.image.withUnsafeBytes { b in zip(a, b).filter { $0 != $1 }.count } }
        XCTAssertGreaterThan(Double(changed) / Double(320 * 240 * 3), 0.3)
        XCTAssertEqual(lossless.depth, q90.depth, "JPEG changes the image only")
    }
}
