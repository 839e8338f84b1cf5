import DualcamGeometry
import DualcamSupport
import Foundation
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class DepthMetricsTests: XCTestCase {
    let size = PixelSize(width: 3, height: 2)
    // Truth: 1, 2, 4, 2, NaN, 5; estimate: 1.1, 1.8, 4, NaN, 3, 5.5.
    let truth: [Float] = [1, 2, 4, 2, .nan, 5]
    let estimate: [Float] = [1.1, 1.8, 4, .nan, 3, 5.5]

    func testErrorsMatchHandComputedValues() throws {
        let e = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size,
                                         relativeErrorThreshold: 0.05, pixelsPerInverseMetre: 10)
        // Evaluated: indices 0,1,2,3,5 (truth valid) = 5; valid: 0,1,2,5 = 4.
        XCTAssertEqual(e.evaluatedCount, 5)
        XCTAssertEqual(e.validCount, 4)
        XCTAssertEqual(e.coverage, 0.8)
        // Errors 0.1, 0.2, 0, 0.5 (Float inputs: compare with a small tolerance).
        XCTAssertClose(e.maeMetres, 0.8 / 4, absolute: 1e-6)
        XCTAssertClose(e.rmseMetres, ((0.01 + 0.04 + 0 + 0.25) / 4).squareRoot(), absolute: 1e-6)
        XCTAssertClose(e.meanAbsoluteRelativeError, (0.1 + 0.1 + 0 + 0.1) / 4, absolute: 1e-6)
        XCTAssertClose(e.medianAbsoluteErrorMetres, (0.1 + 0.2) / 2, absolute: 1e-6)
        XCTAssertEqual(e.fractionRelativeErrorAbove, 0.75)
        // Pixel disparities 10/e - 10/g: |9.0909 - 10| = 0.9091, |5.5556 - 5| = 0.5556, 0, |1.8182 - 2| = 0.1818.
        let d = try XCTUnwrap(e.disparity)
        XCTAssertClose(d.medianAbsolutePixels, (0.5556 + 0.1818) / 2, absolute: 1e-3)
        XCTAssertClose(d.meanAbsolutePixels, (0.90909 + 0.55556 + 0 + 0.18182) / 4, absolute: 1e-4)
        XCTAssertEqual(d.fractionAbovePixelThreshold, 0)
        let strict = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size,
                                              pixelsPerInverseMetre: 10, pixelThreshold: 0.5)
        XCTAssertEqual(strict.disparity?.fractionAbovePixelThreshold, 0.5)
    }

    func testMaskAndEmptyCases() throws {
        let mask = [true, false, false, true, true, false]
        let e = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size, mask: mask)
        XCTAssertEqual(e.evaluatedCount, 2)
        XCTAssertEqual(e.validCount, 1)
        XCTAssertEqual(e.coverage, 0.5)
        XCTAssertClose(e.maeMetres, 0.1, absolute: 1e-6)
        XCTAssertNil(e.disparity)
        let none = try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size,
                                            mask: [Bool](repeating: false, count: 6))
        XCTAssertEqual(none.coverage, 0)
        XCTAssertTrue(none.rmseMetres.isNaN && none.medianAbsoluteErrorMetres.isNaN)
        let json = String(decoding: try JSONEncoder().encode(none), as: UTF8.self)
        XCTAssertTrue(json.contains("\"rmse_m\":null"), json)
    }

    func testBadInputIsRejected() throws {
        XCTAssertThrowsError(try DepthMetrics.compare(estimateMetres: [1], truthMetres: truth, size: size))
        XCTAssertThrowsError(try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size, mask: [true]))
        XCTAssertThrowsError(try DepthMetrics.compare(estimateMetres: estimate, truthMetres: truth, size: size, pixelsPerInverseMetre: -1))
        let a = try DepthMap(size: size, values: truth, type: .depth)
        let b = try DepthMap(size: PixelSize(width: 2, height: 3), values: truth, type: .depth)
        XCTAssertThrowsError(try DepthMetrics.compare(estimate: a, truth: b))
    }

    func testMapsOfOtherTypesAreComparedAsDepth() throws {
        let truthMap = try DepthMap(size: size, values: truth, type: .depth, pixelsPerInverseMetre: 10)
        let estimateMap = try DepthMap(size: size, values: estimate, type: .depth, pixelsPerInverseMetre: 10).converted(to: .pixels)
        let e = try DepthMetrics.compare(estimate: estimateMap, truth: truthMap)
        XCTAssertClose(e.maeMetres, 0.2, absolute: 1e-5)
        XCTAssertNotNil(e.disparity)
    }

    func testDiscontinuityBand() throws {
        // A 7x3 map: 1 m on columns 0-2, 2 m on columns 3-6; the jump is between columns 2 and 3.
        let w = 7, h = 3
        var values = [Float](repeating: 1, count: w * h)
        for y in 0..<h { for x in 3..<w { values[y * w + x] = 2 } }
        values[6] = 2.05  // a 2.5 % step: below the 5 % jump threshold
        let size = PixelSize(width: w, height: h)
        let edge = try DepthMetrics.discontinuityBand(truthMetres: values, size: size, radius: 0)
        XCTAssertEqual((0..<w).map { edge[w + $0] }, [false, false, true, true, false, false, false])
        let band = try DepthMetrics.discontinuityBand(truthMetres: values, size: size, radius: 2)
        XCTAssertEqual((0..<w).map { band[$0] }, [true, true, true, true, true, true, false])
        XCTAssertEqual(band.filter { $0 }.count, 18)
        let loose = try DepthMetrics.discontinuityBand(truthMetres: values, size: size, radius: 0, relativeJump: 0.01)
        XCTAssertTrue(loose[5] && loose[6], "the 2.5 % step counts with a 1 % threshold")
        var holes = values
        holes[w + 3] = .nan
        let withHole = try DepthMetrics.discontinuityBand(truthMetres: holes, size: size, radius: 0)
        XCTAssertFalse(withHole[w + 3], "missing truth makes no edge")
        XCTAssertThrowsError(try DepthMetrics.discontinuityBand(truthMetres: values, size: size, radius: -1))
    }

    func testSplitSeparatesInteriorAndBand() throws {
        let w = 8, h = 2
        var truthValues = [Float](repeating: 1, count: w * h)
        for y in 0..<h { for x in 4..<w { truthValues[y * w + x] = 3 } }
        var estimateValues = truthValues
        estimateValues[3] = 3  // a fattened edge: 2 m error at the boundary
        estimateValues[w + 3] = 3
        let size = PixelSize(width: w, height: h)
        let split = try DepthMetrics.compareSplit(
            estimate: try DepthMap(size: size, values: estimateValues, type: .depth),
            truth: try DepthMap(size: size, values: truthValues, type: .depth), bandRadius: 1)
        XCTAssertEqual(split.all.evaluatedCount, 16)
        XCTAssertEqual(split.band.evaluatedCount, 8, "columns 2-5")
        XCTAssertEqual(split.interior.evaluatedCount, 8)
        XCTAssertEqual(split.interior.maeMetres, 0)
        XCTAssertEqual(split.band.maeMetres, 0.5)
        XCTAssertEqual(split.all.maeMetres, 0.25)
    }
}
