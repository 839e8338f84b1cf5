import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

/// Small builders for CVMat-level tests.
enum MatFixtures {
    static func float32(rows: Int, cols: Int, _ value: (Int, Int) -> Float) throws -> CVMat {
        var values = [Float]()
        for y in 0..<rows { for x in 0..<cols { values.append(value(x, y)) } }
        return try CVMat(rows: rows, cols: cols, channels: 1, depth: .float32,
                         bytes: values.withUnsafeBytes { [UInt8]($0) })
    }

    static func floats(_ mat: CVMat) -> [Float] {
        mat.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func randomUInt8(rows: Int, cols: Int, channels: Int, seed: UInt64) throws -> CVMat {
        var rng = SeededGenerator(seed: seed)
        let bytes = (0..<(rows * cols * channels)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return try CVMat(rows: rows, cols: cols, channels: channels, depth: .uint8, bytes: bytes)
    }

    static func translation(_ tx: Double, _ ty: Double) -> [Double] { [1, 0, tx, 0, 1, ty, 0, 0, 1] }

    /// The inverse of a 3x3 row-major matrix (adjugate over determinant).
    static func inverse(_ m: [Double]) -> [Double] {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [e * i - f * h, c * h - b * i, b * f - c * e,
                f * g - d * i, a * i - c * g, c * d - a * f,
                d * h - e * g, b * g - a * h, a * e - b * d].map { $0 / det }
    }
}

/// Asserts that `body` throws `.openCV` naming `operation` with `fragment` in its one-line message.
func assertOpenCVError<T>(
    _ body: @autoclosure () throws -> T, _ operation: String, _ fragment: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        guard case let .openCV(op, message)? = error as? DualcamError else {
            return XCTFail("\(error) is not DualcamError.openCV", file: file, line: line)
        }
        XCTAssertEqual(op, operation, file: file, line: line)
        XCTAssertTrue(message.contains(fragment), "'\(message)' lacks '\(fragment)'", file: file, line: line)
        XCTAssertFalse(message.contains("\n"), file: file, line: line)
    }
}

final class CVImgprocTests: XCTestCase {
    func testIntegerTranslationMovesEveryPixelExactly() throws {
        let src = try MatFixtures.randomUInt8(rows: 16, cols: 20, channels: 3, seed: 1)
        for interpolation in [CVInterpolation.nearest, .linear, .cubic, .lanczos4] {
            let dst = try CVImgproc.warpPerspective(src, homography: MatFixtures.translation(3, 2), width: 20,
                                                    height: 16, interpolation: interpolation)
            XCTAssertEqual([dst.rows, dst.cols, dst.channels], [16, 20, 3])
            XCTAssertEqual(dst.depth, .uint8)
            let s = src.packedBytes(), d = dst.packedBytes()
            for y in 0..<16 { for x in 0..<20 { for c in 0..<3 {
                let expected = x >= 3 && y >= 2 ? s[((y - 2) * 20 + x - 3) * 3 + c] : 0
                XCTAssertEqual(d[(y * 20 + x) * 3 + c], expected, "\(interpolation) (\(x), \(y)) channel \(c)")
            } } }
        }
    }

    func testInverseMapFlagEqualsWarpingWithTheInverse() throws {
        let src = try MatFixtures.float32(rows: 60, cols: 80) { x, y in
            Float(sin(Double(x) * 0.21) * cos(Double(y) * 0.17) + 0.01 * Double(x))
        }
        let h = [1.03, 0.04, -4.5, -0.02, 0.97, 3.25, 2e-4, -3e-4, 1]
        let forward = try CVImgproc.warpPerspective(src, homography: h, width: 70, height: 50)
        let backward = try CVImgproc.warpPerspective(src, homography: MatFixtures.inverse(h), width: 70, height: 50,
                                                     inverseMap: true)
        let a = MatFixtures.floats(forward), b = MatFixtures.floats(backward)
        XCTAssertEqual(a.count, 70 * 50)
        // Both sample the same source positions up to rounding of the inverse,
        // then quantized to 1/32 pixel: at most a 1/32-pixel step apart.
        let largest = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThan(largest, 0.02)
        XCTAssertGreaterThan(zip(a, b).filter { $0 == $1 }.count, a.count * 95 / 100)
        // Destination pixel (10, 20) samples the source at H^-1 (10, 20).
        let hi = MatFixtures.inverse(h)
        let w = hi[6] * 10 + hi[7] * 20 + hi[8]
        let sx = (hi[0] * 10 + hi[1] * 20 + hi[2]) / w, sy = (hi[3] * 10 + hi[4] * 20 + hi[5]) / w
        let expected = sin(sx * 0.21) * cos(sy * 0.17) + 0.01 * sx
        XCTAssertClose(Double(a[20 * 70 + 10]), expected, absolute: 0.02)
    }

