import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class DepthFileTests: XCTestCase {
    static let size = PixelSize(width: 4, height: 3)
    static let depthValues: [Float] = [0.4, 0.5004, 1.23456, 2, 3.3333, 6, 10, 42.5, .nan, 1.0001, 0.75, 5.5]

    func depthMap() throws -> DepthMap {
        try DepthMap(size: Self.size, values: Self.depthValues, type: .depth, pixelsPerInverseMetre: 20)
    }

    func assertSameValues(_ a: [Float], _ b: [Float], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (i, (x, y)) in zip(a, b).enumerated() where !(x == y || (x.isNaN && y.isNaN)) {
            XCTFail("value \(i): \(x) != \(y)", file: file, line: line)
            return
        }
    }

    func testFloatFormatsRoundTripAtBothPrecisions() throws {
        let dir = try TemporaryDirectory()
        var formats: [DepthFileFormat] = [.pfm, .npy]
        if DepthFileFormat.exr.isWritable { formats.append(.exr) }
        for type in DepthDataType.allCases {
            let map = try depthMap().converted(to: type)
            for format in formats {
                for precision in DepthPrecision.allCases {
                    let url = dir.path("m-\(type)-\(precision.rawValue).\(format.rawValue)")
                    let summary = try DepthMapWriter.write(map, to: url, precision: precision)
                    XCTAssertEqual(summary.valid, 11)
                    XCTAssertEqual(summary.encoding, format.encoding(for: type, precision: precision))
                    let back = try DepthMapReader.read(url, type: type, pixelsPerInverseMetre: 20)
                    XCTAssertEqual(back.size, Self.size)
                    assertSameValues(back.values, map.rounded(to: precision).values)
                    if precision == .float16 { XCTAssertNotEqual(back.values[9], map.values[9], "\(format) \(type)") }
                }
            }
        }
        let npy = try NPY.read(dir.path("m-depth-16.npy"))
        XCTAssertEqual(npy.element, .float16, "float16 .npy is stored as <f2")
    }

    func testPNGStoresMillimetresAndKittiPixels() throws {
        let dir = try TemporaryDirectory()
        let map = try depthMap()
        let url = dir.path("d.png")
        let summary = try DepthMapWriter.write(map, to: url)
        XCTAssertEqual(summary.valid, 11)
        XCTAssertEqual(summary.invalid, 1)
        let codes = try ImageIO.read(url)
        XCTAssertEqual(codes.element, .uint16)
        XCTAssertEqual(try codes.pixels(as: UInt16.self), [400, 500, 1235, 2000, 3333, 6000, 10000, 42500, 0, 1000, 750, 5500])
        let back = try DepthMapReader.read(url, type: .depth)
        for (a, b) in zip(back.values, map.values) where !b.isNaN { XCTAssertEqual(a, b, accuracy: 0.0005 + 1e-6) }
        XCTAssertTrue(back.values[8].isNaN)

        let pixels = try map.converted(to: .pixels)  // 20 / depth
        let kitti = dir.path("p.png")
        try DepthMapWriter.write(pixels, to: kitti)
        XCTAssertEqual(try ImageIO.read(kitti).pixels(as: UInt16.self)[0], 12800, "50 px * 256")
        let readPixels = try DepthMapReader.read(kitti, type: .pixels)
        for (a, b) in zip(readPixels.values, pixels.values) where !b.isNaN { XCTAssertEqual(a, b, accuracy: 0.5 / 256 + 1e-6) }

        let far = try DepthMap(size: PixelSize(width: 2, height: 1), values: [70, -1], type: .depth)
        let farSummary = try DepthMapWriter.write(far, to: dir.path("far.png"))
        XCTAssertEqual(farSummary.outOfRange, 1)
        XCTAssertEqual(farSummary.invalid, 1)
    }

    func testBadWritesAndReadsFailCleanly() throws {
        let dir = try TemporaryDirectory()
        let disparity = try depthMap().converted(to: .disparity)
        XCTAssertThrowsError(try DepthMapWriter.write(disparity, to: dir.path("x.png"))) { error in
            XCTAssertTrue("\(error)".contains("x.png: 16-bit PNG stores depth"), "\(error)")
        }
        XCTAssertThrowsError(try DepthMapWriter.write(disparity, to: dir.path("x.jpg"))) { error in
            XCTAssertTrue("\(error)".contains("not a depth map format"), "\(error)")
        }
        XCTAssertThrowsError(try DepthMapWriter.write(disparity, to: dir.path("missing/x.pfm")))
        if !DepthFileFormat.exr.isWritable {
            XCTAssertThrowsError(try DepthMapWriter.write(disparity, to: dir.path("x.exr"))) { error in
                XCTAssertTrue("\(error)".contains("x.exr: this OpenCV build cannot write OpenEXR"), "\(error)")
            }
        }
        XCTAssertEqual(try dir.fileNames(), [], "nothing half-written")
        XCTAssertThrowsError(try DepthMapReader.read(dir.path("none.pfm"), type: .depth)) { error in
            XCTAssertTrue("\(error)".hasSuffix("none.pfm: no such file"), "\(error)")
        }
        try ImageIO.write(try Image(width: 2, height: 2, channels: 3, element: .uint8), to: dir.path("rgb.png"))
        XCTAssertThrowsError(try DepthMapReader.read(dir.path("rgb.png"), type: .depth)) { error in
            XCTAssertTrue("\(error)".contains("expected a 16-bit single-channel depth PNG"), "\(error)")
        }
        try PFM.write(try Image(width: 2, height: 2, channels: 3, element: .float32), to: dir.path("rgb.pfm"))
        XCTAssertThrowsError(try DepthMapReader.read(dir.path("rgb.pfm"), type: .depth))
    }

    func testReaderMapsMissingConventionsToNaN() throws {
        let dir = try TemporaryDirectory()
        let image = try Image(width: 4, height: 1, channels: 1, pixels: [Float(0), -2, .infinity, 3])
        try PFM.write(image, to: dir.path("s.pfm"))
        let depth = try DepthMapReader.read(dir.path("s.pfm"), type: .depth).values
        XCTAssertTrue(depth[0].isNaN && depth[1].isNaN)
        XCTAssertEqual(depth[2], .infinity)
        let disparity = try DepthMapReader.read(dir.path("s.pfm"), type: .pixels).values
        XCTAssertEqual(disparity[0], 0)
        XCTAssertTrue(disparity[2].isNaN, "Middlebury's inf = unknown")
    }
}
