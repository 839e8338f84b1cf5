import DualcamGeometry
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class OutputSizeAndConfidenceTests: XCTestCase {
    func testNamedSizesFollowTheReferenceAspect() throws {
        let fourThree = PixelSize(width: 1920, height: 1440), sixteenNine = PixelSize(width: 1920, height: 1080)
        XCTAssertEqual(try DepthOutputSize.streaming.resolved(for: fourThree), PixelSize(width: 320, height: 240))
        XCTAssertEqual(try DepthOutputSize.streaming.resolved(for: sixteenNine), PixelSize(width: 320, height: 180))
        XCTAssertEqual(try DepthOutputSize.photo.resolved(for: fourThree), PixelSize(width: 768, height: 576))
        XCTAssertEqual(try DepthOutputSize.photo.resolved(for: sixteenNine), PixelSize(width: 768, height: 432))
        XCTAssertEqual(try DepthOutputSize.native.resolved(for: sixteenNine), sixteenNine)
        // Another aspect (Middlebury-like 2880x1988): width kept, height derived.
        XCTAssertEqual(try DepthOutputSize.streaming.resolved(for: PixelSize(width: 2880, height: 1988)),
                       PixelSize(width: 320, height: 221))
    }

    func testParsingAndExplicitSizes() throws {
        XCTAssertEqual(try DepthOutputSize(parsing: "Photo"), .photo)
        XCTAssertEqual(try DepthOutputSize(parsing: "640x480"), .explicit(PixelSize(width: 640, height: 480)))
        XCTAssertEqual(try DepthOutputSize(parsing: "640x480").resolved(for: PixelSize(width: 1920, height: 1440)),
                       PixelSize(width: 640, height: 480))
        XCTAssertEqual(try DepthOutputSize(parsing: "641x480").resolved(for: PixelSize(width: 1920, height: 1440)),
                       PixelSize(width: 641, height: 480), "within one pixel of the aspect")
        XCTAssertThrowsError(try DepthOutputSize(parsing: "big")) { error in
            XCTAssertEqual("\(error)", "--size: 'big' is not a depth size (expected streaming, photo, native or WxH, e.g. 320x240)")
        }
        XCTAssertThrowsError(try DepthOutputSize(parsing: "0x10"))
        XCTAssertThrowsError(try DepthOutputSize.explicit(PixelSize(width: 640, height: 360)).resolved(for: PixelSize(width: 1920, height: 1440))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("--size: 640x360 does not have the reference aspect"), text)
            XCTAssertTrue(text.contains("640x480"), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }

    func testConfidenceLevelsAndEncodings() throws {
        let map = try ConfidenceMap(size: PixelSize(width: 3, height: 2), values: [0, 0.34, 0.35, 0.69, 0.7, .nan])
        XCTAssertEqual(map.levels, [.low, .low, .medium, .medium, .high, .low])
        XCTAssertEqual(map.levelCounts, [.low: 3, .medium: 2, .high: 1])
        let eight = try ConfidenceMap(size: PixelSize(width: 4, height: 1), values: [0, 0.2, 0.5, 1])
        XCTAssertEqual(try eight.image(.eightBit).pixels(as: UInt8.self), [0, 51, 128, 255])
        XCTAssertEqual(try map.image(.levels).pixels(as: UInt8.self), [0, 0, 1, 1, 2, 0])
        XCTAssertEqual(try ConfidenceMap.levels(from: map.image(.levels)), map.levels)
        XCTAssertEqual(try ConfidenceMap(size: PixelSize(width: 2, height: 1), values: [-1, 2]).values, [0, 1])
        XCTAssertThrowsError(try ConfidenceMap(size: PixelSize(width: 2, height: 2), values: [1]))
        let bad = try Image(width: 1, height: 1, channels: 1, pixels: [UInt8(3)])
        XCTAssertThrowsError(try ConfidenceMap.levels(from: bad))
    }

    func testConfidenceFilesRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let map = try ConfidenceMap(size: PixelSize(width: 2, height: 2), values: [0, 0.25, 0.5, 1])
        try map.write(to: dir.path("c.pfm"))
        XCTAssertEqual(try ConfidenceMap.read(dir.path("c.pfm")), map)
        try map.write(to: dir.path("c.png"))
        let eight = try ConfidenceMap.read(dir.path("c.png"))
        for (a, b) in zip(eight.values, map.values) { XCTAssertEqual(a, b, accuracy: 0.5 / 255 + 1e-6) }
        try map.write(to: dir.path("l.png"), encoding: .levels)
        XCTAssertEqual(try ConfidenceMap.levels(from: ImageIO.read(dir.path("l.png"))), map.levels)
    }
}
