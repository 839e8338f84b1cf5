import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// Camera conditions in datasets (`SynthSpec.conditions`): the `real` preset,
/// determinism, what is written, validation, and the clean path.
final class ConditionsDatasetTests: XCTestCase {
    typealias F = ConditionFixtures

    static func spec(_ conditions: CaptureConditions, seed: UInt64 = 1) throws -> SynthSpec {
        var spec = SynthSpec(sceneName: "room", calibration: try NominalDevice.load(), size: PixelSize(width: 160, height: 120))
        spec.render = RenderOptions(samplesPerAxis: 1, seed: seed)
        spec.conditions = conditions
        return spec
    }

    static let clean = Result { try Synthesizer.make(try spec(.clean)) }
    static let real = Result { try Synthesizer.make(try spec(.real)) }

    /// `real` changes both images (mean absolute difference of several
    /// levels; tele darker relative to wide than in the clean pair, its blue
    /// lower against red; the wide's tone curve is the render's own, so its
    /// change is vignetting, blur, noise and JPEG) but none of the ground truth: depth, object ids,
    /// co-visibility and LiDAR samples are identical.
    func testRealPresetChangesTheImagesButNotTheGroundTruth() throws {
        let clean = try Self.clean.get().pairs[0], real = try Self.real.get().pairs[0]
        for (a, b) in [(clean.wide, real.wide), (clean.tele, real.tele)] {
            let difference = a.image.withUnsafeBytes { x in b.image.withUnsafeBytes { y in
                zip(x, y).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(x.count)
            } }
            F.record("real vs clean \(a.camera): mean absolute difference (levels)", difference)
            XCTAssertGreaterThan(difference, 5, "\(a.camera) image changed")
            XCTAssertEqual(a.depth, b.depth, "\(a.camera) depth")
            XCTAssertEqual(a.objectIDs, b.objectIDs)
        }
        // Not washed out: the wide's tone curve is the render's own (gamma
        // 2.2), so its brightness and its contrast at the scale of objects
        // (standard deviation of the grey level's 8x8 block means, which the
        // 0.5 px blur leaves alone) stay near the clean image's; vignetting
        // darkens the corners a little.
        func blockGrey(_ image: Image) -> [Double] {
            stride(from: 0, to: image.height, by: 8).flatMap { y0 in
                stride(from: 0, to: image.width, by: 8).map { x0 in
                    (0..<3).map { F.blockMean(image, x0: x0, y0: y0, size: 8, channel: $0) }.reduce(0, +) / 3
                }
            }
        }
        let (cleanGrey, realGrey) = (blockGrey(clean.wide.image), blockGrey(real.wide.image))
        F.record("wide 8x8 block grey mean and sd, clean then real", F.mean(cleanGrey), F.standardDeviation(cleanGrey),
                 F.mean(realGrey), F.standardDeviation(realGrey))
        XCTAssertEqual(F.mean(realGrey) / F.mean(cleanGrey), 1, accuracy: 0.1, "wide brightness")
        XCTAssertGreaterThan(F.standardDeviation(realGrey), 0.85 * F.standardDeviation(cleanGrey), "wide contrast")
        XCTAssertEqual(clean.covisible, real.covisible)
        XCTAssertEqual(clean.lidar, real.lidar)
        // Red over blue rises in tele (white balance 1.08 / 0.9 before the tone curve).
        func redOverBlue(_ image: Image) -> Double { F.mean(F.channel(image, 0)) / F.mean(F.channel(image, 2)) }
        F.record("tele/wide red-over-blue, real and clean", redOverBlue(real.tele.image) / redOverBlue(real.wide.image),
                 redOverBlue(clean.tele.image) / redOverBlue(clean.wide.image))
        XCTAssertGreaterThan(redOverBlue(real.tele.image) / redOverBlue(real.wide.image),
                             1.03 * redOverBlue(clean.tele.image) / redOverBlue(clean.wide.image))
        XCTAssertEqual(CaptureConditions.real.tele.exposure, 0.8)
        XCTAssertEqual(CaptureConditions.real.wide.jpegQuality, 90)
    }

