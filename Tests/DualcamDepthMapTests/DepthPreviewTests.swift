import DualcamGeometry
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class DepthPreviewTests: XCTestCase {
    func testNearIsBlueFarIsRedMissingIsBlack() throws {
        // Left half near (1 m), right half far (5 m), one missing pixel.
        let w = 64, h = 8
        var values = [Float](repeating: 1, count: w * h)
        for y in 0..<h { for x in (w / 2)..<w { values[y * w + x] = 5 } }
        values[0] = .nan
        let map = try DepthMap(size: PixelSize(width: w, height: h), values: values, type: .depth)
        let (image, range) = try DepthPreview.render(map)
        XCTAssertEqual(range, DepthPreview.Range(nearMetres: 1, farMetres: 5))
        XCTAssertEqual(image.width, w)
        XCTAssertGreaterThan(image.height, h, "legend strip below the map")
        let near = (r: image[x: 5, y: 4, channel: 0], b: image[x: 5, y: 4, channel: 2])
        let far = (r: image[x: 50, y: 4, channel: 0], b: image[x: 50, y: 4, channel: 2])
        XCTAssertGreaterThan(near.b, near.r)
        XCTAssertGreaterThan(far.r, far.b)
        XCTAssertGreaterThan(near.b, far.b)
        XCTAssertEqual((0..<3).map { image[x: 0, y: 0, channel: $0] }, [0, 0, 0])
    }

    func testLegendHasRampAndLabels() throws {
        let w = 320, h = 4
        let values = (0..<(w * h)).map { Float(0.5 + Double($0 % w) / Double(w) * 5) }
        let map = try DepthMap(size: PixelSize(width: w, height: h), values: values, type: .depth)
        let range = DepthPreview.Range(nearMetres: 0.4, farMetres: 6)
        let (image, used) = try DepthPreview.render(map, range: range)
        XCTAssertEqual(used, range)
        let legend = try Image(width: w, height: image.height - h, channels: 3,
                               pixels: Array(try image.pixels(as: UInt8.self)[(w * h * 3)...]))
        // The ramp: blue at the left end, red at the right end.
        let rampRow = try DepthPreview.legendRampRow(width: w)
        XCTAssertGreaterThan(legend[x: 10, y: rampRow, channel: 2], legend[x: 10, y: rampRow, channel: 0])
        XCTAssertGreaterThan(legend[x: w - 10, y: rampRow, channel: 0], legend[x: w - 10, y: rampRow, channel: 2])
        // The labels: white-ish text pixels below the ramp on both sides.
        func whiteCount(_ xs: Range<Int>) -> Int {
            var count = 0
            for y in (rampRow + 4)..<legend.height { for x in xs where legend[x: x, y: y, channel: 0] > 128
                && legend[x: x, y: y, channel: 1] > 128 && legend[x: x, y: y, channel: 2] > 128 { count += 1 } }
            return count
        }
        XCTAssertGreaterThan(whiteCount(0..<80), 20, "near label drawn")
        XCTAssertGreaterThan(whiteCount((w - 80)..<w), 20, "far label drawn")
        XCTAssertEqual(whiteCount(120..<200), 0)
        XCTAssertEqual(DepthPreview.label(metres: 0.4), "0.40 m")
        XCTAssertEqual(DepthPreview.label(metres: 12.34), "12.3 m")
    }

    func testRobustRangeIgnoresOutliersAndBadRangesFail() throws {
        var values = [Float](repeating: 2, count: 100)
        for i in 0..<50 { values[i] = 1 + Float(i) / 50 }
        values[99] = 1000
        values[98] = .nan
        let range = try XCTUnwrap(DepthPreview.robustRange(values))
        XCTAssertEqual(range.nearMetres, 1, accuracy: 0.05)
        XCTAssertEqual(range.farMetres, 2)
        XCTAssertNil(DepthPreview.robustRange([.nan, 0]))
        let flat = try XCTUnwrap(DepthPreview.robustRange([3, 3]))
        XCTAssertEqual(flat.farMetres - flat.nearMetres, 0.01, accuracy: 1e-9)
        let map = try DepthMap(size: PixelSize(width: 2, height: 1), values: [1, 2], type: .depth)
        XCTAssertThrowsError(try DepthPreview.render(map, range: .init(nearMetres: 2, farMetres: 1)))
        let empty = try DepthMap(size: PixelSize(width: 40, height: 2), type: .depth)
        XCTAssertNil(try DepthPreview.render(empty).range)
        let pixels = try DepthMap(size: PixelSize(width: 2, height: 1), values: [1, 2], type: .pixels)
        XCTAssertThrowsError(try DepthPreview.render(pixels), "pixel disparity needs f*B to become metres")
    }

    func testWriteIsAtomicPNG() throws {
        let dir = try TemporaryDirectory()
        let map = try DepthMap(size: PixelSize(width: 8, height: 6), filledWith: 2, type: .depth)
        try DepthPreview.write(map, to: dir.path("p.png"))
        let read = try ImageIO.read(dir.path("p.png"))
        XCTAssertEqual(read.channels, 3)
        XCTAssertThrowsError(try DepthPreview.write(map, to: dir.path("p.pfm")))
        XCTAssertEqual(try dir.fileNames(), ["p.png"])
    }
}
