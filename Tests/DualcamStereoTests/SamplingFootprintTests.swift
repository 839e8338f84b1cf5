import DualcamDepthMap
import DualcamGeometry
import DualcamSynthetic
import XCTest
@testable import DualcamStereo

final class SamplingFootprintTests: XCTestCase {
    func testEqualSamplingNeedsNoBlur() {
        let (a, b) = SamplingFootprint.equalizingBlur(pixelSpans: 1.25, 1.25)
        XCTAssertEqual(a, 0)
        XCTAssertEqual(b, 0)
    }

    /// The nominal rig at the photo size: tele pixels span 0.8 rectified px,
    /// wide pixels 1.6; sigma = s / sqrt(12), so the tele gets
    /// sqrt(1.6^2 - 0.8^2) / sqrt(12) = 0.4 rectified px.
    func testTheSharperViewTakesTheDifferenceInQuadrature() {
        let (tele, wide) = SamplingFootprint.equalizingBlur(pixelSpans: 0.8, 1.6)
        XCTAssertEqual(tele, 0.4, accuracy: 1e-12)
        XCTAssertEqual(wide, 0)
        let (w2, t2) = SamplingFootprint.equalizingBlur(pixelSpans: 1.6, 0.8)
        XCTAssertEqual(w2, 0)
        XCTAssertEqual(t2, tele, accuracy: 1e-12)
    }

    func testPixelSpanIsTheFocalRatio() {
        XCTAssertEqual(SamplingFootprint.pixelSpan(rectifiedFocal: 1000, fx: 2000, fy: 2000), 0.5)
        XCTAssertEqual(SamplingFootprint.pixelSpan(rectifiedFocal: 1000, fx: 500, fy: 1000), 1.5)
    }

    /// The estimator blurs the tele of the nominal rig before rectification
    /// (0.4 rectified px = 0.5 tele px at the photo size) and nothing on a
    /// same-lens pair; with `equalizesFootprints` off, nothing.
    func testTheEstimatorBlursOnlyTheFinerView() throws {
        let size = PixelSize(width: 1920, height: 1440)
        var options = StereoDepthOptions()
        XCTAssertTrue(options.equalizesFootprints)
        options.outputSize = PixelSize(width: 768, height: 576)
        let nominal = try Synthesizer.scaledRig(try DepthFixtures.nominalRig(), to: size)
        let e = try StereoDepthEstimator(rig: nominal, wideSize: size, teleSize: size, options: options)
        XCTAssertEqual(e.wideTable.footprintBlur, 0)
        XCTAssertEqual(e.teleTable.footprintBlur, 0.5, accuracy: 0.01)
        let same = try Synthesizer.scaledRig(try DepthFixtures.sameLensRig(), to: size)
        let s = try StereoDepthEstimator(rig: same, wideSize: size, teleSize: size, options: options)
        XCTAssertEqual(s.wideTable.footprintBlur, 0, accuracy: 1e-6)
        XCTAssertEqual(s.teleTable.footprintBlur, 0, accuracy: 1e-6)
        options.equalizesFootprints = false
        let off = try StereoDepthEstimator(rig: nominal, wideSize: size, teleSize: size, options: options)
        XCTAssertEqual(off.teleTable.footprintBlur, 0)
    }

    func testABlurOutsideItsRangeIsRefused() throws {
        let rig = try DepthFixtures.nominalRig()
        let tele = try rig.camera(.tele).model
        for blur in [-1, .nan, .infinity, 16.5] {
            XCTAssertThrowsError(try RectificationTable(model: tele, rotation: .identity, rectified: tele.intrinsics,
                                                        footprintBlur: blur)) { error in
                XCTAssertTrue("\(error)".contains("must be 0 to 16 px"), "\(error)")
            }
        }
        XCTAssertNoThrow(try RectificationTable(model: tele, rotation: .identity, rectified: tele.intrinsics, footprintBlur: 16))
    }

    /// On the rendered room (nominal rig, 1920x1440, photo size) equalizing
    /// lowers the unfiltered depth error by at least 10 % (the measured
    /// figures are in docs/real-data.md).
    func testEqualizingLowersTheRoomsUnfilteredError() throws {
        let pair = try DepthFixtures.pair("room")
        func error(_ equalize: Bool) throws -> Double {
            var options = StereoDepthOptions()
            options.outputSize = try DepthOutputSize.photo.resolved(for: pair.tele.size)
            options.filtered = false
            options.equalizesFootprints = equalize
            let e = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
            let result = try e.estimate(wide: pair.wide.image, tele: pair.tele.image)
            let truth = try DepthTruth(estimator: e, pair: pair)
            return try DepthEvaluation(result, truth: truth, useFiltered: false).depth.all.meanAbsoluteRelativeError
        }
        let (plain, equalized) = (try error(false), try error(true))
        print("room unfiltered mean abs rel: plain \(plain), equalized \(equalized)")
        XCTAssertLessThan(equalized, 0.9 * plain)
    }
}
