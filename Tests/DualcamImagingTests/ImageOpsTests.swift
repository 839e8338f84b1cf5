import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

/// Test images for the OpenCV operations.
enum OpsFixtures {
    /// Smooth random texture: uniform noise in 0...1 blurred with `sigma`, float32, 1 channel.
    static func texture(width: Int = 96, height: Int = 80, sigma: Double = 1.5, seed: UInt64 = 7) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        let noise = (0..<(width * height)).map { _ in Float.random(in: 0...1, using: &rng) }
        return try ImageOps.gaussianBlur(try Image(width: width, height: height, channels: 1, pixels: noise), sigma: sigma)
    }

    /// A float32 1-channel image with every pixel computed by `value(x, y)`.
    static func float32(width: Int, height: Int, _ value: (Int, Int) -> Float) throws -> Image {
        var values = [Float]()
        values.reserveCapacity(width * height)
        for y in 0..<height { for x in 0..<width { values.append(value(x, y)) } }
        return try Image(width: width, height: height, channels: 1, pixels: values)
    }

    static func translation(_ tx: Double, _ ty: Double) -> [Double] { [1, 0, tx, 0, 1, ty, 0, 0, 1] }

    static func floats(_ image: Image) -> [Float] { (try? image.pixels(as: Float.self)) ?? [] }
}

/// The `width` x `height` region of `image` whose top-left pixel is (x, y).
func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) throws -> Image {
    try ImageOps.warpPerspective(image, homography: OpsFixtures.translation(Double(-x), Double(-y)), width: width,
                                 height: height, interpolation: .nearest)
}

final class ImageOpsTests: XCTestCase {
    func testTranslationMovesTheContentByExactlyTheOffset() throws {
        let a = try OpsFixtures.texture(sigma: 0.7)
        let b = try ImageOps.warpPerspective(a, homography: OpsFixtures.translation(7, -4), width: a.width,
                                             height: a.height)
        XCTAssertEqual([b.width, b.height, b.channels], [a.width, a.height, 1])
        XCTAssertEqual(b.element, .float32)
        // H maps source pixels to destination pixels: b(x, y) = a(x - 7, y + 4).
        for (x, y) in [(7, 0), (20, 30), (95, 75), (50, 40)] {
            XCTAssertEqual(b[x: x, y: y, channel: 0], a[x: x - 7, y: y + 4, channel: 0], "(\(x), \(y))")
        }
        XCTAssertEqual(b[x: 6, y: 10, channel: 0], 0, "outside the source: constant 0 border")
        XCTAssertEqual(b[x: 10, y: 76, channel: 0], 0)
        // Phase correlation of a region both images cover sees the same shift
        // (to ~0.01 px: the windowed crops are not an exact circular shift).
        let measured = try ImageOps.phaseCorrelate(try crop(a, x: 10, y: 4, width: 80, height: 64),
                                                   try crop(b, x: 10, y: 4, width: 80, height: 64))
        XCTAssertClose(measured.shift.dx, 7, absolute: 0.03)
        XCTAssertClose(measured.shift.dy, -4, absolute: 0.03)
    }

    func testRGBImagesKeepTheirChannelOrder() throws {
        var image = try Image(width: 4, height: 3, channels: 3, element: .uint8)
        for y in 0..<3 { for x in 0..<4 { image[x: x, y: y, channel: 0] = 200; image[x: x, y: y, channel: 2] = 10 } }
        let warped = try ImageOps.warpPerspective(image, homography: OpsFixtures.translation(1, 0), width: 4, height: 3)
        XCTAssertEqual([warped[x: 2, y: 1, channel: 0], warped[x: 2, y: 1, channel: 1], warped[x: 2, y: 1, channel: 2]],
                       [200, 0, 10])
        let resized = try ImageOps.resize(image, width: 8, height: 6, interpolation: .cubic)
        XCTAssertEqual([resized.width, resized.height, resized.channels], [8, 6, 3])
        XCTAssertEqual(resized[x: 5, y: 5, channel: 0], 200)
        XCTAssertEqual(resized[x: 5, y: 5, channel: 2], 10)
        let gray = try ImageOps.convertToGray(image)
        XCTAssertEqual(gray.channels, 1)
        XCTAssertEqual(gray[x: 0, y: 0, channel: 0], 61)  // 0.299 * 200 + 0.114 * 10
        XCTAssertEqual(gray.element, .uint8)
        // RGBA and float16 take the same weights (`grayCVMat`, converted from the RGB order).
        var rgba = try Image(width: 2, height: 2, channels: 4, element: .uint8)
        for y in 0..<2 { for x in 0..<2 { rgba[x: x, y: y, channel: 0] = 200; rgba[x: x, y: y, channel: 2] = 10; rgba[x: x, y: y, channel: 3] = 255 } }
        XCTAssertEqual(try ImageOps.convertToGray(rgba)[x: 1, y: 1, channel: 0], 61)
        let half = try ImageOps.convertToGray(image.converted(to: .float16))
        XCTAssertEqual(half.element, .float16)
        XCTAssertEqual(half[x: 0, y: 0, channel: 0], 0.299 * 200 + 0.114 * 10, accuracy: 0.1)
    }

