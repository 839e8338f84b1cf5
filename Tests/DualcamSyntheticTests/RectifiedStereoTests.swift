import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import XCTest

final class RectifiedStereoTests: XCTestCase {
    /// The ground-truth disparity of a rectified `steps` pair says where each
    /// wide pixel's surface appears in tele: at (x - d, y), with the same depth
    /// (fronto-parallel surfaces).
    func testDisparityPointsAtTheSameSurfaceInTele() throws {
        var spec = SynthSpec(sceneName: "steps", calibration: try NominalDevice.load(),
                             size: PixelSize(width: 320, height: 240))
        spec.rectified = true
        spec.render = RenderOptions(samplesPerAxis: 1)
        let dataset = try Synthesizer.make(spec)
        let rig = dataset.calibration.rig
        let wideK = try rig.camera(.wide).model.intrinsics, teleK = try rig.camera(.tele).model.intrinsics
        XCTAssertEqual(wideK, teleK)
        XCTAssertClose(try rig.transform(from: .wide, to: .tele, unit: .millimetre).baseline, (100.0 + 0.01).squareRoot(),
                       relative: 1e-12, "the nominal baseline length is kept")
        let pair = try XCTUnwrap(dataset.pairs.first)
        let d = try XCTUnwrap(pair.disparity).pixels(as: Float.self)
        let wideZ = try pair.wide.depth.pixels(as: Float.self), teleZ = try pair.tele.depth.pixels(as: Float.self)
        var checked = 0
        for y in stride(from: 10, to: 230, by: 7) {
            for x in stride(from: 40, to: 310, by: 5) {
                let i = y * 320 + x
                let disparity = Double(d[i])
                XCTAssertClose(disparity, wideK.fx * 0.0100005 / Double(wideZ[i]), relative: 1e-4)
                // The tele pixels on both sides of x - d see the same fronto-parallel surface.
                let xt = Double(x) - disparity
                guard xt >= 0, xt < 319 else { continue }
                let j0 = y * 320 + Int(xt.rounded(.down)), j1 = j0 + 1
                guard abs(teleZ[j0] - wideZ[i]) < 0.05 * wideZ[i], abs(teleZ[j1] - wideZ[i]) < 0.05 * wideZ[i] else {
                    continue  // an occlusion boundary in tele
                }
                XCTAssertClose(Double(teleZ[j0]), Double(wideZ[i]), relative: 1e-5, "depth at (\(x), \(y))")
                XCTAssertClose(Double(teleZ[j1]), Double(wideZ[i]), relative: 1e-5, "depth at (\(x), \(y))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 20)

        // Colours agree at x - d far better than at x + d (guards the sign of d).
        func sample(_ image: Image, _ x: Double, _ y: Int) -> Double {
            let x0 = Int(x.rounded(.down)), f = x - Double(x0)
            return image[x: x0, y: y, channel: 1] * (1 - f) + image[x: x0 + 1, y: y, channel: 1] * f
        }
        var right = 0.0, wrong = 0.0
        for y in stride(from: 10, to: 230, by: 3) {
            for x in stride(from: 40, to: 280, by: 2) {
                let disparity = Double(d[y * 320 + x])
                right += abs(pair.wide.image[x: x, y: y, channel: 1] - sample(pair.tele.image, Double(x) - disparity, y))
                wrong += abs(pair.wide.image[x: x, y: y, channel: 1] - sample(pair.tele.image, Double(x) + disparity, y))
            }
        }
        XCTAssertLessThan(right, 0.5 * wrong, "mean colour error at x - d (\(right)) vs x + d (\(wrong))")
    }

    func testPixelDisparityIsFocalTimesBaselineOverDepth() throws {
        let depth = try Image(width: 3, height: 1, channels: 1, pixels: [Float(0.5), 2, .nan])
        let d = try RectifiedStereo.pixelDisparity(depth: depth, focalPixels: 1000, baselineMetres: 0.01).pixels(as: Float.self)
        XCTAssertEqual(d[0], 20, accuracy: 1e-5)
        XCTAssertEqual(d[1], 5, accuracy: 1e-5)
        XCTAssertTrue(d[2].isNaN)
        XCTAssertThrowsError(try RectifiedStereo.pixelDisparity(depth: depth, focalPixels: 0, baselineMetres: 0.01))
    }
}
