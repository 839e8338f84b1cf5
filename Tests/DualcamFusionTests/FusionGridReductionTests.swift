@testable import DualcamFusion
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import XCTest

/// `FusionGridReduction` and `FusionRequest.fusionSize`: a fusion made on a
/// finer grid reaches the output as each footprint's median in 1/z (no depth
/// between two surfaces), with confidence, unfiltered map and samples on the
/// output grid.
final class FusionGridReductionTests: XCTestCase {
    func testFootprintsCoverEveryFinePixelOnce() {
        XCTAssertEqual(FusionGridReduction.footprintIndex(fine: 8, output: 4), [0, 0, 1, 1, 2, 2, 3, 3])
        // Ratio 1.5: footprints of one and two pixels, every output pixel reached.
        XCTAssertEqual(FusionGridReduction.footprintIndex(fine: 6, output: 4), [0, 1, 1, 2, 3, 3])
        XCTAssertEqual(FusionGridReduction.footprintRanges([0, 1, 1, 2, 3, 3], output: 4), [0..<1, 1..<3, 3..<4, 4..<6])
    }

    /// 4x2 fine pixels -> 2x1: the left footprint has three pixels at 1 m and
    /// one at 4 m (a diagonal edge), the right one two at 1 m and two at 2 m.
    func testMajoritySurfaceWinsAndTiesTakeTheMiddleInverseDepth() {
        let fine = result(size: PixelSize(width: 4, height: 2),
                          depth: [1, 1, 1, 2,
                                  1, 4, 1, 2],
                          confidence: [.high, .high, .high, .high,
                                       .high, .low, .low, .medium],
                          samples: [MetricSample(x: 1, y: 0.5, depthMetres: 1), MetricSample(x: 3, y: 1, depthMetres: 2)])
        let out = FusionGridReduction.reduce(fine, to: PixelSize(width: 2, height: 1), options: Self.options(keepVerified: nil))
        XCTAssertEqual(out.size, PixelSize(width: 2, height: 1))
        XCTAssertEqual(out.filteredDepth[0], 1)
        // 1 / mean(1/1, 1/2): the middle of two surfaces only at an even split.
        XCTAssertEqual(out.filteredDepth[1], 4.0 / 3, accuracy: 1e-6)
        // Decided on the output: the verified sample at 1 m is reproduced by
        // its output pixel (high); the right one reproduces no sample and
        // more than half of its footprint is at least medium.
        XCTAssertEqual(out.confidence, [.high, .medium])
        XCTAssertEqual(out.unfilteredDepth[0], 1)
        XCTAssertTrue(out.unfilteredDepth[1].isNaN)
        XCTAssertEqual(out.samples.map(\.x), [0.25, 1.25])
        XCTAssertEqual(out.samples.map(\.y), [0, 0.25])
        XCTAssertEqual(out.verdicts, fine.verdicts)
    }

    func testUnknownValuesAreLeftOutAndAllUnknownStaysUnknown() {
        let fine = result(size: PixelSize(width: 4, height: 2),
                          depth: [.nan, 3, .nan, .nan,
                                  .nan, .nan, .nan, -1],
                          confidence: Array(repeating: .low, count: 8), samples: [])
        let out = FusionGridReduction.reduce(fine, to: PixelSize(width: 2, height: 1), options: Self.options(keepVerified: nil))
        XCTAssertEqual(out.filteredDepth[0], 3)
        XCTAssertTrue(out.filteredDepth[1].isNaN)
        XCTAssertEqual(out.confidence, [.low, .low])
    }

    /// A near surface (1 m) with a diagonal edge in front of a far wall (4 m),
    /// stereo given on a grid twice the output's. The edge, x - y < 1 in
    /// wide pixels, crosses each output footprint it meets 3:1 (no even
    /// split). Fused on the fine grid and reduced, every output pixel holds
    /// one of the two surfaces; fused on the output grid (the stereo
    /// area-resized to it), pixels along the edge hold depths in between.
    func testFusingOnTheFinerGridLeavesNoDepthBetweenTwoSurfaces() throws {
        let wideSize = PixelSize(width: 128, height: 96), output = PixelSize(width: 32, height: 24)
        let fineSize = PixelSize(width: 64, height: 48)
        func isNear(_ x: Double, _ y: Double) -> Bool { x - y < 1 }  // x, y in wide pixels (centres at i + 0.5)
        var rgb = [UInt8]()
        for y in 0..<wideSize.height {
            for x in 0..<wideSize.width {
                rgb += isNear(Double(x) + 0.5, Double(y) + 0.5) ? [200, 40, 40] : [30, 60, 190]
            }
        }
        let wide = try Image(width: wideSize.width, height: wideSize.height, channels: 3, pixels: rgb)
        let k = try Intrinsics(fx: 120, fy: 120, cx: 63.5, cy: 47.5, referenceSize: wideSize)
        // The stereo's depth at each fine pixel's centre ray.
        var stereo = [Float]()
        for y in 0..<fineSize.height {
            for x in 0..<fineSize.width {
                stereo.append(isNear(2 * Double(x) + 1, 2 * Double(y) + 1) ? 1 : 4)
            }
        }
        let map = try DepthMap(size: fineSize, values: stereo, type: .depth)
        var samples: [DepthSample] = []
        for y in stride(from: 3, to: wideSize.height, by: 8) {
            for x in stride(from: 3, to: wideSize.width, by: 8) {
                samples.append(DepthSample(x: Double(x), y: Double(y), depthMetres: isNear(Double(x) + 0.5, Double(y) + 0.5) ? 1 : 4))
            }
        }
        func between(_ depth: [Float]) -> Int {
            depth.filter { z in !(abs(z - 1) <= 0.02 || abs(z - 4) <= 0.08) }.count
        }
        let fine = try FusionPipeline.run(FusionRequest(wide: wide, wideIntrinsics: k, samples: samples, stereo: map,
                                                        outputSize: output, fusionSize: fineSize))
        let coarse = try FusionPipeline.run(FusionRequest(wide: wide, wideIntrinsics: k, samples: samples, stereo: map,
                                                          outputSize: output))
        XCTAssertEqual(fine.result.size, output)
        XCTAssertEqual(fine.intrinsics, coarse.intrinsics)
        XCTAssertEqual(between(fine.result.filteredDepth), 0)
        // On the output grid the area-resized stereo is 1.75 m on those footprints; the fusion keeps some.
        XCTAssertGreaterThan(between(coarse.result.filteredDepth), 10)
    }