    func testInverseMapFlagIsEquivalentToTheInverseHomography() throws {
        let a = try OpsFixtures.texture()
        let h = [0.98, -0.05, 6.5, 0.03, 1.01, -2.25, 1e-4, 2e-4, 1]
        let forward = try ImageOps.warpPerspective(a, homography: h, width: 90, height: 70, interpolation: .cubic)
        let inverse = try ImageOps.warpPerspective(a, homography: inverse3x3(h), width: 90, height: 70,
                                                   interpolation: .cubic, inverseMap: true)
        let differences = zip(OpsFixtures.floats(forward), OpsFixtures.floats(inverse)).map { abs($0 - $1) }
        XCTAssertLessThan(differences.max() ?? 1, 0.01)
        // And warping with H then with H^-1 brings the interior back.
        let back = try ImageOps.warpPerspective(forward, homography: h, width: a.width, height: a.height,
                                                interpolation: .cubic, inverseMap: true)
        XCTAssertClose(back[x: 40, y: 40, channel: 0], a[x: 40, y: 40, channel: 0], absolute: 0.02)
    }

    func testNaNBorderMarksPixelsWithoutSource() throws {
        let a = try OpsFixtures.texture(width: 40, height: 30)
        let b = try ImageOps.warpPerspective(a, homography: OpsFixtures.translation(5.5, 3), width: 40, height: 30,
                                             border: .constant(value: .nan))
        for y in 0..<30 {
            for x in 0..<40 {
                // Linear interpolation reads src(x - 5.5) and its right neighbour:
                // columns 0...5 and rows 0...2 reach outside the source.
                let outside = x <= 5 || y <= 2
                XCTAssertEqual(b[x: x, y: y, channel: 0].isNaN, outside, "(\(x), \(y))")
            }
        }
        // Replicate fills them from the edge instead.
        let replicated = try ImageOps.warpPerspective(a, homography: OpsFixtures.translation(5.5, 3), width: 40,
                                                      height: 30, border: .replicate)
        XCTAssertEqual(ImageStatistics(replicated).nanCount, 0)
        XCTAssertEqual(replicated[x: 0, y: 0, channel: 0], a[x: 0, y: 0, channel: 0])
    }

    func testIdentityRemapReproducesTheImage() throws {
        let a = try OpsFixtures.texture(width: 33, height: 21)
        let mapX = try OpsFixtures.float32(width: 33, height: 21) { x, _ in Float(x) }
        let mapY = try OpsFixtures.float32(width: 33, height: 21) { _, y in Float(y) }
        for interpolation in [ImageOps.Interpolation.nearest, .linear, .cubic, .lanczos4] {
            XCTAssertEqual(try ImageOps.remap(a, mapX: mapX, mapY: mapY, interpolation: interpolation), a, "\(interpolation)")
        }
        let rgb = try Image(width: 33, height: 21, channels: 3, element: .uint16,
                            values: (0..<(33 * 21 * 3)).map { Double($0 * 37 % 65536) })
        XCTAssertEqual(try ImageOps.remap(rgb, mapX: mapX, mapY: mapY), rgb)
        // With a NaN border, linear interpolation also reads the (weight 0)
        // neighbour beyond the last column and row, which poisons them.
        let poisoned = try ImageOps.remap(a, mapX: mapX, mapY: mapY, border: .constant(value: .nan))
        XCTAssertTrue(poisoned[x: 32, y: 5, channel: 0].isNaN)
        XCTAssertTrue(poisoned[x: 5, y: 20, channel: 0].isNaN)
        XCTAssertEqual(poisoned[x: 31, y: 19, channel: 0], a[x: 31, y: 19, channel: 0])
        let nearest = try ImageOps.remap(a, mapX: mapX, mapY: mapY, interpolation: .nearest,
                                         border: .constant(value: .nan))
        XCTAssertEqual(nearest, a)
    }

