import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class EvaluationMapReaderTests: XCTestCase {
    func testMiddleburyPFMAndPNGDisparity() throws {
        let dir = try TemporaryDirectory()
        let pfm = dir.path("disp0GT.pfm")
        try PFM.write(try Image(width: 3, height: 1, channels: 1, pixels: [Float(12.5), .infinity, 0]), to: pfm)
        let (fromPFM, _) = try EvaluationMapReader.readGroundTruth(pfm, format: .auto)
        XCTAssertEqual(fromPFM.kind, .disparityPixels)
        XCTAssertEqual(fromPFM.values[0], 12.5)
        XCTAssertTrue(fromPFM.values[1].isNaN, "inf is Middlebury's unknown")
        XCTAssertEqual(fromPFM.values[2], 0, "a disparity of 0 is a point at infinity, not unknown")

        let png = dir.path("gt.png")
        try ImageIO.write(try Image(width: 3, height: 1, channels: 1, pixels: [UInt8(0), 40, 255]), to: png)
        let (quarter, how) = try EvaluationMapReader.readGroundTruth(png, format: .auto, disparityScale: 4)
        XCTAssertTrue(quarter.values[0].isNaN, "0 is unknown")
        XCTAssertEqual(Array(quarter.values[1...]), [10, 63.75])
        XCTAssertTrue(how.contains("/ 4"), how)
        XCTAssertThrowsError(try EvaluationMapReader.readGroundTruth(png, format: .auto, disparityScale: 0))
    }

    func testKITTIAndMillimetrePNGsMustBeNamed() throws {
        let dir = try TemporaryDirectory()
        let png = dir.path("000000_10.png")
        try ImageIO.write(try Image(width: 2, height: 1, channels: 1, pixels: [UInt16(0), 2560]), to: png)
        XCTAssertThrowsError(try EvaluationMapReader.readGroundTruth(png, format: .auto)) { error in
            XCTAssertTrue("\(error)".contains("--gt-format"), "\(error)")
        }
        let disparity = try EvaluationMapReader.readGroundTruth(png, format: .kittiDisparity).map
        XCTAssertEqual(disparity.kind, .disparityPixels)
        XCTAssertEqual(disparity.values[1], 10)
        XCTAssertTrue(disparity.values[0].isNaN)
        let depth = try EvaluationMapReader.readGroundTruth(png, format: .kittiDepth).map
        XCTAssertEqual(depth.kind, .depthMetres)
        XCTAssertEqual(depth.values[1], 10)
        let millimetres = try EvaluationMapReader.readGroundTruth(png, format: .depth).map
        XCTAssertEqual(millimetres.values[1], 2.56)
        let eightBit = dir.path("eight.png")
        try ImageIO.write(try Image(width: 1, height: 1, channels: 1, pixels: [UInt8(9)]), to: eightBit)
        XCTAssertThrowsError(try EvaluationMapReader.readGroundTruth(eightBit, format: .kittiDisparity)) { error in
            XCTAssertTrue("\(error)".contains("16-bit"), "\(error)")
        }
    }

    func testFloatFilesAreTakenByNameOrNamed() throws {
        let dir = try TemporaryDirectory()
        let image = try Image(width: 2, height: 1, channels: 1, pixels: [Float(2), -1])
        try PFM.write(image, to: dir.path("wide.depth.pfm"))
        let depth = try EvaluationMapReader.readGroundTruth(dir.path("wide.depth.pfm"), format: .auto).map
        XCTAssertEqual(depth.kind, .depthMetres)
        XCTAssertEqual(depth.values[0], 2)
        XCTAssertTrue(depth.values[1].isNaN, "a negative depth is unknown")
        try PFM.write(image, to: dir.path("truth.pfm"))
        XCTAssertThrowsError(try EvaluationMapReader.readGroundTruth(dir.path("truth.pfm"), format: .auto)) { error in
            XCTAssertTrue("\(error)".contains("depth or disparity"), "\(error)")
        }
        XCTAssertEqual(try EvaluationMapReader.readGroundTruth(dir.path("truth.pfm"), format: .disparity).map.values, [2, -1])
    }

    func testDualcamMapsAreReadThroughTheirSidecar() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("depth.pfm")
        let map = try DepthMap(size: PixelSize(width: 2, height: 1), values: [30, .nan], type: .pixels, pixelsPerInverseMetre: 60)
        try DepthMapWriter.writeWithMetadata(map, to: url)
        let (estimate, how) = try EvaluationMapReader.readEstimate(url, type: nil)
        XCTAssertEqual(estimate.kind, .disparityPixels)
        XCTAssertEqual(estimate.geometry?.pixelsPerInverseMetre, 60)
        XCTAssertTrue(how.contains("pixels"), how)
        XCTAssertThrowsError(try EvaluationMapReader.readEstimate(url, type: .depth)) { error in
            XCTAssertTrue("\(error)".contains("sidecar says"), "\(error)")
        }
        let truth = try EvaluationMapReader.readGroundTruth(url, format: .auto).map
        XCTAssertEqual(try truth.values(in: .depth, target: nil)[0], 2)

        let bare = dir.path("other.pfm")
        try PFM.write(map.image(), to: bare)
        XCTAssertThrowsError(try EvaluationMapReader.readEstimate(bare, type: nil)) { error in
            XCTAssertTrue("\(error)".contains("--map-type"), "\(error)")
        }
        let named = try EvaluationMapReader.readEstimate(bare, type: .pixels).map
        XCTAssertNil(named.geometry, "a bare pixel map is in the ground truth's geometry")
    }

    func testMiddleburyMaskSelections() throws {
        let mask = try Image(width: 3, height: 1, channels: 1, pixels: [UInt8(255), 128, 0])
        XCTAssertEqual(try EvaluationMasks.middleburyMask(mask, selection: .nonOccluded), [true, false, false])
        XCTAssertEqual(try EvaluationMasks.middleburyMask(mask, selection: .all), [true, true, false])
        XCTAssertThrowsError(try EvaluationMasks.middleburyMask(try Image(width: 1, height: 1, channels: 3, pixels: [UInt8(0), 0, 0]),
                                                                selection: .all))
    }

    func testResizingScalesDisparitiesAndGeometry() throws {
        var map = try EvaluationMap(size: PixelSize(width: 4, height: 2), values: [8, 8, 16, 16, 8, 8, 16, 16], kind: .disparityPixels)
        map.geometry = try DisparityGeometry(pixelsPerInverseMetre: 100, offsetPixels: 10)
        let half = try map.resized(to: PixelSize(width: 2, height: 1))
        XCTAssertEqual(half.values, [4, 8])
        XCTAssertEqual(half.geometry?.pixelsPerInverseMetre, 50)
        XCTAssertEqual(half.geometry?.offsetPixels, 5)
        XCTAssertThrowsError(try map.resized(to: PixelSize(width: 2, height: 3)), "the aspect ratio changes")
    }
}
