import DualcamGeometry
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class DepthMapTests: XCTestCase {
    let size = PixelSize(width: 3, height: 2)

    func testConversionsAreReciprocalsAndRoundTrip() throws {
        let depth: [Float] = [0.4, 1, 2.5, 6, 100, .nan]
        let map = try DepthMap(size: size, values: depth, type: .depth, pixelsPerInverseMetre: 12.5)
        let disparity = try map.converted(to: .disparity)
        XCTAssertEqual(disparity.type, .disparity)
        XCTAssertEqual(Array(disparity.values.prefix(5)), [2.5, 1, 0.4, Float(1.0 / 6.0), 0.01])
        XCTAssertTrue(disparity.values[5].isNaN)
        let pixels = try map.converted(to: .pixels)
        XCTAssertEqual(Array(pixels.values.prefix(5)), [31.25, 12.5, 5, Float(12.5 / 6.0), 0.125])
        for target in DepthDataType.allCases {
            let back = try map.converted(to: target).converted(to: .depth)
            for (a, b) in zip(back.values, depth) {
                if b.isNaN { XCTAssertTrue(a.isNaN) } else { XCTAssertEqual(a, b, accuracy: b.ulp, "via \(target)") }
            }
        }
        let fromPixels = try pixels.converted(to: .disparity)
        XCTAssertClose(fromPixels.values.prefix(5).map(Double.init), [2.5, 1, 0.4, 1.0 / 6, 0.01], relative: 1e-7)
    }

    func testZeroDisparityIsInfiniteDepthAndInvalidValuesBecomeNaN() throws {
        let disparity = try DepthMap(size: size, values: [0, -0.1, .infinity, .nan, 0.5, 4], type: .disparity)
        let depth = try disparity.converted(to: .depth).values
        XCTAssertEqual(depth[0], .infinity)
        XCTAssertTrue(depth[1].isNaN && depth[2].isNaN && depth[3].isNaN)
        XCTAssertEqual(depth[4], 2)
        XCTAssertEqual(depth[5], 0.25)
        let depthMap = try DepthMap(size: size, values: [.infinity, 0, -1, -.infinity, .nan, 2], type: .depth)
        let back = try depthMap.converted(to: .disparity).values
        XCTAssertEqual(back[0], 0)
        XCTAssertTrue(back[1].isNaN && back[2].isNaN && back[3].isNaN && back[4].isNaN)
        XCTAssertEqual(back[5], 0.5)
    }

    func testPixelConversionNeedsBaselineFocal() throws {
        let map = try DepthMap(size: size, filledWith: 1, type: .depth)
        XCTAssertThrowsError(try map.converted(to: .pixels)) { error in
            XCTAssertTrue("\(error)".contains("pixels per inverse metre"), "\(error)")
        }
        XCTAssertNoThrow(try map.converted(to: .disparity))
    }

    func testInitRejectsBadInput() throws {
        XCTAssertThrowsError(try DepthMap(size: size, values: [1, 2], type: .depth))
        XCTAssertThrowsError(try DepthMap(size: PixelSize(width: 0, height: 2), values: [], type: .depth))
        XCTAssertThrowsError(try DepthMap(size: size, filledWith: 1, type: .pixels, pixelsPerInverseMetre: 0))
        let k = try Intrinsics(fx: 10, fy: 10, cx: 1, cy: 1, referenceSize: PixelSize(width: 4, height: 2))
        XCTAssertThrowsError(try DepthMap(size: size, filledWith: 1, type: .depth, intrinsics: k))
        XCTAssertThrowsError(try DepthDataType(parsing: "meters")) { XCTAssertTrue("\($0)".hasPrefix("--type:")) }
        XCTAssertEqual(try DepthDataType(parsing: "Pixels"), .pixels)
        XCTAssertThrowsError(try DepthPrecision(parsing: "64")) { XCTAssertTrue("\($0)".hasPrefix("--precision:")) }
        XCTAssertEqual(try DepthPrecision(parsing: "16"), .float16)
    }

    func testValidityCountsAndBoundingBox() throws {
        let map = try DepthMap(size: PixelSize(width: 4, height: 3),
                               values: [.nan, .nan, .nan, .nan, .nan, 1, 2, .nan, .nan, 0, 3, .nan], type: .depth)
        XCTAssertEqual(map.validCount, 3)
        XCTAssertEqual(map.validFraction, 0.25)
        XCTAssertEqual(map.validBoundingBox, PixelRect(x: 1, y: 1, width: 2, height: 2))
        XCTAssertNil(try DepthMap(size: size, type: .depth).validBoundingBox)
    }

    func testImageRoundTripAndFloat16Rounding() throws {
        let map = try DepthMap(size: size, values: [0.1, 1.0001, 3, .nan, 70000, 5], type: .depth)
        XCTAssertEqual(try DepthMap(image: map.image(), type: .depth), map)
        let half = try DepthMap(image: map.image(precision: .float16), type: .depth)
        XCTAssertEqual(half.values[1], 1.0, "1.0001 rounds to 1 in float16")
        XCTAssertEqual(half.values[4], .infinity)
        XCTAssertEqual(half, map.rounded(to: .float16))
        XCTAssertThrowsError(try DepthMap(image: try Image(width: 2, height: 2, channels: 3, element: .float32), type: .depth))
    }

    func testNearestResizeNeverBlends() throws {
        let values: [Float] = [1, 1, 5, 5,
                               1, 1, 5, 5,
                               .nan, .nan, 2, 2,
                               .nan, .nan, 2, 2]
        let map = try DepthMap(size: PixelSize(width: 4, height: 4), values: values, type: .depth)
        let small = try map.resized(to: PixelSize(width: 2, height: 2), method: .nearest)
        XCTAssertEqual(small.values[0], 1)
        XCTAssertEqual(small.values[1], 5)
        XCTAssertTrue(small.values[2].isNaN)
        XCTAssertEqual(small.values[3], 2)
    }

    func testAreaResizeAveragesOnlyValidValues() throws {
        // 2x2 blocks: all valid; 3 valid + NaN; 1 valid + 3 NaN (below half: NaN); all NaN.
        let values: [Float] = [1, 3, 4, .nan,
                               5, 7, 4, 4,
                               .nan, .nan, .nan, .nan,
                               9, .nan, .nan, .nan]
        let k = try Intrinsics(fx: 8, fy: 8, cx: 1.5, cy: 1.5, referenceSize: PixelSize(width: 4, height: 4))
        let map = try DepthMap(size: PixelSize(width: 4, height: 4), values: values, type: .depth, intrinsics: k,
                               pixelsPerInverseMetre: 20)
        let small = try map.resized(to: PixelSize(width: 2, height: 2), method: .area)
        XCTAssertEqual(small.values[0], 4, accuracy: 1e-6)
        XCTAssertEqual(small.values[1], 4, accuracy: 1e-6)
        XCTAssertTrue(small.values[2].isNaN, "one valid of four is below the half-coverage rule")
        XCTAssertTrue(small.values[3].isNaN)
        XCTAssertEqual(small.intrinsics?.fx, 4)
        XCTAssertEqual(small.intrinsics?.referenceSize, PixelSize(width: 2, height: 2))
        XCTAssertEqual(small.pixelsPerInverseMetre, 10)
    }

    func testResizeScalesPixelDisparities() throws {
        let map = try DepthMap(size: PixelSize(width: 4, height: 2), filledWith: 8, type: .pixels, pixelsPerInverseMetre: 16)
        let small = try map.resized(to: PixelSize(width: 2, height: 1), method: .area)
        XCTAssertEqual(small.values, [4, 4])
        XCTAssertEqual(try small.converted(to: .depth).values, [2, 2], "depth is unchanged by resizing")
        let big = try map.resized(to: PixelSize(width: 8, height: 4), method: .nearest)
        XCTAssertEqual(Set(big.values), [16])
        XCTAssertThrowsError(try map.resized(to: PixelSize(width: 4, height: 4))) {
            XCTAssertTrue("\($0)".contains("aspect ratio"))
        }
    }
}
