import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class DepthPNGTests: XCTestCase {
    private func roundTrip(_ convention: DepthPNG.Convention, range: ClosedRange<Float>) throws {
        let dir = try TemporaryDirectory()
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -1, -0.0,  // invalid
                                 Float(0.4 / convention.scale), Float(65535.6 / convention.scale),  // out of range
                                 Float(1 / convention.scale), Float(65535 / convention.scale)]  // extreme valid codes
        var rng = SeededGenerator(seed: 77)
        var values = (0..<(20 * 10)).map { _ in Float.random(in: range, using: &rng) }
        values.replaceSubrange(0..<specials.count, with: specials)
        let map = try Image(width: 20, height: 10, channels: 1, pixels: values)
        let url = dir.path("depth.png")
        let summary = try DepthPNG.write(depthMetres: map, to: url, convention: convention)
        XCTAssertEqual(summary.invalid, 6)
        XCTAssertEqual(summary.outOfRange, 2)
        XCTAssertEqual(summary.valid, values.count - 8)

        let stored = try ImageIO.read(url)
        XCTAssertEqual(stored.element, .uint16)
        let codes = try stored.pixels(as: UInt16.self)
        XCTAssertEqual(Array(codes[0..<8]), [UInt16](repeating: 0, count: 8))
        XCTAssertEqual(codes[8], 1)
        XCTAssertEqual(codes[9], 65535)

        let back = try DepthPNG.read(url, convention: convention).pixels(as: Float.self)
        let halfStep = 0.5 / convention.scale
        for (i, (original, decoded)) in zip(values, back).enumerated() {
            if i < 8 {
                XCTAssertTrue(decoded.isNaN, "code 0 reads as NaN (index \(i))")
            } else {
                XCTAssertClose(Double(decoded), Double(original), absolute: halfStep * 1.0001, "index \(i)")
                XCTAssertEqual(UInt16((Double(decoded) * convention.scale).rounded()), codes[i], "index \(i)")
            }
        }
        // Quantized values are a fixed point: writing what was read stores the same codes.
        let again = dir.path("again.png")
        try DepthPNG.write(depthMetres: try DepthPNG.read(url, convention: convention), to: again, convention: convention)
        XCTAssertEqual(try ImageIO.read(again), stored)
    }

    func testMillimetres() throws { try roundTrip(.millimetres, range: 0.2...60) }
    func testKITTI() throws { try roundTrip(.kitti256, range: 0.5...250) }

    func testKnownCodes() throws {
        let map = try Image(width: 3, height: 1, channels: 1, pixels: [Float](arrayLiteral: 1.2344, 1.2345, 2))
        XCTAssertEqual(try DepthPNG.quantize(map, convention: .millimetres).codes.pixels(as: UInt16.self), [1234, 1235, 2000])
        XCTAssertEqual(try DepthPNG.quantize(map, convention: .kitti256).codes.pixels(as: UInt16.self), [316, 316, 512])
        let disparity = try Image(width: 1, height: 1, channels: 1, pixels: [Float](arrayLiteral: 100.25))
        let dir = try TemporaryDirectory()
        try DepthPNG.write(disparityPixels: disparity, to: dir.path("disp.png"))
        XCTAssertEqual(try ImageIO.read(dir.path("disp.png")).pixels(as: UInt16.self), [25664])
        XCTAssertEqual(try DepthPNG.read(dir.path("disp.png"), convention: .kitti256).pixels(as: Float.self), [100.25])
    }

    func testWrongInputsAreRejectedWithoutFiles() throws {
        let dir = try TemporaryDirectory()
        let rgb = try Image(width: 2, height: 2, channels: 3, element: .float32)
        assertThrowsDualcamError(try DepthPNG.write(depthMetres: rgb, to: dir.path("d.png")), mentioning: "d.png",
                                 "1-channel float32")
        let map = try Image(width: 2, height: 2, channels: 1, element: .float32)
        assertThrowsDualcamError(try DepthPNG.write(depthMetres: map, to: dir.path("d.tiff")), mentioning: "d.tiff", ".png")
        XCTAssertEqual(try dir.fileNames(), [])

        let eightBit = dir.path("eight.png")
        try ImageIO.write(try Image(width: 2, height: 2, channels: 1, element: .uint8), to: eightBit)
        assertThrowsDualcamError(try DepthPNG.read(eightBit), mentioning: eightBit.path, "16-bit single-channel")
        XCTAssertThrowsError(try DepthPNG.read(dir.path("none.png"))) { error in
            XCTAssertEqual(error as? DualcamError, .io(path: dir.path("none.png").path, reason: "no such file"))
        }
    }
}
