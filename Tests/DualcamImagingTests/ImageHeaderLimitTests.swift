import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// A small file that declares a huge image is refused from its header,
/// before the codec allocates (the size policy, `InputLimits`).
final class ImageHeaderLimitTests: XCTestCase {
    func smallImage() throws -> Image {
        try Image(width: 8, height: 6, channels: 3, pixels: (0..<(8 * 6 * 3)).map { UInt8($0 % 256) })
    }

    func testPNGHeaderSizeIsChecked() throws {
        let dir = try TemporaryDirectory()
        try ImageIO.write(try smallImage(), to: dir.path("small.png"))
        var bytes = [UInt8](try Data(contentsOf: dir.path("small.png")))
        // IHDR width and height (big-endian) at bytes 16 and 20: 100000 x 75000.
        for (offset, value) in [(16, 100_000), (20, 75_000)] {
            for k in 0..<4 { bytes[offset + k] = UInt8((value >> (8 * (3 - k))) & 0xFF) }
        }
        // A valid CRC for the edited IHDR (type + data, bytes 12..<29, CRC at 29): a crafted file, not a corrupt one.
        let crc = Self.crc32(Array(bytes[12..<29]))
        for k in 0..<4 { bytes[29 + k] = UInt8((crc >> (8 * UInt32(3 - k))) & 0xFF) }
        try Data(bytes).write(to: dir.path("huge.png"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("huge.png"))) { error in
            XCTAssertEqual("\(error)", "\(dir.path("huge.png").path): the image header declares size 100000x75000 exceeds the limit of 16384 pixels per side (InputLimits.maxImageSidePixels)")
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// A flipped bit in a chunk: one line from dualcam, not libpng's own line first.
    func testCorruptChunkFailsItsCRC() throws {
        let dir = try TemporaryDirectory()
        try ImageIO.write(try smallImage(), to: dir.path("small.png"))
        var bytes = [UInt8](try Data(contentsOf: dir.path("small.png")))
        bytes[bytes.count - 20] ^= 0x01  // inside IDAT
        try Data(bytes).write(to: dir.path("bad.png"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("bad.png"))) { error in
            XCTAssertTrue("\(error)".contains("PNG is corrupt: chunk 'IDAT'") && "\(error)".contains("fails its CRC check"), "\(error)")
        }
    }

    func testJPEGHeaderSizeIsChecked() throws {
        let dir = try TemporaryDirectory()
        try ImageIO.write(try smallImage(), to: dir.path("small.jpg"))
        var bytes = [UInt8](try Data(contentsOf: dir.path("small.jpg")))
        // The first SOF0 segment: FF C0 length(2) precision(1) height(2) width(2).
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xFF; bytes[sof + 6] = 0xFF  // height 65535
        bytes[sof + 7] = 0xFF; bytes[sof + 8] = 0xFF  // width 65535
        try Data(bytes).write(to: dir.path("huge.jpg"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("huge.jpg"))) { error in
            XCTAssertTrue("\(error)".contains("the image header declares size 65535x65535 exceeds the limit"), "\(error)")
        }
        // The unchanged file reads.
        XCTAssertEqual(try ImageIO.read(dir.path("small.jpg")).width, 8)
    }

    /// OpenCV sniffs the content: a `.jpg` holding a PPM header reached its
    /// PxM decoder. The content must be the extension's format.
    func testContentMustMatchTheExtension() throws {
        let dir = try TemporaryDirectory()
        try Data("P6\n30000 30000\n255\n".utf8).write(to: dir.path("x.jpg"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("x.jpg"))) { XCTAssertTrue("\($0)".contains("not a JPEG file"), "\($0)") }
        try ImageIO.write(try smallImage(), to: dir.path("small.png"))
        try FileManager.default.copyItem(at: dir.path("small.png"), to: dir.path("png.tif"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("png.tif"))) { XCTAssertTrue("\($0)".contains("not a TIFF file"), "\($0)") }
    }

    /// A JPEG whose frame header follows stray bytes (libjpeg skips them):
    /// OpenCV allocated 2.9 GB for it (found by fuzzing).
    func testJPEGFrameAfterStrayBytes() throws {
        let dir = try TemporaryDirectory()
        // SOI, APP0 of length 16, 5 stray bytes, then SOF0 declaring 30000x30000.
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0x41, count: 14) + [1, 2, 3, 4, 5]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30, 0x03] + [UInt8](repeating: 0, count: 9)
        try Data(bytes).write(to: dir.path("stray.jpg"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("stray.jpg"))) { error in
            XCTAssertTrue("\(error)".contains("declares size 30000x30000 exceeds the limit"), "\(error)")
        }
    }

