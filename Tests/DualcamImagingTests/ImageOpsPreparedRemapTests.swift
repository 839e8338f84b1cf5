import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class ImageOpsPreparedRemapTests: XCTestCase {
    /// Maps of a 80x64 destination: a rotation by 0.2 rad, scale 1.1 and an
    /// offset, with a little radial bulge, partly outside the 96x80 source.
    private func maps() throws -> (Image, Image) {
        let width = 80, height = 64
        let c = cos(0.2), s = sin(0.2)
        let mapX = try OpsFixtures.float32(width: width, height: height) { x, y in
            let dx = Double(x) - 40, dy = Double(y) - 32, r2 = (dx * dx + dy * dy) / 2000
            return Float((1.1 * (c * dx - s * dy)) * (1 + 0.05 * r2) + 48.3)
        }
        let mapY = try OpsFixtures.float32(width: width, height: height) { x, y in
            let dx = Double(x) - 40, dy = Double(y) - 32, r2 = (dx * dx + dy * dy) / 2000
            return Float((1.1 * (s * dx + c * dy)) * (1 + 0.05 * r2) + 37.7)
        }
        return (mapX, mapY)
    }

    /// A textured RGB uint8 image with different content per channel.
    private func texturedRGB() throws -> Image {
        let planes = try (0..<3).map { try OpsFixtures.floats(OpsFixtures.texture(sigma: 1.2, seed: UInt64(11 + $0))) }
        var values = [UInt8]()
        for i in 0..<planes[0].count {
            for k in 0..<3 { values.append(UInt8(max(0, min(255, (planes[k][i] - 0.5) * 1200 + 128)).rounded())) }
        }
        return try Image(width: 96, height: 80, channels: 3, pixels: values)
    }

    func testPreparedRemapEqualsRemapWithinOneGreyLevel() throws {
        let (mapX, mapY) = try maps()
        let prepared = try PreparedRemap(mapX: mapX, mapY: mapY)
        XCTAssertEqual([prepared.width, prepared.height], [80, 64])
        let rgb = try texturedRGB()
        for interpolation in [ImageOps.Interpolation.linear, .cubic, .lanczos4] {
            for border in [ImageOps.Border.zero, .constant(value: 77), .replicate] {
                let expected = try ImageOps.remap(rgb, mapX: mapX, mapY: mapY, interpolation: interpolation, border: border)
                let actual = try prepared.apply(rgb, interpolation: interpolation, border: border)
                XCTAssertEqual([actual.width, actual.height, actual.channels], [80, 64, 3])
                XCTAssertEqual(actual.element, .uint8)
                let a = try actual.pixels(as: UInt8.self), e = try expected.pixels(as: UInt8.self)
                let worst = zip(a, e).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 1, "\(interpolation) \(border)")
            }
        }
        // Default arguments: bilinear, black border; channels keep their order.
        XCTAssertEqual(try prepared.apply(rgb), try ImageOps.remap(rgb, mapX: mapX, mapY: mapY))
    }

    func testPreparedRemapOfFloatImagesMatchesIncludingNaNBorder() throws {
        let (mapX, mapY) = try maps()
        let prepared = try PreparedRemap(mapX: mapX, mapY: mapY)
        let grey = try OpsFixtures.texture()
        let border = ImageOps.Border.constant(value: .nan)
        let expected = OpsFixtures.floats(try ImageOps.remap(grey, mapX: mapX, mapY: mapY, border: border))
        let actual = OpsFixtures.floats(try prepared.apply(grey, border: border))
        XCTAssertEqual(actual.count, expected.count)
        XCTAssertTrue(expected.contains { $0.isNaN })
        for (a, e) in zip(actual, expected) {
            XCTAssertEqual(a.isNaN, e.isNaN)
            if !e.isNaN { XCTAssertEqual(a, e, accuracy: 1e-5) }
        }
        let half = grey.converted(to: .float16)
        XCTAssertEqual(try prepared.apply(half), try ImageOps.remap(half, mapX: mapX, mapY: mapY))
    }

    func testBadMapsAndNearestThrow() throws {
        let (mapX, mapY) = try maps()
        let grey = try OpsFixtures.texture()
        assertThrowsDualcamError(try PreparedRemap(mapX: mapX, mapY: grey), mentioning: "convertMaps", "y map")
        assertThrowsDualcamError(try PreparedRemap(mapX: mapX, mapY: grey.converted(to: .uint8)),
                                 mentioning: "convertMaps", "float32")
        let prepared = try PreparedRemap(mapX: mapX, mapY: mapY)
        assertThrowsDualcamError(try prepared.apply(grey, interpolation: .nearest), mentioning: "remap", "nearest")
        assertThrowsDualcamError(try prepared.apply(grey, interpolation: .area), mentioning: "remap", "area")
    }
}
