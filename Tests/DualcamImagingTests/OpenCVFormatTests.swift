import DualcamOpenCV
import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class OpenCVFormatTests: XCTestCase {
    func testPNGRoundTripsAreExact() throws {
        let dir = try TemporaryDirectory()
        for element in [PixelElement.uint8, .uint16] {
            for channels in [1, 3, 4] {
                let image = try Fixtures.randomBits(width: 17, height: 11, channels: channels, element: element,
                                                    seed: UInt64(channels))
                let url = dir.path("a-\(element)-\(channels).png")
                try ImageIO.write(image, to: url)
                XCTAssertEqual(try ImageIO.read(url), image, "\(element) x\(channels)")
            }
        }
        XCTAssertEqual(try dir.fileNames().count, 6, "no temporary files left behind")
    }

    func testColourOrderInFilesIsStandard() throws {
        // A pure red RGB pixel must be stored as red: OpenCV sees BGR (0, 0, 255).
        let dir = try TemporaryDirectory()
        let url = dir.path("red.png")
        try ImageIO.write(try Image(width: 1, height: 1, channels: 3, pixels: [UInt8](arrayLiteral: 255, 0, 0)), to: url)
        XCTAssertEqual(try CVCodecs.read(path: url.path).packedBytes(), [0, 0, 255])
        XCTAssertEqual(try ImageIO.read(url).bytes, [255, 0, 0])
    }

    func testTIFFRoundTripsFloat32AndIntegers() throws {
        let dir = try TemporaryDirectory()
        let float = try Fixtures.float32(width: 9, height: 6, channels: 1, specials: Fixtures.specialFloats, seed: 3)
        try ImageIO.write(float, to: dir.path("f.tiff"))
        let back = try ImageIO.read(dir.path("f.tiff"))
        XCTAssertEqual(back.float32Bits, float.float32Bits, "bit-exact float32 TIFF")
        for (element, channels) in [(PixelElement.float32, 3), (.uint16, 4), (.uint8, 3)] {
            let image = try Fixtures.randomBits(width: 5, height: 4, channels: channels, element: element, seed: 5)
            try ImageIO.write(image, to: dir.path("i.tif"))
            XCTAssertEqual(try ImageIO.read(dir.path("i.tif")), image, "\(element) x\(channels)")
        }
    }

    func testJPEGIsLossyButClose() throws {
        let dir = try TemporaryDirectory()
        var image = try Image(width: 32, height: 16, channels: 3, element: .uint8)
        for y in 0..<16 { for x in 0..<32 { for c in 0..<3 { image[x: x, y: y, channel: c] = Double(x * 4 + c * 20) } } }
        let url = dir.path("a.JPEG")
        try ImageIO.write(image, to: url, parameters: [.jpegQuality(98)])
        let back = try ImageIO.read(url)
        XCTAssertEqual(back.width, 32)
        XCTAssertEqual(back.channels, 3)
        var worst = 0.0
        for y in 0..<16 { for x in 0..<32 { for c in 0..<3 {
            worst = max(worst, abs(back[x: x, y: y, channel: c] - image[x: x, y: y, channel: c]))
        } } }
        XCTAssertLessThan(worst, 12)
    }

    func testEXRWhenTheBuildCanWriteIt() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("a.exr")
        let image = try Fixtures.float32(width: 8, height: 5, channels: 3, specials: [.infinity, -0.0], seed: 8)
        if ImageIO.canWrite(.exr) {
            try ImageIO.write(image, to: url)
            XCTAssertEqual(try ImageIO.read(url).float32Bits, image.float32Bits)
        } else {
            assertThrowsDualcamError(try ImageIO.write(image, to: url), mentioning: url.path, "OpenEXR")
            XCTAssertEqual(try dir.fileNames(), [])
        }
    }

    func testMissingFileIsNoSuchFile() throws {
        let dir = try TemporaryDirectory()
        for name in ["a.png", "a.jpg", "a.tiff", "a.exr"] {
            XCTAssertThrowsError(try ImageIO.read(dir.path(name))) { error in
                XCTAssertEqual(error as? DualcamError, .io(path: dir.path(name).path, reason: "no such file"))
            }
        }
        assertThrowsDualcamError(try ImageIO.read(dir.url.appendingPathComponent("sub.png", isDirectory: true)),
                                 mentioning: "sub.png", "no such file")
    }

    func testTruncatedAndGarbagePNGsAreFormatErrors() throws {
        let dir = try TemporaryDirectory()
        let good = dir.path("good.png")
        try ImageIO.write(try Fixtures.randomBits(width: 64, height: 64, channels: 3, element: .uint8, seed: 2), to: good)
        let bytes = try Data(contentsOf: good)
        for cut in [bytes.count / 2, 40, 8] {
            let url = dir.path("cut-\(cut).png")
            try bytes.prefix(cut).write(to: url)
            let error = assertThrowsDualcamError(try ImageIO.read(url), mentioning: url.path, "PNG is truncated")
            if case .format? = error {} else { XCTFail("\(String(describing: error))") }
        }
        let garbage = dir.path("garbage.png")
        try Data((0..<500).map { UInt8($0 % 251) }).write(to: garbage)
        assertThrowsDualcamError(try ImageIO.read(garbage), mentioning: garbage.path, "not a PNG file")
        let empty = dir.path("empty.png")
        try Data().write(to: empty)
        assertThrowsDualcamError(try ImageIO.read(empty), mentioning: empty.path)
        let directory = dir.path("folder.png")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        assertThrowsDualcamError(try ImageIO.read(directory), mentioning: directory.path, "directory")
    }

    func testUnstorableImagesFailBeforeCreatingAFile() throws {
        let dir = try TemporaryDirectory()
        let float = try Image(width: 2, height: 2, channels: 1, element: .float32)
        let rgba8 = try Image(width: 2, height: 2, channels: 4, element: .uint8)
        let half = try Image(width: 2, height: 2, channels: 1, element: .float16)
        assertThrowsDualcamError(try ImageIO.write(float, to: dir.path("a.png")), mentioning: "a.png", "float32")
        assertThrowsDualcamError(try ImageIO.write(rgba8, to: dir.path("a.jpg")), mentioning: "a.jpg", "4-channel")
        assertThrowsDualcamError(try ImageIO.write(half, to: dir.path("a.tif")), mentioning: "a.tif", "float16")
        assertThrowsDualcamError(try ImageIO.write(half, to: dir.path("a.exr")), mentioning: "a.exr", "float16")
        assertThrowsDualcamError(try ImageIO.write(rgba8, to: dir.path("a.bmp")), mentioning: "a.bmp", "'.bmp'")
        assertThrowsDualcamError(try ImageIO.read(dir.path("a.bmp")), mentioning: "a.bmp", "not a supported")
        let missingDir = dir.path("nowhere/a.png")
        assertThrowsDualcamError(try ImageIO.write(rgba8, to: missingDir), mentioning: missingDir.path, "does not exist")
        XCTAssertEqual(try dir.fileNames(), [])
    }

    func testOverwriteReplacesAtomically() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("x.png")
        let first = try Fixtures.randomBits(width: 3, height: 3, channels: 1, element: .uint8, seed: 1)
        let second = try Fixtures.randomBits(width: 4, height: 2, channels: 3, element: .uint16, seed: 2)
        try ImageIO.write(first, to: url)
        try ImageIO.write(second, to: url)
        XCTAssertEqual(try ImageIO.read(url), second)
        XCTAssertThrowsError(try ImageIO.write(try Image(width: 1, height: 1, channels: 1, element: .float32), to: url))
        XCTAssertEqual(try ImageIO.read(url), second, "a failed write leaves the previous file intact")
        XCTAssertEqual(try dir.fileNames(), ["x.png"])
    }
}
