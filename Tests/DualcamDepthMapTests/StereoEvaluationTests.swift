import DualcamGeometry
import DualcamSupport
import Foundation
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class StereoEvaluationTests: XCTestCase {
    let size = PixelSize(width: 4, height: 2)
    // Ground-truth disparity (NaN unknown) and an estimate (NaN missing).
    let truth: [Float] = [10, 10, 10, 10, 20, 20, .nan, 20]
    let estimate: [Float] = [10.2, 10.7, 11.5, .nan, 23, 20, 5, 17.5]

    func disparityMaps() throws -> (EvaluationMap, EvaluationMap) {
        (try EvaluationMap(size: size, values: estimate, kind: .disparityPixels),
         try EvaluationMap(size: size, values: truth, kind: .disparityPixels))
    }

    func testDisparityScoresMatchHandCounts() throws {
        let (e, g) = try disparityMaps()
        let report = try StereoEvaluation(estimate: e, truth: g, options: EvaluationOptions(space: .disparity)).report
        let all = report.all
        // Evaluated: 7 (index 6 has no truth); valid: 6 (index 3 missing).
        XCTAssertEqual(all.evaluatedPixels, 7)
        XCTAssertEqual(all.validPixels, 6)
        XCTAssertClose(all.coverage, 6.0 / 7, absolute: 1e-12)
        // Errors of the valid pixels: 0.2, 0.7, 1.5, 3, 0, 2.5.
        let d = try XCTUnwrap(all.disparity)
        let expectedAbove: [Double: Int] = [0.5: 4, 1: 3, 2: 2, 4: 0]
        for bad in d.bad {
            let above = Double(try XCTUnwrap(expectedAbove[bad.thresholdPixels]))
            XCTAssertClose(bad.fraction, (above + 1) / 7, absolute: 1e-9, "bad\(bad.thresholdPixels): the missing pixel counts as bad")
            XCTAssertClose(bad.fractionOfValid, above / 6, absolute: 1e-9)
        }
        XCTAssertClose(d.averageErrorPixels, 7.9 / 6, absolute: 1e-5)
        XCTAssertClose(d.rmsErrorPixels, ((0.04 + 0.49 + 2.25 + 9 + 0 + 6.25) / 6).squareRoot(), absolute: 1e-5)
        XCTAssertNil(all.depth)
    }

    func testRegionAndMaskLimitTheScoredPixels() throws {
        let (e, g) = try disparityMaps()
        var options = EvaluationOptions(space: .disparity)
        options.region = PixelRect(x: 1, y: 0, width: 3, height: 2)  // drops column 0
        options.mask = [true, true, false, true, true, true, true, true]  // drops (2, 0)
        let all = try StereoEvaluation(estimate: e, truth: g, options: options).report.all
        // Left: (1,0) 0.7, (3,0) missing, (1,1) 0, (3,1) 2.5.
        XCTAssertEqual(all.evaluatedPixels, 4)
        XCTAssertEqual(all.validPixels, 3)
        XCTAssertClose(try XCTUnwrap(all.disparity?.bad(2)).fraction, 2.0 / 4, absolute: 1e-12)
        options.region = PixelRect(x: 3, y: 0, width: 2, height: 1)
        XCTAssertThrowsError(try StereoEvaluation(estimate: e, truth: g, options: options), "a region outside the map")
        options.region = nil
        options.mask = [Bool](repeating: false, count: 8)
        XCTAssertThrowsError(try StereoEvaluation(estimate: e, truth: g, options: options)) { error in
            XCTAssertTrue("\(error)".contains("no valid pixel"), "\(error)")
        }
    }

    func testDepthScoresAndDeltas() throws {
        let g = try EvaluationMap(size: PixelSize(width: 4, height: 1), values: [1, 2, 4, 5], kind: .depthMetres)
        let e = try EvaluationMap(size: PixelSize(width: 4, height: 1), values: [1.02, 2.2, 6, 0], kind: .depthMetres)
        let all = try StereoEvaluation(estimate: e, truth: g, options: EvaluationOptions(space: .depth)).report.all
        XCTAssertEqual(all.validPixels, 3, "a depth of 0 is missing")
        let d = try XCTUnwrap(all.depth)
        XCTAssertClose(d.absoluteRelativeError, (0.02 + 0.1 + 0.5) / 3, absolute: 1e-6)
        XCTAssertClose(d.rmseMetres, ((0.0004 + 0.04 + 4) / 3).squareRoot(), absolute: 1e-6)
        XCTAssertClose(d.maeMetres, (0.02 + 0.2 + 2) / 3, absolute: 1e-6)
        XCTAssertClose(d.delta105, 1.0 / 3, absolute: 1e-12)  // ratios 1.02, 1.1, 1.5
        XCTAssertClose(d.delta125, 2.0 / 3, absolute: 1e-12)
        XCTAssertNil(all.disparity)
    }

    func testDisparityAndDepthConvertThroughTheGeometryWithDoffs() throws {
        let geometry = try DisparityGeometry(pixelsPerInverseMetre: 600, offsetPixels: 100)
        XCTAssertEqual(geometry.depthMetres(disparityPixels: 200), 2)  // 600 / (200 + 100)
        XCTAssertEqual(geometry.disparityPixels(depthMetres: 2), 200)
        XCTAssertEqual(geometry.depthMetres(disparityPixels: -100), .infinity)
        XCTAssertTrue(geometry.depthMetres(disparityPixels: -150).isNaN)
        // Truth in Middlebury disparity with doffs; the estimate is a dualcam
        // pixel map (k 300 at its size, doffs 0): both are compared as depth
        // or in the truth's disparity.
        var truth = try EvaluationMap(size: PixelSize(width: 2, height: 1), values: [200, 50], kind: .disparityPixels)
        truth.geometry = geometry  // depths 2 m and 4 m
        let estimate = try EvaluationMap(
            try DepthMap(size: PixelSize(width: 2, height: 1), values: [150, 75], type: .pixels, pixelsPerInverseMetre: 300))
        XCTAssertEqual(try estimate.values(in: .depth, target: geometry), [2, 4])
        XCTAssertEqual(try estimate.values(in: .disparity, target: geometry), [200, 50])
        let report = try StereoEvaluation(estimate: estimate, truth: truth, options: EvaluationOptions(space: .disparity)).report
        XCTAssertEqual(report.all.disparity?.averageErrorPixels, 0)
        // Without a geometry, depth cannot become disparity.
        let depth = try EvaluationMap(size: PixelSize(width: 2, height: 1), values: [2, 4], kind: .depthMetres)
        XCTAssertThrowsError(try depth.values(in: .disparity, target: nil))
        XCTAssertEqual(try depth.values(in: .disparity, target: geometry), [200, 50])
    }

    func testGeometryOfARectifiedRigAndRefusalOfAWideTeleRig() throws {
        // Middlebury's Adirondack calib.txt: k = f B, doffs = cx1 - cx0.
        let rig = try Rig(
            reference: .wide,
            cameras: [
                RigCamera(name: .wide, model: CameraModel(intrinsics: try Intrinsics(fx: 4161.221, fy: 4161.221, cx: 1445.577, cy: 984.686,
                                                                                     referenceSize: PixelSize(width: 2880, height: 1988)))),
                RigCamera(name: .tele, model: CameraModel(intrinsics: try Intrinsics(fx: 4161.221, fy: 4161.221, cx: 1654.636, cy: 984.686,
                                                                                     referenceSize: PixelSize(width: 2880, height: 1988)))),
            ],
            extrinsics: [try RigidTransform(rotation: .identity, translation: Vector3(-176.252, 0, 0), unit: .millimetre, from: .wide, to: .tele)])
        let full = try DisparityGeometry(rectifiedRig: rig, size: PixelSize(width: 2880, height: 1988))
        XCTAssertClose(full.pixelsPerInverseMetre, 4161.221 * 0.176252, relative: 1e-9)
        XCTAssertClose(full.offsetPixels, 209.059, absolute: 1e-9)
        let half = try DisparityGeometry(rectifiedRig: rig, size: PixelSize(width: 1440, height: 994))
        XCTAssertClose(half.offsetPixels, 209.059 / 2, absolute: 1e-9)
        var rotated = rig
        let tilted = try RigidTransform(rotation: Rotation(axis: Vector3(0, 1, 0), angle: 0.01), translation: Vector3(-176.252, 0, 0),
                                    unit: .millimetre, from: .wide, to: .tele)
        rotated = try Rig(reference: .wide, cameras: rig.cameras, extrinsics: [tilted])
        XCTAssertThrowsError(try DisparityGeometry(rectifiedRig: rotated, size: PixelSize(width: 2880, height: 1988))) { error in
            XCTAssertTrue("\(error)".contains("not a rectified pair"), "\(error)")
        }
    }

    func testDiscontinuityBandSplitsTheScores() throws {
        // A step from 10 to 40 px between columns 4 and 5 of a 10x3 map; the estimate is off by 3 px on the step's two columns only.
        let s = PixelSize(width: 10, height: 3)
        var t = [Float](repeating: 10, count: 30), e = t
        for y in 0..<3 { for x in 5..<10 { t[y * 10 + x] = 40; e[y * 10 + x] = 40 } }
        for y in 0..<3 { e[y * 10 + 4] += 3; e[y * 10 + 5] += 3 }
        var options = EvaluationOptions(space: .disparity)
        options.bandRadius = 1
        let report = try StereoEvaluation(estimate: try EvaluationMap(size: s, values: e, kind: .disparityPixels),
                                          truth: try EvaluationMap(size: s, values: t, kind: .disparityPixels), options: options).report
        XCTAssertEqual(report.band.evaluatedPixels, 12, "columns 3 to 6")
        XCTAssertEqual(report.interior.evaluatedPixels, 18)
        XCTAssertEqual(report.interior.disparity?.bad(2)?.fraction, 0)
        XCTAssertEqual(report.band.disparity?.bad(2)?.fraction, 0.5)
        XCTAssertClose(try XCTUnwrap(report.all.disparity?.bad(2)).fraction, 6.0 / 30, absolute: 1e-12)
    }

    func testErrorMapColoursEachClass() throws {
        let (e, g) = try disparityMaps()
        let evaluation = try StereoEvaluation(estimate: e, truth: g, options: EvaluationOptions(space: .disparity))
        let image = evaluation.errorMap(badThreshold: 2)
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.channels, 3)
        let pixels = try image.pixels(as: UInt8.self)
        func colour(_ i: Int) -> [UInt8] { Array(pixels[3 * i..<3 * i + 3]) }
        XCTAssertEqual(colour(0), [128, 128, 128], "error 0.2: good")
        XCTAssertEqual(colour(3), [0, 0, 0], "missing")
        XCTAssertEqual(colour(4), [255, 0, 0], "error 3: bad")
        XCTAssertEqual(colour(6), [255, 255, 255], "no truth: not scored")
        XCTAssertEqual(colour(7), [255, 0, 0], "error 2.5: bad")
    }

    func testStreakRatioTellsRowsFromNoise() throws {
        // 40x40 truth 10 px; one estimate off by a different amount on each
        // row (horizontal streaks), one off by noise without a direction.
        let s = PixelSize(width: 40, height: 40)
        let truth = try EvaluationMap(size: s, values: [Float](repeating: 10, count: 1600), kind: .disparityPixels)
        var generator = SeededGenerator(seed: 3)
        let rowOffsets = (0..<40).map { _ in Float.random(in: -1...1, using: &generator) }
        let streaks = (0..<1600).map { 10 + rowOffsets[$0 / 40] + Float.random(in: -0.01...0.01, using: &generator) }
        let noise = (0..<1600).map { _ in 10 + Float.random(in: -1...1, using: &generator) }
        let options = EvaluationOptions(space: .disparity)
        let streaky = try StereoEvaluation(estimate: try EvaluationMap(size: s, values: streaks, kind: .disparityPixels), truth: truth, options: options).report
        let isotropic = try StereoEvaluation(estimate: try EvaluationMap(size: s, values: noise, kind: .disparityPixels), truth: truth, options: options).report
        XCTAssertGreaterThan(streaky.all.streakRatio, 100)
        XCTAssertEqual(isotropic.all.streakRatio, 1, accuracy: 0.15)
        // Transposed streaks (columns) give the reciprocal side.
        let columns = (0..<1600).map { 10 + rowOffsets[$0 % 40] + Float.random(in: -0.01...0.01, using: &generator) }
        let vertical = try StereoEvaluation(estimate: try EvaluationMap(size: s, values: columns, kind: .disparityPixels), truth: truth, options: options).report
        XCTAssertLessThan(vertical.all.streakRatio, 0.01)
    }

    func testReportEncodesMissingScoresAsNull() throws {
        let (e, g) = try disparityMaps()
        var options = EvaluationOptions(space: .disparity)
        options.bandRadius = 0
        options.mask = [true, true, false, true, true, true, true, true]  // (2, 0) is the only pixel beside no 10/20 jump
        let report = try StereoEvaluation(estimate: e, truth: g, options: options).report
        XCTAssertEqual(report.band.evaluatedPixels, 6, "every other pixel with truth has a 10/20 jump below or above it")
        XCTAssertEqual(report.interior.evaluatedPixels, 0)
        let json = String(decoding: try JSONEncoder().encode(report.interior), as: UTF8.self)
        XCTAssertTrue(json.contains("\"coverage\":null"), json)
    }
}