    /// The same seed gives the same images; another render seed, other noise.
    func testConditionsAreDeterministicFromTheSeed() throws {
        let again = try Synthesizer.make(try Self.spec(.real)).pairs[0]
        let real = try Self.real.get().pairs[0]
        XCTAssertEqual(again.wide.image, real.wide.image)
        XCTAssertEqual(again.tele.image, real.tele.image)
        let other = try Synthesizer.make(try Self.spec(.real, seed: 2)).pairs[0]
        XCTAssertNotEqual(other.tele.image, real.tele.image)
        XCTAssertEqual(other.tele.depth, real.tele.depth)
    }

    /// The written PNGs hold exactly the in-memory pixels (JPEG round trip
    /// included); the manifest records the conditions; a clean manifest has none.
    func testWrittenImagesAndManifestMatchTheConditions() throws {
        let dataset = try Self.real.get()
        let dir = try TemporaryDirectory()
        let manifest = try SynthWriter.write(dataset, to: dir.path("real"))
        XCTAssertEqual(try ImageIO.read(dir.path("real/wide.png")), dataset.pairs[0].wide.image)
        XCTAssertEqual(try ImageIO.read(dir.path("real/tele.png")), dataset.pairs[0].tele.image)
        XCTAssertEqual(manifest.conditions?.preset, "real")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("real/manifest.json")))
            as? [String: Any])
        let conditions = try XCTUnwrap(json["conditions"] as? [String: Any])
        let tele = try XCTUnwrap(conditions["tele"] as? [String: Any])
        XCTAssertEqual(tele["exposure"] as? Double, 0.8)
        XCTAssertEqual(tele["white_balance"] as? [Double], [1.08, 1, 0.9])
        XCTAssertEqual(tele["jpeg_quality"] as? Int, 90)
        XCTAssertEqual(tele["blur_sigma_pixels"] as? Double, 1)
        XCTAssertEqual(conditions["light_level"] as? Double, 1)
        let cleanManifest = try SynthWriter.write(try Self.clean.get(), to: dir.path("clean"))
        XCTAssertNil(cleanManifest.conditions)
        let cleanJSON = try String(contentsOf: dir.path("clean/manifest.json"), encoding: .utf8)
        XCTAssertFalse(cleanJSON.contains("conditions"))
    }

    /// Out-of-range conditions fail before rendering, naming the camera and parameter.
    func testInvalidConditionsAreRejected() throws {
        var bad = CaptureConditions.real
        bad.tele.gamma = 0
        XCTAssertThrowsError(try Synthesizer.make(try Self.spec(bad))) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("tele gamma 0.0: expected a tone-curve gamma"), text)
        }
        bad = .clean
        bad.lightLevel = 0
        XCTAssertThrowsError(try Synthesizer.make(try Self.spec(bad)))
        bad = .clean
        bad.wide.jpegQuality = 0
        XCTAssertThrowsError(try Synthesizer.make(try Self.spec(bad)))
    }

    /// Identity conditions through `PhotometricModel` reproduce the renderer's
    /// bytes from its unquantized output (so `linear` is what `image`
    /// quantizes, and decoding it with 2.2 and encoding with the default tone
    /// curve, gamma 2.2, give it back), and clean conditions leave a view untouched.
    func testIdentityConditionsReproduceTheRendererBytes() throws {
        let rig = try RenderFixtures.nominalRig(width: 160)
        let scene = RenderFixtures.room()
        let view = try Renderer.render(scene, camera: .tele, of: rig, options: RenderOptions(noiseSigma: 2, seed: 4, keepLinear: true))
        let formed = try PhotometricModel.image(fromLinear: try XCTUnwrap(view.linear), conditions: .clean,
                                                intrinsics: try rig.camera(.tele).model.intrinsics, seed: 4, camera: .tele)
        let differences = formed.withUnsafeBytes { a in view.image.withUnsafeBytes { b in zip(a, b).map { abs(Int($0) - Int($1)) } } }
        XCTAssertLessThanOrEqual(differences.max()!, 1, "float rounding may move a value at an exact .5 tie")
        XCTAssertLessThan(differences.filter { $0 != 0 }.count, 5)
        let plain = try Renderer.render(scene, camera: .tele, of: rig, options: RenderOptions(noiseSigma: 2, seed: 4))
        XCTAssertEqual(try CaptureConditions.clean.apply(to: plain, rig: rig, seed: 4).image, plain.image)
        XCTAssertEqual(view.image, plain.image, "keeping the linear render does not change the image")
    }
}
