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

    func testNPYShapeBeyondThePolicy() throws {
        let header = "{'descr': '|u1', 'fortran_order': False, 'shape': (20000, 20000), }"
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.utf8.count), 0] + Array(header.utf8)
        bytes += [0, 0, 0]
        XCTAssertThrowsError(try NPY.decode(bytes)) { error in
            XCTAssertTrue("\(error)".contains("NPY shape: size 20000x20000 exceeds the limit of 16384 pixels per side"), "\(error)")
        }
    }
}