    /// FF 00 between segments is no marker: libjpeg discards the pair and
    /// finds the frame after it (found by fuzzing: a 65311x14895 frame, 2.9 GB
    /// allocated); a JPEG without a frame header before its scan is refused.
    func testJPEGFrameAfterAStuffedZeroAndNoFrame() throws {
        let dir = try TemporaryDirectory()
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0x41, count: 14) + [0xFF, 0xFF, 0x00, 0x38, 0x09]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x3A, 0x2F, 0xFF, 0x1F, 0x03] + [UInt8](repeating: 0, count: 9)
        try Data(bytes).write(to: dir.path("zero.jpg"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("zero.jpg"))) { error in
            XCTAssertTrue("\(error)".contains("declares size 65311x14895 exceeds the limit"), "\(error)")
        }
        try Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 0xFF, 0xD9]).write(to: dir.path("noframe.jpg"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("noframe.jpg"))) { error in
            XCTAssertTrue("\(error)".contains("no frame header (SOF) before the scan data"), "\(error)")
        }
    }

    func testTIFFAndEXRHeaderSizes() throws {
        let dir = try TemporaryDirectory()
        try ImageIO.write(try smallImage(), to: dir.path("small.tif"))
        var tiff = [UInt8](try Data(contentsOf: dir.path("small.tif")))
        XCTAssertEqual(Array(tiff[0..<2]), [0x49, 0x49], "little-endian TIFF")
        let le = { (at: Int, n: Int) in (0..<n).reduce(0) { $0 | Int(tiff[at + $1]) << (8 * $1) } }
        let ifd = le(4, 4)
        for k in 0..<le(ifd, 2) where le(ifd + 2 + 12 * k, 2) == 256 {  // ImageWidth := 60000
            let value = ifd + 2 + 12 * k + 8
            tiff[value] = 0x60; tiff[value + 1] = 0xEA
        }
        try Data(tiff).write(to: dir.path("wide.tif"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("wide.tif"))) { error in
            XCTAssertTrue("\(error)".contains("declares size 60000x6 exceeds the limit"), "\(error)")
        }
        let float = try Image(width: 8, height: 6, channels: 3, pixels: [Float](repeating: 0.5, count: 8 * 6 * 3))
        try ImageIO.write(float, to: dir.path("small.exr"))
        var exr = [UInt8](try Data(contentsOf: dir.path("small.exr")))
        let key = Array("dataWindow\0box2i\0".utf8)
        let at = try XCTUnwrap((0..<(exr.count - key.count)).first { Array(exr[$0..<($0 + key.count)]) == key }) + key.count + 4
        exr[at + 8] = 0xA0; exr[at + 9] = 0x86; exr[at + 10] = 0x01  // xMax := 100000
        try Data(exr).write(to: dir.path("wide.exr"))
        XCTAssertThrowsError(try ImageIO.read(dir.path("wide.exr"))) { error in
            XCTAssertTrue("\(error)".contains("declares size 100001x6 exceeds the limit"), "\(error)")
        }
    }

    func testNPYShapeBeyondThePolicy() throws {
        let header = "{'descr': '|u1', 'fortran_order': False, 'shape': (20000, 20000), }"
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.utf8.count), 0] + Array(header.utf8)
        bytes += [0, 0, 0]
        XCTAssertThrowsError(try NPY.decode(bytes)) { error in
            XCTAssertTrue("\(error)".contains("NPY shape: size 20000x20000 exceeds the limit of 16384 pixels per side"), "\(error)")
        }
    }
}
