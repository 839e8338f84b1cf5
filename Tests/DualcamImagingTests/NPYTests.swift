import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class NPYTests: XCTestCase {
    func testBitExactRoundTripOfEveryDtypeAndChannelCount() throws {
        let dir = try TemporaryDirectory()
        for element in PixelElement.allCases {
            for channels in [1, 3, 4] {
                let image = try Fixtures.randomBits(width: 9, height: 4, channels: channels, element: element,
                                                    seed: UInt64(channels * 10 + element.byteCount))
                let url = dir.path("a-\(element)-\(channels).npy")
                try NPY.write(image, to: url)
                let bytes = [UInt8](try Data(contentsOf: url))
                let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
                XCTAssertEqual((10 + headerLength) % 64, 0, "data is 64-byte aligned")
                XCTAssertEqual(bytes[10 + headerLength - 1], 0x0A)
                XCTAssertEqual(try NPY.read(url), image, "\(element) x\(channels)")
                XCTAssertEqual(try ImageIO.read(url), image)
            }
        }
    }

    func testHeaderMatchesNumPy() throws {
        // The bytes numpy.save writes for np.zeros((2, 3), dtype='<f4').
        let image = try Image(width: 3, height: 2, channels: 1, element: .float32)
        let bytes = NPY.encode(image)
        let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
        let expectedHeader = [0x93] + Array("NUMPY".utf8) + [1, 0, 118, 0] + Array(dict.utf8)
            + [UInt8](repeating: 0x20, count: 128 - 10 - dict.utf8.count - 1) + [0x0A]
        XCTAssertEqual(Array(bytes.prefix(128)), expectedHeader)
        XCTAssertEqual(bytes.count, 128 + 24)

        let rgb = try Image(width: 3, height: 2, channels: 3, element: .uint8)
        let text = String(decoding: NPY.encode(rgb)[10..<128], as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3, 3), }"), text)
    }

    /// Builds an .npy file with a given header dictionary and payload.
    private func file(_ dict: String, version: UInt8 = 1, payload: [UInt8]) -> [UInt8] {
        let lengthBytes = version == 1 ? 2 : 4
        var header = Array(dict.utf8)
        while (6 + 2 + lengthBytes + header.count + 1) % 64 != 0 { header.append(0x20) }
        header.append(0x0A)
        var out = [0x93] + Array("NUMPY".utf8) + [version, 0]
        for k in 0..<lengthBytes { out.append(UInt8((header.count >> (8 * k)) & 0xFF)) }
        return out + header + payload
    }

    func testReadsVersion2AndPython2StyleHeaders() throws {
        let payload: [UInt8] = [1, 0, 2, 0, 3, 0, 4, 0]
        let v2 = try NPY.decode(file("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 2), }", version: 2,
                                     payload: payload))
        XCTAssertEqual(try v2.pixels(as: UInt16.self), [1, 2, 3, 4])
        let py2 = try NPY.decode(file("{\"shape\": (1L, 4L, 1L), \"fortran_order\": False, \"descr\": \"<u2\"}",
                                      payload: payload))
        XCTAssertEqual(py2.width, 4)
        XCTAssertEqual(py2.channels, 1)
    }

    private func check(_ bytes: [UInt8], _ fragment: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("bad.npy")
        try Data(bytes).write(to: url)
        let error = assertThrowsDualcamError(try NPY.read(url), mentioning: url.path, fragment, file: file, line: line)
        if case .format? = error {} else { XCTFail("\(String(describing: error)) is not .format", file: file, line: line) }
    }

    func testBadInput() throws {
        let four = [UInt8](repeating: 0, count: 16)
        try check(Array("NUMPY\u{1}\u{0}xx".utf8), "expected magic")
        try check([0x93] + Array("NUMPY".utf8) + [4, 0, 0, 0], "version 4.0 is not supported")
        try check(file("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1), }", payload: four),
                  "dtype '<f8' is not supported")
        try check(file("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }", payload: four), "big-endian")
        try check(file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", payload: four), "Fortran")
        try check(file("{'descr': '<f4', 'fortran_order': False, 'shape': (16,), }", payload: four + four + four + four),
                  "shape (16,) is not an image")
        try check(file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }", payload: four + four),
                  "shape (2, 2, 2) is not an image")
        try check(file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", payload: four),
                  "(24 bytes) but 16 bytes of data follow")
        try check(file("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2), }", payload: []),
                  "NPY shape: size 2x0 is empty; expected positive sides")
        try check(file("{'descr': '<f4', 'fortran_order': False}", payload: four), "lacks a tuple 'shape'")
        try check(file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", payload: four),
                  "unexpected key 'x'")
        try check(file("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 2)}", payload: four),
                  "unexpected value 'Maybe'")
        try check([0x93] + Array("NUMPY".utf8) + [1, 0, 0xFF, 0x00] + Array("{}".utf8), "exceeds")
    }

    func testMissingFileAndFailedWrite() throws {
        let dir = try TemporaryDirectory()
        XCTAssertThrowsError(try NPY.read(dir.path("none.npy"))) { error in
            XCTAssertEqual(error as? DualcamError, .io(path: dir.path("none.npy").path, reason: "no such file"))
        }
        let image = try Image(width: 2, height: 2, channels: 1, element: .uint8)
        let target = dir.path("missing/x.npy")
        assertThrowsDualcamError(try NPY.write(image, to: target), mentioning: target.path)
        XCTAssertEqual(try dir.fileNames(), [])
    }
}
