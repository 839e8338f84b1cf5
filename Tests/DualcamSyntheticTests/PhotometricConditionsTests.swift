#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import XCTest

/// Photometric mismatch between the cameras (`CameraConditions`: exposure,
/// white balance, gamma, vignetting), each measured on rendered images. The
/// renderer's colours R are display-encoded; the model works on linear light
/// R^2.2, so the ratios are taken on bytes decoded with the camera's gamma
/// (`ConditionFixtures.light`).
final class PhotometricConditionsTests: XCTestCase {
    typealias F = ConditionFixtures

    /// Tele exposure 0.8: the ratio of the tele image's mean linear light to
    /// the wide image's over the region both see (the plane scene, textured,
    /// nominal rig; bytes decoded with gamma 2.2) falls to 0.8 of the clean
    /// pair's ratio; the wide image is untouched.
    func testTeleExposureScalesTheCovisibleMeanRatio() throws {
        let rig = try RenderFixtures.nominalRig(width: 160)
        let scene = SceneLibrary.plane(SceneLibrary.Options())
        let wide = try Renderer.render(scene, camera: .wide, of: rig)
        let tele = try Renderer.render(scene, camera: .tele, of: rig)
        let covisible = try GroundTruth.covisibility(from: wide, to: tele, rig: rig, scene: scene)
        XCTAssertGreaterThan(covisible.filter { $0 }.count, 1000)
        let dim = try F.render(scene, .tele, rig: rig, conditions: CameraConditions(exposure: 0.8))
        let cleanRatio = F.meanLight(tele.image) / F.meanLight(wide.image, mask: covisible)
        let ratio = F.meanLight(dim.image) / F.meanLight(wide.image, mask: covisible)
        F.record("exposure 0.8: covisible mean-light ratio over clean ratio (clean ratio)", ratio / cleanRatio, cleanRatio)
        XCTAssertEqual(ratio / cleanRatio, 0.8, accuracy: 0.003, "tele/wide mean-light ratio \(ratio) vs clean \(cleanRatio)")
        XCTAssertEqual(cleanRatio, 1, accuracy: 0.05, "both views see the same surface")
        let wideAgain = try F.render(scene, .wide, rig: rig, conditions: .clean)
        XCTAssertEqual(wideAgain.image, wide.image)
    }

    /// Tele white balance (1.12, 1, 0.85) on a grey ramp (levels 50 to 200
    /// across a fronto-parallel wall that fills the view, so the bytes'
    /// rounding averages out; 3x3 samples per pixel, so that no pixel mixes
    /// two adjacent levels half and half into an exact .5 tie): each channel's
    /// mean linear light (gamma 2.2) becomes its gain times the clean image's.
    func testWhiteBalanceGainsAreTheChannelRatios() throws {
        let rig = try F.pinhole()
        let ramp = Bitmap(width: 151, height: 1, pixels: (50...200).map { UInt8($0) })
        let scene = F.wall(.bitmap(ramp), halfWidth: 0.3, halfHeight: 0.3)
        let gains = ChannelGains(1.12, 1, 0.85)
        let clean = try F.render(scene, .tele, rig: rig, conditions: .clean, samplesPerAxis: 3)
        let balanced = try F.render(scene, .tele, rig: rig, conditions: CameraConditions(whiteBalance: gains),
                                    samplesPerAxis: 3)
        for (c, gain) in gains.values.enumerated() {
            let ratio = F.mean(F.lightChannel(balanced.image, c)) / F.mean(F.lightChannel(clean.image, c))
            F.record("white balance channel \(c) mean-light ratio (asked \(gain))", ratio)
            XCTAssertEqual(ratio, gain, accuracy: 0.006, "channel \(c)")
        }
        // The red/blue balance between the channels moves by 1.12 / 0.85.
        let before = F.mean(F.lightChannel(clean.image, 0)) / F.mean(F.lightChannel(clean.image, 2))
        let after = F.mean(F.lightChannel(balanced.image, 0)) / F.mean(F.lightChannel(balanced.image, 2))
        XCTAssertEqual(after / before, 1.12 / 0.85, accuracy: 0.01)
    }