    func testBadHomographiesThrow() throws {
        let src = try MatFixtures.randomUInt8(rows: 8, cols: 8, channels: 1, seed: 2)
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: [1, 0, 0, 0, 1, 0], width: 8, height: 8),
                          "warpPerspective", "3x3 (9 values), got 6")
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: [1, 2, 3, 2, 4, 6, 0, 0, 1], width: 8, height: 8),
                          "warpPerspective", "singular")
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: [1, 0, .nan, 0, 1, 0, 0, 0, 1], width: 8,
                                                        height: 8), "warpPerspective", "non-finite")
        // A singular matrix is fine as an inverse map (every pixel samples one point).
        XCTAssertNoThrow(try CVImgproc.warpPerspective(src, homography: [0, 0, 3, 0, 0, 4, 0, 0, 1], width: 8,
                                                       height: 8, inverseMap: true))
    }

    func testInvalidArgumentsThrowInsteadOfCrashing() throws {
        let src = try MatFixtures.randomUInt8(rows: 8, cols: 8, channels: 1, seed: 3)
        let identity = MatFixtures.translation(0, 0)
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: identity, width: 8, height: 8, interpolation: .area),
                          "warpPerspective", "area interpolation")
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: identity, width: 8, height: 8,
                                                        border: .constant(value: .nan)), "warpPerspective", "float image")
        assertOpenCVError(try CVImgproc.warpPerspective(src, homography: identity, width: 0, height: 8),
                          "warpPerspective", "at least 1x1")
        assertOpenCVError(try CVImgproc.resize(src, width: 4, height: -1), "resize", "at least 1x1")
        assertOpenCVError(try CVImgproc.gaussianBlur(src, sigma: 0), "GaussianBlur", "sigma")
        let map = try MatFixtures.float32(rows: 4, cols: 4) { x, _ in Float(x) }
        let wrongMap = try MatFixtures.float32(rows: 4, cols: 5) { x, _ in Float(x) }
        assertOpenCVError(try CVImgproc.remap(src, mapX: map, mapY: wrongMap), "remap", "the y map is 5x4")
        assertOpenCVError(try CVImgproc.remap(src, mapX: src, mapY: src), "remap", "float32 with 1 channel")
    }

    func testOpenCVExceptionsBecomeDualcamErrors() throws {
        // cvtColor has no float64 path: OpenCV throws, the shim reports it.
        let doubles = try CVMat(rows: 4, cols: 4, channels: 3, depth: .float64)
        assertOpenCVError(try CVImgproc.convertToGray(doubles), "cvtColor", "(in ")
        // remap has no float16 path.
        let halves = try CVMat(rows: 4, cols: 4, channels: 1, depth: .float16)
        assertOpenCVError(try CVImgproc.warpPerspective(halves, homography: MatFixtures.translation(1, 0), width: 4,
                                                        height: 4), "warpPerspective", "(in ")
    }

    func testResizeWithAreaAveragesBlocks() throws {
        let src = try MatFixtures.float32(rows: 4, cols: 6) { x, y in Float(y * 6 + x) }
        let dst = try CVImgproc.resize(src, width: 3, height: 2, interpolation: .area)
        XCTAssertEqual([dst.rows, dst.cols], [2, 3])
        XCTAssertEqual(MatFixtures.floats(dst), [3.5, 5.5, 7.5, 15.5, 17.5, 19.5])
        let up = try CVImgproc.resize(src, width: 12, height: 8, interpolation: .nearest)
        XCTAssertEqual(MatFixtures.floats(up)[0..<4], [0, 0, 1, 1])
    }

    func testGrayConversionUsesBGROrderAndKeepsDepth() throws {
        // One pure red pixel in OpenCV's BGR order, as uint8 and float32.
        let red = try CVMat(rows: 1, cols: 1, channels: 3, depth: .uint8, bytes: [0, 0, 255])
        let gray = try CVImgproc.convertToGray(red)
        XCTAssertEqual(gray.channels, 1)
        XCTAssertEqual(gray.depth, .uint8)
        XCTAssertEqual(gray.packedBytes(), [76])  // 0.299 * 255
        let bgra = try CVMat(rows: 1, cols: 1, channels: 4, depth: .float32,
                             bytes: [Float](arrayLiteral: 1, 0, 0, 0.5).withUnsafeBytes { [UInt8]($0) })
        let blue = try CVImgproc.convertToGray(bgra)
        XCTAssertEqual(blue.depth, .float32)
        XCTAssertClose(Double(MatFixtures.floats(blue)[0]), 0.114, absolute: 1e-6)
    }

    func testDepthConversionScalesRoundsAndSaturates() throws {
        let bytes = try CVMat(rows: 1, cols: 3, channels: 1, depth: .uint8, bytes: [0, 51, 255])
        let unit = try CVImgproc.convert(bytes, to: .float32, scale: 1.0 / 255)
        XCTAssertClose(MatFixtures.floats(unit).map(Double.init), [0, 0.2, 1], absolute: 1e-7)
        let back = try CVImgproc.convert(unit, to: .uint8, scale: 300, offset: -10)
        XCTAssertEqual(back.packedBytes(), [0, 50, 255])
    }

    func testGaussianBlurKeepsConstantsAndSmooths() throws {
        let flat = try MatFixtures.float32(rows: 9, cols: 9) { _, _ in 2 }
        XCTAssertEqual(MatFixtures.floats(try CVImgproc.gaussianBlur(flat, sigma: 1.5)), [Float](repeating: 2, count: 81))
        let impulse = try MatFixtures.float32(rows: 21, cols: 21) { x, y in x == 10 && y == 10 ? 1 : 0 }
        let blurred = MatFixtures.floats(try CVImgproc.gaussianBlur(impulse, sigma: 2))
        XCTAssertClose(Double(blurred.reduce(0, +)), 1, absolute: 1e-4)
        XCTAssertClose(Double(blurred[10 * 21 + 10]), 1 / (2 * Double.pi * 4), relative: 0.02)
    }
}
