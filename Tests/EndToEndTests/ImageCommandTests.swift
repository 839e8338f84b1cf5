import DualcamImaging
import Foundation
import TestSupport
import XCTest

final class ImageCommandTests: XCTestCase {
    /// A 1-channel float32 depth map in metres (row-major) with NaN, infinity,
    /// zero and negative values among valid depths in 0.1 ... 60 m.
    static func depthFixture(width: Int = 23, height: Int = 17, seed: UInt64 = 7) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        var values = (0..<(width * height)).map { _ in Float.random(in: 0.1...60, using: &rng) }
        let specials: [Float] = [.nan, Float(bitPattern: 0x7FC0_1234), .infinity, -.infinity, 0, -0.0, -1.5, 0.0004]
        for (i, special) in specials.enumerated() { values[i * 13] = special }
        return try Image(width: width, height: height, channels: 1, pixels: values)
    }

    func testFloatPFMWithNaNsThroughNPYAndBackIsBitExact() throws {
        let dir = try TemporaryDirectory()
        for channels in [1, 3] {
            var rng = SeededGenerator(seed: UInt64(100 + channels))
            var values = (0..<(31 * 9 * channels)).map { _ in Float.random(in: -1e6...1e6, using: &rng) }
            let specials: [Float] = [.nan, Float(bitPattern: 0x7FC0_1234), Float(bitPattern: 0xFFA0_0001),
                                     .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
            for (i, special) in specials.enumerated() { values[i * 7] = special }
            let image = try Image(width: 31, height: 9, channels: channels, pixels: values)
            let pfm = "map\(channels).pfm", npy = "map\(channels).npy", back = "back\(channels).pfm"
            try PFM.write(image, to: dir.path(pfm))

            let toNPY = try E2E.succeed(["image", "convert", pfm, npy], in: dir)
            XCTAssertEqual(toNPY.stdout, "")
            XCTAssertEqual(toNPY.stderr, "wrote \(npy) (NPY, 31x9 \(channels)-channel float32 image)\n")
            let viaNPY = try NPY.read(dir.path(npy))
            XCTAssertEqual(viaNPY.element, .float32)
            XCTAssertEqual(viaNPY.channels, channels)
            XCTAssertEqual(try viaNPY.pixels(as: Float.self).map(\.bitPattern), values.map(\.bitPattern))

            try E2E.succeed(["image", "convert", npy, back], in: dir)
            let final = try ImageIO.read(dir.path(back))
            XCTAssertEqual(try final.pixels(as: Float.self).map(\.bitPattern), values.map(\.bitPattern),
                           "\(channels) channels: PFM -> NPY -> PFM is bit-exact")
            XCTAssertEqual(final, image)
            XCTAssertEqual(try Data(contentsOf: dir.path(back)), try Data(contentsOf: dir.path(pfm)),
                           "the same little-endian PFM bytes")
        }
    }

    func testDepthPFMThroughMillimetrePNGAndBack() throws {
        let dir = try TemporaryDirectory()
        let depth = try Self.depthFixture()
        try PFM.write(depth, to: dir.path("depth.pfm"))

        let toPNG = try E2E.succeed(["image", "convert", "depth.pfm", "depth.png", "--depth-png", "mm"], in: dir)
        let input = try depth.pixels(as: Float.self)
        let validCount = input.filter { $0.isFinite && $0 > 0 && ($0 * 1000).rounded() >= 1 }.count
        // 0.0004 m is 0.4 mm: positive but below the first code, stored as 0 with a warning,
        // which also counts the infinite and non-positive values that became 0 (NaN already meant none).
        let other = input.filter { !$0.isNaN && !($0.isFinite && $0 > 0) }.count
        XCTAssertGreaterThan(other, 0, "the fixture has infinite or non-positive values")
        XCTAssertEqual(toPNG.stderr, "dualcam: warning: depth.png: \(1 + other) values stored as 0 (no value): "
            + "1 outside the PNG16 range, \(other) infinite or not positive\n"
            + "wrote depth.png (PNG, 23x17 16-bit depth PNG (mm), \(validCount) valid values)\n")
        let png = try ImageIO.read(dir.path("depth.png"))
        XCTAssertEqual(png.element, .uint16, "a 16-bit PNG")
        XCTAssertEqual(png.channels, 1)
        // The codes are millimetres, 0 meaning no value.
        let expectedCodes = input.map { value -> UInt16 in
            guard value.isFinite, value > 0 else { return 0 }
            let code = (Double(value) * 1000).rounded()
            return code >= 1 && code <= 65535 ? UInt16(code) : 0
        }
        XCTAssertEqual(try png.pixels(as: UInt16.self), expectedCodes)

        try E2E.succeed(["image", "convert", "depth.png", "back.pfm", "--depth-png", "mm"], in: dir)
        let back = try PFM.read(dir.path("back.pfm"))
        XCTAssertEqual(back.width, 23)
        XCTAssertEqual(back.height, 17)
        let output = try back.pixels(as: Float.self)
        for (i, (a, b)) in zip(input, output).enumerated() {
            if a.isNaN || a <= 0 || a.isInfinite || (a * 1000).rounded() < 1 {
                XCTAssertTrue(b.isNaN, "value \(i): \(a) should become NaN, got \(b)")
            } else {
                XCTAssertLessThanOrEqual(abs(Double(a) - Double(b)), 0.0005 + 1e-6, "value \(i): \(a) -> \(b)")
            }
        }
        // Without --depth-png the PNG's raw millimetre codes are read.
        try E2E.succeed(["image", "convert", "depth.png", "codes.npy"], in: dir)
        let codes = try NPY.read(dir.path("codes.npy"))
        XCTAssertEqual(codes.element, .uint16)
        XCTAssertEqual(codes, png)
    }

    func testKittiConventionAndOutOfRangeWarning() throws {
        let dir = try TemporaryDirectory()
        let values: [Float] = [1.5, 255.99, 300, .nan, 0.001, 42.25]
        try PFM.write(try Image(width: 3, height: 2, channels: 1, pixels: values), to: dir.path("disp.pfm"))
        let result = try E2E.succeed(["image", "convert", "disp.pfm", "disp.png", "--depth-png", "kitti"], in: dir)
        XCTAssertTrue(result.stderr.contains("dualcam: warning: disp.png: 2 values stored as 0 (no value): 2 outside the PNG16 range, 0 infinite or not positive"),
                      result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("wrote disp.png (PNG, 3x2 16-bit depth PNG (kitti), 3 valid values)\n"),
                      result.stderr)
        let codes = try ImageIO.read(dir.path("disp.png"))
        XCTAssertEqual(try codes.pixels(as: UInt16.self), [384, 65533, 0, 0, 0, 10816])
    }

    func testInfoJSONStatisticsOfAKnownFixture() throws {
        let dir = try TemporaryDirectory()
        // 4x3, one channel: 9 finite values, 2 NaN, 1 infinity.
        let values: [Float] = [1, 2, 3, .nan, -4, 0.5, .infinity, 10, .nan, 2.5, 7, -1]
        try PFM.write(try Image(width: 4, height: 3, channels: 1, pixels: values), to: dir.path("stats.pfm"))
        let result = try E2E.succeed(["image", "info", "stats.pfm", "--json"], in: dir)
        XCTAssertEqual(result.stderr, "")
        let json = try E2E.jsonObject(result.stdout)
        XCTAssertEqual(json["file"] as? String, "stats.pfm")
        XCTAssertEqual(json["format"] as? String, "PFM")
        XCTAssertEqual(json["width"] as? Int, 4)
        XCTAssertEqual(json["height"] as? Int, 3)
        XCTAssertEqual(json["channels"] as? Int, 1)
        XCTAssertEqual(json["element"] as? String, "float32")
        let stats = try XCTUnwrap(json["statistics"] as? [String: Any])
        XCTAssertEqual(stats["finite_count"] as? Int, 9)
        XCTAssertEqual(stats["nan_count"] as? Int, 2)
        XCTAssertEqual(stats["infinite_count"] as? Int, 1)
        XCTAssertEqual(E2E.double(stats["minimum"]), -4)
        XCTAssertEqual(E2E.double(stats["maximum"]), 10)
        XCTAssertClose(E2E.double(stats["mean"]), 21.0 / 9, relative: 1e-15)

        let text = try E2E.succeed(["image", "info", "stats.pfm"], in: dir).stdout
        XCTAssertEqual(text, """
            stats.pfm: PFM, 4x3 1-channel float32 image
            values: min -4.0, max 10.0, mean \(21.0 / 9) over 9 finite
            non-finite: 2 NaN, 1 infinite

            """)
    }

    func testInfoOfAnRGBA16BitPNG() throws {
        let dir = try TemporaryDirectory()
        var rng = SeededGenerator(seed: 3)
        var values = (0..<(5 * 4 * 4)).map { _ in UInt16.random(in: 100...60000, using: &rng) }
        values[0] = 7
        values[1] = 65535
        try ImageIO.write(try Image(width: 5, height: 4, channels: 4, pixels: values), to: dir.path("rgba.png"))
        let json = try E2E.jsonObject(try E2E.succeed(["image", "info", "rgba.png", "--json"], in: dir).stdout)
        XCTAssertEqual(json["format"] as? String, "PNG")
        XCTAssertEqual(json["channels"] as? Int, 4)
        XCTAssertEqual(json["element"] as? String, "uint16")
        let stats = try XCTUnwrap(json["statistics"] as? [String: Any])
        XCTAssertEqual(stats["finite_count"] as? Int, 80)
        XCTAssertEqual(stats["nan_count"] as? Int, 0)
        XCTAssertEqual(E2E.double(stats["minimum"]), 7)
        XCTAssertEqual(E2E.double(stats["maximum"]), 65535)
        XCTAssertClose(E2E.double(stats["mean"]), values.map(Double.init).reduce(0, +) / 80, relative: 1e-12)
    }

    func testConvertWidensIntegersForFloatFormats() throws {
        let dir = try TemporaryDirectory()
        let values: [UInt8] = [0, 1, 127, 128, 254, 255]
        try ImageIO.write(try Image(width: 2, height: 3, channels: 1, pixels: values), to: dir.path("grey.png"))
        let result = try E2E.succeed(["image", "convert", "grey.png", "grey.pfm"], in: dir)
        XCTAssertEqual(result.stderr, "wrote grey.pfm (PFM, 2x3 1-channel float32 image)\n")
        XCTAssertEqual(try PFM.read(dir.path("grey.pfm")).pixels(as: Float.self), values.map(Float.init))
        // And back: float32 -> 8-bit is not a PNG of floats; NPY keeps them as they are.
        try E2E.succeed(["image", "convert", "grey.pfm", "grey.npy"], in: dir)
        XCTAssertEqual(try NPY.read(dir.path("grey.npy")).pixels(as: Float.self), values.map(Float.init))
    }
}