    /// Gamma on a ramp (a 256-step grey bitmap on a fronto-parallel plane):
    /// the render's values R are display-encoded, linear light is L = R^2.2,
    /// and log(v / 255) against log(L) has slope 1 / gamma; the fitted gamma
    /// is the one asked, and L = 0.5 maps to 255 * 0.5^(1 / gamma) (186 for
    /// 2.2, the render's own byte there). 3x3 samples per pixel: no exact .5
    /// ties between adjacent levels, whose rounding would bias the fit. The
    /// model is called directly, so
    /// that 2.2 (clean conditions, which `CaptureConditions.apply` skips) goes
    /// through it too.
    func testGammaMapsALinearRampAsAsked() throws {
        let rig = try F.pinhole()
        let ramp = Bitmap(width: 256, height: 1, pixels: (0..<256).map { UInt8($0) })
        let scene = F.wall(.bitmap(ramp), halfWidth: 0.5, halfHeight: 0.5)
        let render = try XCTUnwrap(try Renderer.render(scene, camera: .wide, of: rig,
                                                       options: RenderOptions(samplesPerAxis: 3, keepLinear: true)).linear)
        let light = try render.pixels(as: Float.self).map { pow(Double($0), 2.2) }
        let k = try rig.camera(.wide).model.intrinsics
        for gamma in [2.2, 2.0, 0.8] {
            let image = try PhotometricModel.image(fromLinear: render, conditions: CameraConditions(gamma: gamma),
                                                   intrinsics: k, seed: 1, camera: .wide)
            let bytes = image.withUnsafeBytes { raw in raw.map { Double($0) } }
            var sxy = 0.0, sxx = 0.0, used = 0
            var nearHalf: [Double] = []
            for i in 0..<light.count where light[i] > 0.05 && light[i] < 0.95 && bytes[i] >= 20 {
                let x = log(light[i]), y = log(bytes[i] / 255)
                sxy += x * y
                sxx += x * x
                used += 1
                if abs(light[i] - 0.5) < 0.01 { nearHalf.append(bytes[i]) }
            }
            XCTAssertGreaterThan(used, 5000)
            let fitted = sxx / sxy
            F.record("gamma \(gamma): fitted, mean byte at L = 0.5", fitted, F.mean(nearHalf))
            XCTAssertEqual(fitted, gamma, accuracy: 0.01 * gamma, "fitted gamma")
            XCTAssertEqual(F.mean(nearHalf), 255 * pow(0.5, 1 / gamma), accuracy: 1.5)
        }
    }

    /// Vignetting 0.4 on the wide camera, flat wall: the linear light (bytes
    /// decoded with gamma 2.2) relative to the centre's follows
    /// V = 1 - 0.4 (r / rCorner)^2 at the corners, the edge midpoints and half
    /// way out (4x4 blocks against the mean of V over each block); the
    /// farthest corner gets 0.6 of the centre's light.
    func testVignettingFollowsTheRadialFormula() throws {
        let rig = try F.pinhole()
        let scene = F.wall(.flat(.grey(0.6)))
        let s = 0.4
        let view = try F.render(scene, rig: rig, conditions: CameraConditions(vignettingCornerFalloff: s))
        let k = try rig.camera(.wide).model.intrinsics
        let centre = F.light(0.6 * 255)
        let blocks = [(0, 0), (156, 0), (0, 116), (156, 116), (78, 0), (0, 58), (38, 28), (100, 80)]
        for (x0, y0) in blocks {
            var expected = 0.0
            for y in y0..<(y0 + 4) {
                for x in x0..<(x0 + 4) {
                    expected += PhotometricModel.vignetting(x: Double(x), y: Double(y), cornerFalloff: s, intrinsics: k,
                                                            width: 160, height: 120)
                }
            }
            expected /= 16
            let measured = F.blockMeanLight(view.image, x0: x0, y0: y0, size: 4) / centre
            F.record("vignetting 0.4 block (\(x0), \(y0)): measured, formula", measured, expected)
            XCTAssertEqual(measured, expected, accuracy: 0.004, "block at (\(x0), \(y0))")
        }
        XCTAssertEqual(F.light(view.image[x: 0, y: 0, channel: 1]) / centre, 1 - s, accuracy: 0.005, "corner pixel")
        XCTAssertEqual(F.blockMeanLight(view.image, x0: 78, y0: 58, size: 4) / centre, 1, accuracy: 0.003, "centre")
    }
}