    func testAFusionSizeMustBeFinerWithTheOutputsAspectAndAtMostTwice() throws {
        let (_, wide, k, samples) = try Self.smallScene()
        let output = PixelSize(width: 16, height: 12)
        for bad in [PixelSize(width: 48, height: 36), PixelSize(width: 32, height: 30), PixelSize(width: 8, height: 6)] {
            XCTAssertThrowsError(try FusionPipeline.run(FusionRequest(wide: wide, wideIntrinsics: k, samples: samples,
                                                                      outputSize: output, fusionSize: bad))) {
                XCTAssertTrue("\($0)".contains("fusion size \(bad)"), "\($0)")
            }
        }
    }

    /// A verified sample's output pixel is clamped to within 3 sigma of it
    /// (its fine pixel was; the median of its footprint need not be), and an
    /// outlier's output pixel is never high, though a verified sample there
    /// would make it so.
    func testSamplesOwnOutputPixelsKeepTheirGuarantees() {
        var fine = result(size: PixelSize(width: 4, height: 2),
                          depth: [2, 2, 3, 3,
                                  2, 1, 3, 3],
                          confidence: Array(repeating: .high, count: 8),
                          samples: [MetricSample(x: 1, y: 1, depthMetres: 1), MetricSample(x: 3, y: 1, depthMetres: 3),
                                    MetricSample(x: 2, y: 0, depthMetres: 5)])
        fine.verdicts = [.verified, .verified, .outlier]
        let kept = FusionGridReduction.reduce(fine, to: PixelSize(width: 2, height: 1), options: Self.options(keepVerified: 3))
        // Noise 1 cm: the verified sample at 1 m holds its pixel within 3 cm
        // (the median was 2 m), beyond high's 2 sigma.
        XCTAssertEqual(kept.filteredDepth[0], 1.03, accuracy: 1e-6)
        XCTAssertEqual(kept.filteredDepth[1], 3)
        XCTAssertEqual(kept.confidence, [.medium, .medium])
        XCTAssertTrue(kept.unfilteredDepth.allSatisfy(\.isNaN))
        fine.verdicts = [.verified, .verified, .verified]
        fine.samples[2].depthMetres = 3
        let noOutlier = FusionGridReduction.reduce(fine, to: PixelSize(width: 2, height: 1), options: Self.options(keepVerified: 3))
        XCTAssertEqual(noOutlier.confidence, [.medium, .high])
        XCTAssertEqual(noOutlier.unfilteredDepth[1], 3)
        let free = FusionGridReduction.reduce(fine, to: PixelSize(width: 2, height: 1), options: Self.options(keepVerified: nil))
        XCTAssertEqual(free.filteredDepth[0], 2)
    }

    /// A fusion grid at the wide size for an output a pixel off its aspect
    /// (as `--size` allows) is accepted: `TeleStereo.fusionSize` returns the
    /// wide size whenever twice the output reaches it.
    func testTheWideSizeIsAValidFusionGridForAnAcceptedOutput() throws {
        let (size, wide, k, samples) = try Self.smallScene()
        let output = PixelSize(width: 33, height: 25)
        XCTAssertEqual(TeleStereo.fusionSize(outputSize: output, wideSize: size), size)
        let outcome = try FusionPipeline.run(FusionRequest(wide: wide, wideIntrinsics: k, samples: samples, outputSize: output,
                                                           fusionSize: size))
        XCTAssertEqual(outcome.result.size, output)
        XCTAssertEqual(outcome.intrinsics, try k.resampled(to: output))
    }

    /// A 64x48 wide image of arbitrary texture, its K and two samples.
    static func smallScene() throws -> (size: PixelSize, wide: Image, k: Intrinsics, samples: [DepthSample]) {
        let size = PixelSize(width: 64, height: 48)
        let wide = try Image(width: size.width, height: size.height, channels: 3,
                             pixels: (0..<(size.width * size.height * 3)).map { UInt8($0 % 251) })
        let k = try Intrinsics(fx: 60, fy: 60, cx: 31.5, cy: 23.5, referenceSize: size)
        return (size, wide, k, [DepthSample(x: 10, y: 10, depthMetres: 2), DepthSample(x: 40, y: 30, depthMetres: 3)])
    }

    static func options(keepVerified sigmas: Double?) -> DepthFusion.Options {
        var options = DepthFusion.Options(focalPixels: 100)
        options.keepVerifiedSigmas = sigmas
        return options
    }

    private func result(size: PixelSize, depth: [Float], confidence: [FusionConfidenceLevel], samples: [MetricSample]) -> FusionResult {
        FusionResult(size: size, filteredDepth: depth, unfilteredDepth: zip(depth, confidence).map { $1 == .high ? $0 : .nan },
                     confidence: confidence, fit: nil, stereoInverseRange: nil, samples: samples,
                     verdicts: samples.map { _ in .verified }, sampleNoise: SampleNoise(absoluteMetres: 0.01),
                     timings: FusionTimings())
    }
}
