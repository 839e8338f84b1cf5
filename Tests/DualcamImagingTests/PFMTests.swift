import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class PFMTests: XCTestCase {
    func testBitExactRoundTripBothChannelCountsAndByteOrders() throws {
        let dir = try TemporaryDirectory()
        for channels in [1, 3] {
            for order in [ByteOrder.littleEndian, .bigEndian] {
                var image = try Fixtures.randomBits(width: 13, height: 7, channels: channels, element: .float32,
                                                    seed: UInt64(channels))
                image.withUnsafeMutableBytes { raw in
                    for (i, special) in Fixtures.specialFloats.enumerated() {
                        raw.storeBytes(of: special.bitPattern, toByteOffset: 4 * i, as: UInt32.self)
                    }
                }
                let url = dir.path("map-\(channels)-\(order).pfm")
                try PFM.write(image, to: url, byteOrder: order)
                let header = String(decoding: try Data(contentsOf: url).prefix(3), as: UTF8.self)
                XCTAssertEqual(header, channels == 1 ? "Pf\n" : "PF\n")
                let back = try PFM.read(url)
                XCTAssertEqual(back.float32Bits, image.float32Bits, "\(channels) channels, \(order)")
                XCTAssertEqual(back, image)
                XCTAssertEqual(try ImageIO.read(url), image, "ImageIO dispatches on .pfm")
            }
        }
    }

    func testHandCraftedFileIsReadBottomRowFirst() throws {
        // 3x2, little-endian: the file's first row is the image's bottom row.
        var bytes = Array("Pf\n3 2\n-1.0\n".utf8)
        for value: Float in [1, 2, 3, 4, 5, 6] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
        }
        let image = try PFM.decode(bytes)
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(try image.pixels(as: Float.self), [4, 5, 6, 1, 2, 3])
        XCTAssertEqual(try PFM.encode(image), bytes, "encoding reproduces the file")

        // 2x1 colour, big-endian, with Middlebury's +inf for "unknown".
        var big = Array("PF\n2 1\n1\n".utf8)
        for value: Float in [0.5, .infinity, -2, 7, 8, 9] {
            withUnsafeBytes(of: value.bitPattern.bigEndian) { big += $0 }
        }
        let colour = try PFM.decode(big)
        XCTAssertEqual(colour.channels, 3)
        XCTAssertEqual(try colour.pixels(as: Float.self), [0.5, .infinity, -2, 7, 8, 9])
    }

    func testHeaderVariationsAreAccepted() throws {
        // Width and height on separate lines, a scale of -0.5, CRLF-free whitespace.
        var bytes = Array("Pf\n1\n1\n-0.5\n".utf8)
        withUnsafeBytes(of: Float(3.25).bitPattern.littleEndian) { bytes += $0 }
        XCTAssertEqual(try PFM.decode(bytes).pixels(as: Float.self), [3.25])
    }

    private func check(_ bytes: [UInt8], _ fragment: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("bad.pfm")
        try Data(bytes).write(to: url)
        let error = assertThrowsDualcamError(try PFM.read(url), mentioning: url.path, fragment, file: file, line: line)
        if case .format? = error {} else { XCTFail("\(String(describing: error)) is not .format", file: file, line: line) }
    }

    func testBadInput() throws {
        try check(Array("P6\n3 2\n255\n".utf8), "expected magic 'Pf' or 'PF'")
        try check(Array("Pf\nabc 2\n-1\n".utf8) + [UInt8](repeating: 0, count: 24), "expected two positive integers")
        try check(Array("Pf\n-3 2\n-1\n".utf8) + [UInt8](repeating: 0, count: 24), "expected two positive integers")
        try check(Array("Pf\n100000 5\n-1.0\n".utf8) + [UInt8](repeating: 0, count: 12), "100000x5")
        // Sizes beyond the policy are refused from the header, before any allocation, the limit named.
        try check(Array("PF\n65536 65536\n-1.0\n".utf8), "exceeds the limit of 16384 pixels per side (InputLimits.maxImageSidePixels)")
        try check(Array("Pf\n10000 10000\n-1.0\n".utf8), "exceeds the limit of 50000000 pixels (InputLimits.maxImagePixels)")
        try check(Array("Pf\n3 2\n0\n".utf8) + [UInt8](repeating: 0, count: 24), "non-zero number")
        try check(Array("Pf\n3 2\nnan\n".utf8) + [UInt8](repeating: 0, count: 24), "non-zero number")
        try check(Array("Pf\n3 2\n".utf8), "ends before the scale")
        try check(Array("Pf\n3 2\n-1.0".utf8), "followed by one whitespace byte")
        try check(Array("Pf\n3 2\n-1.0\n".utf8) + [UInt8](repeating: 0, count: 12),
                  "but only 12 bytes of pixel data follow (expected 24)")
        try check(Array("Pf\n3 2\n-1.0\n".utf8) + [UInt8](repeating: 0, count: 28), "4 bytes follow")
        try check([], "expected magic")
    }

    func testMissingFile() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("none.pfm")
        XCTAssertThrowsError(try PFM.read(url)) { error in
            XCTAssertEqual(error as? DualcamError, .io(path: url.path, reason: "no such file"))
        }
    }

    func testUnstorableImagesAreRejectedWithoutLeavingAFile() throws {
        let dir = try TemporaryDirectory()
        let rgba = try Image(width: 2, height: 2, channels: 4, element: .float32)
        assertThrowsDualcamError(try PFM.write(rgba, to: dir.path("a.pfm")), mentioning: dir.path("a.pfm").path)
        assertThrowsDualcamError(try ImageIO.write(rgba, to: dir.path("b.pfm")), mentioning: dir.path("b.pfm").path,
                                 "4-channel")
        let bytes = try Image(width: 2, height: 2, channels: 1, element: .uint8)
        assertThrowsDualcamError(try ImageIO.write(bytes, to: dir.path("c.pfm")), mentioning: dir.path("c.pfm").path,
                                 "uint8")
        let good = try Image(width: 2, height: 2, channels: 1, element: .float32)
        let missing = dir.path("no/such/dir/d.pfm")
        assertThrowsDualcamError(try PFM.write(good, to: missing), mentioning: missing.path)
        XCTAssertEqual(try dir.fileNames(), [])
    }
}
