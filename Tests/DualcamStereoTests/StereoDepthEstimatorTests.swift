import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import XCTest
@testable import DualcamStereo

/// The estimator on small renders: wide reference, degenerate input, filling, temporal smoothing.
final class StereoDepthEstimatorTests: XCTestCase {
    static let size = PixelSize(width: 640, height: 480)

    func estimator(_ pair: DepthFixtures.Pair, reference: FrameName? = nil, filtered: Bool = true,
                   output: PixelSize = PixelSize(width: 320, height: 240)) throws -> StereoDepthEstimator {
        var options = StereoDepthOptions()
        options.reference = reference
        options.filtered = filtered
        options.outputSize = output
        return try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
    }

    /// With the wide as reference only the tele overlap is covered; outside it
    /// both modes give NaN, and the covered region is reported.
    func testWideReferenceCoversOnlyTheOverlap() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        for filtered in [false, true] {
            let result = try estimator(pair, reference: .wide, filtered: filtered).estimate(wide: pair.wide.image, tele: pair.tele.image)
            XCTAssertEqual(result.reference, .wide)
            let region = try XCTUnwrap(result.coveredRegion)
            // The tele sees about the central half of the wide view.
            XCTAssertEqual(Double(region.width), 160, accuracy: 12)
            XCTAssertEqual(Double(region.height), 120, accuracy: 12)
            XCTAssertEqual(Double(region.x + region.width / 2), 160, accuracy: 8)
            let w = result.size.width
            for (i, v) in result.depthMetres.enumerated() {
                let (x, y) = (i % w, i / w)
                let inside = x >= region.x && x < region.x + region.width && y >= region.y && y < region.y + region.height
                if !inside, !v.isNaN { XCTFail("(\(x), \(y)) outside the overlap has \(v)"); break }
            }
            if filtered {
                let covered = result.depthMetres.filter(\.isFinite).count
                XCTAssertEqual(covered, result.coveredCount)
            }
            if filtered { XCTAssertEqual(try result.depthMap().validBoundingBox, region) }
        }
    }

    /// Zero texture: no crash, low quality, no invented values in unfiltered mode.
    func testUniformImagesGiveLowQuality() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        let grey = try Image(width: Self.size.width, height: Self.size.height, channels: 3,
                             pixels: [UInt8](repeating: 128, count: Self.size.width * Self.size.height * 3))
        for filtered in [false, true] {
            let result = try estimator(pair, filtered: filtered).estimate(wide: grey, tele: grey)
            XCTAssertFalse(result.highQuality)
            XCTAssertLessThan(result.validFraction, 0.05)
            XCTAssertEqual(try result.depthMap().quality, .low)
        }
    }

    /// The same image as both views (which the two rectifications warp
    /// differently, so it is no consistent pair): no crash, low quality.
    func testIdenticalImagesGiveLowQuality() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        let result = try estimator(pair, filtered: false).estimate(wide: pair.tele.image, tele: pair.tele.image)
        XCTAssertFalse(result.highQuality)
        XCTAssertLessThan(result.validFraction, 0.5)
    }

    /// Filtered depth is dense over the covered pixels and types convert exactly.
    func testFilteredOutputIsDenseAndTyped() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        let result = try estimator(pair).estimate(wide: pair.wide.image, tele: pair.tele.image)
        XCTAssertEqual(result.depthMetres.filter(\.isFinite).count, result.size.width * result.size.height)
        let depth = try result.depthMap(type: .depth), disparity = try result.depthMap(type: .disparity)
        let pixels = try result.depthMap(type: .pixels)
        XCTAssertTrue(depth.isFiltered)
        XCTAssertEqual(depth.accuracy, .relative)
        XCTAssertEqual(depth.referenceCamera, "tele")
        let k = result.outputPixelsPerInverseMetre
        for i in stride(from: 0, to: depth.values.count, by: 997) {
            XCTAssertEqual(Double(disparity.values[i]), 1 / Double(depth.values[i]), accuracy: 1e-6)
            XCTAssertEqual(Double(pixels.values[i]), k / Double(depth.values[i]), accuracy: 1e-4)
        }
        let levels = try result.confidenceMap().levelCounts
        XCTAssertGreaterThan(levels[.high] ?? 0, result.coveredCount / 2)
    }

    func testTemporalSmoothingAveragesOnlyAgreeingValues() {
        let smoother = TemporalSmoother(weight: 0.5, relativeTolerance: 0.05)
        let first = smoother.smooth([10, 10, .nan])
        XCTAssertEqual(first[0], 10)
        let second = smoother.smooth([10.2, 20, 5])
        XCTAssertEqual(second[0], 10.1, accuracy: 1e-5)  // agrees within 5 %: averaged
        XCTAssertEqual(second[1], 20)                     // a jump (motion): the current value
        XCTAssertEqual(second[2], 5)                      // newly measured: the current value
    }

    /// Nothing beyond --max-depth is measured, and the filtered map stays
    /// within the measured range (no pixel at the 10^7 m a near-zero
    /// disparity would mean): the room reaches ~6 m, the search stops at 2 m.
    func testDepthRangeBoundsBothModes() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        var options = StereoDepthOptions()
        options.outputSize = PixelSize(width: 320, height: 240)
        options.maxDepthMetres = 2
        let estimator = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
        let result = try estimator.estimate(wide: pair.wide.image, tele: pair.tele.image)
        let floor = Float(result.pixelsPerInverseMetre / 2)
        XCTAssertFalse(result.unfilteredDisparityPixels.contains { $0 < floor }, "a measured disparity beyond 2 m")
        let unfilteredDepth = zip(result.unfilteredDisparityPixels, result.depthMetres).compactMap { $0.isFinite ? $1 : nil }
        XCTAssertGreaterThan(unfilteredDepth.count, 1000)
        XCTAssertLessThanOrEqual(unfilteredDepth.max()!, 2.05)
        let filtered = result.depthMetres.filter(\.isFinite)
        XCTAssertEqual(filtered.count, result.coveredCount)
        XCTAssertLessThanOrEqual(filtered.max()!, 2.05)
    }

    /// The automatic match density: 1.5 rectified samples per output pixel at
    /// streaming sizes aligned to the tele, 2 above or aligned to the wide; an
    /// explicit density is honoured.
    func testMatchDensity() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        let streaming = try estimator(pair, output: PixelSize(width: 320, height: 240))
        XCTAssertEqual(StereoDepthOptions.automaticMatchDensity(outputWidth: 320, referenceIsNarrower: true), 1.5)
        XCTAssertEqual(StereoDepthOptions.automaticMatchDensity(outputWidth: 320, referenceIsNarrower: false), 2)
        XCTAssertEqual(StereoDepthOptions.automaticMatchDensity(outputWidth: 768, referenceIsNarrower: true), 2)
        // Aligned to the wide (the wider camera), streaming keeps density 2.
        let wide = try estimator(pair, reference: .wide, output: PixelSize(width: 320, height: 240))
        XCTAssertEqual(wide.rectification.intrinsics.fx / wide.alignment.outputIntrinsics.fx, 2, accuracy: 1e-9)
        XCTAssertEqual(streaming.rectification.intrinsics.fx / streaming.alignment.outputIntrinsics.fx, 1.5, accuracy: 1e-9)
        var options = StereoDepthOptions()
        options.outputSize = PixelSize(width: 320, height: 240)
        for density in [1.0, 2.0] {
            options.matchDensity = density
            let other = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
            XCTAssertEqual(other.rectification.intrinsics.fx / streaming.rectification.intrinsics.fx, density / 1.5, accuracy: 1e-9)
        }
        options.matchDensity = 0.1
        XCTAssertThrowsError(try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options))
    }

    /// `matchGridWidth`: an output on a finer grid keeps the rectification
    /// (and disparity search) that an output of the match grid's width gets,
    /// for both references and at streaming widths where the automatic
    /// density depends on the reference (`TeleStereo` uses it for fusion).
    func testMatchGridWidthKeepsTheRectificationOfThatWidth() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        for reference in [FrameName.wide, .tele] {
            for (match, fine) in [(PixelSize(width: 160, height: 120), PixelSize(width: 320, height: 240)),
                                  (PixelSize(width: 480, height: 360), PixelSize(width: 640, height: 480))] {
                let reference_ = try estimator(pair, reference: reference, output: match)
                var options = StereoDepthOptions()
                options.reference = reference
                options.outputSize = fine
                options.matchGridWidth = match.width
                let finer = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
                XCTAssertEqual(finer.rectification.intrinsics.fx, reference_.rectification.intrinsics.fx, accuracy: 1e-9, "\(reference) \(match)")
                XCTAssertEqual(finer.rectification.size, reference_.rectification.size, "\(reference) \(match)")
                XCTAssertEqual(finer.alignment.outputIntrinsics.fx / reference_.alignment.outputIntrinsics.fx,
                               Double(fine.width) / Double(match.width), accuracy: 1e-9)
            }
        }
        var options = StereoDepthOptions()
        options.matchGridWidth = 0
        XCTAssertThrowsError(try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options))
    }

    /// `outputGrid` picks the output K: scaled (the default, the
    /// reference-dimensions rule) or resampled (the grid of the reference
    /// image resized by OpenCV, 0.5 (1 - s) px apart); the focal lengths agree.
    func testOutputGrid() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        let out = PixelSize(width: 320, height: 240)
        var options = StereoDepthOptions()
        options.reference = .wide
        options.outputSize = out
        let scaled = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
        options.outputGrid = .resampled
        let resampled = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
        let k = try pair.rig.camera(.wide).model.intrinsics.scaled(to: pair.wide.size)
        XCTAssertEqual(scaled.alignment.outputIntrinsics, try k.scaled(to: out))
        XCTAssertEqual(resampled.alignment.outputIntrinsics, try k.resampled(to: out))
        XCTAssertEqual(scaled.alignment.outputIntrinsics.cx - resampled.alignment.outputIntrinsics.cx, 0.25, accuracy: 1e-9)
    }

    /// The residual-gated blend (`fillResidualPixels`) lowers the filtered
    /// error away from depth edges: measured noise around a smooth surface
    /// takes the smoothed value.
    func testResidualGatedBlendLowersTheInteriorError() throws {
        let pair = try DepthFixtures.pair("room", size: Self.size)
        var errors: [Double] = []
        for tau in [nil, 0.3] as [Double?] {
            var options = StereoDepthOptions()
            options.outputSize = PixelSize(width: 320, height: 240)
            options.fillResidualPixels = tau
            let estimator = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
            let result = try estimator.estimate(wide: pair.wide.image, tele: pair.tele.image)
            let evaluation = try DepthEvaluation(result, truth: try DepthTruth(estimator: estimator, pair: pair), useFiltered: true)
            errors.append(try XCTUnwrap(evaluation.depth.interior.disparity).medianAbsolutePixels)
        }
        print("filtered interior median disparity error: blend \(errors[0]) px, residual-gated \(errors[1]) px")
        XCTAssertLessThan(errors[1], 0.85 * errors[0])
        var bad = StereoDepthOptions()
        bad.fillResidualPixels = 0
        XCTAssertThrowsError(try bad.validate())
    }
}