    func testConstantOffsetRemapShifts() throws {
        let a = try OpsFixtures.texture(width: 50, height: 40)
        // dst(x, y) = src(x + 2, y - 3): the content moves left 2 and down 3.
        let mapX = try OpsFixtures.float32(width: 45, height: 38) { x, _ in Float(x) + 2 }
        let mapY = try OpsFixtures.float32(width: 45, height: 38) { _, y in Float(y) - 3 }
        let b = try ImageOps.remap(a, mapX: mapX, mapY: mapY, interpolation: .cubic)
        XCTAssertEqual([b.width, b.height], [45, 38], "the maps set the size")
        XCTAssertEqual(b[x: 10, y: 10, channel: 0], a[x: 12, y: 7, channel: 0])
        XCTAssertEqual(b[x: 0, y: 1, channel: 0], 0, "row -2 is outside")
        // A fractional offset equals the warp with the matching translation.
        let fx = try OpsFixtures.float32(width: 50, height: 40) { x, _ in Float(x) - 1.25 }
        let fy = try OpsFixtures.float32(width: 50, height: 40) { _, y in Float(y) + 0.5 }
        let remapped = try ImageOps.remap(a, mapX: fx, mapY: fy)
        let warped = try ImageOps.warpPerspective(a, homography: OpsFixtures.translation(1.25, -0.5), width: 50, height: 40)
        XCTAssertEqual(remapped, warped)
        assertThrowsDualcamError(try ImageOps.remap(a, mapX: mapX, mapY: a), mentioning: "remap", "y map")
    }

    func testResizeAndBlurKeepElementAndFloat16() throws {
        let half = try Image(width: 6, height: 4, channels: 1, element: .float16,
                             values: (0..<24).map { Double($0) / 4 })
        let shrunk = try ImageOps.resize(half, width: 3, height: 2, interpolation: .area)
        XCTAssertEqual(shrunk.element, .float16)
        XCTAssertEqual(shrunk.doubleValues(), [0.875, 1.375, 1.875, 3.875, 4.375, 4.875])
        let blurred = try ImageOps.gaussianBlur(half, sigma: 0.8)
        XCTAssertEqual(blurred.element, .float16)
        XCTAssertEqual([blurred.width, blurred.height], [6, 4])
    }

    func testScaledConversion() throws {
        let bytes = try Image(width: 3, height: 1, channels: 1, pixels: [UInt8](arrayLiteral: 0, 51, 255))
        XCTAssertEqual(bytes.converted(to: .float32, scale: 1.0 / 255).doubleValues().map { ($0 * 1e6).rounded() / 1e6 },
                       [0, 0.2, 1])
        XCTAssertEqual(bytes.converted(to: .uint8, scale: 2, offset: -10).doubleValues(), [0, 92, 255])
        XCTAssertEqual(bytes.converted(to: .uint16, scale: 1), bytes.converted(to: .uint16))
    }

    func testErrorsAreDualcamErrors() throws {
        let a = try OpsFixtures.texture(width: 20, height: 20)
        assertThrowsDualcamError(try ImageOps.warpPerspective(a, homography: [1, 0, 0, 1], width: 20, height: 20),
                                 mentioning: "warpPerspective", "3x3")
        assertThrowsDualcamError(try ImageOps.gaussianBlur(a, sigma: -1), mentioning: "GaussianBlur", "sigma")
        assertThrowsDualcamError(try ImageOps.resize(a, width: 0, height: 3), mentioning: "resize")
    }

    private func inverse3x3(_ m: [Double]) -> [Double] {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g, c * d - a * f,
                d * h - e * g, b * g - a * h, a * e - b * d].map { $0 / det }
    }
}
