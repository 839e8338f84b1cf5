import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

final class CVCodecsTests: XCTestCase {
    func testWriteAndReadPNGThroughOpenCV() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("a.png").path
        let bytes = (0..<(5 * 4 * 3)).map { UInt8($0) }
        let mat = try CVMat(rows: 4, cols: 5, channels: 3, depth: .uint8, bytes: bytes)
        try CVCodecs.write(mat, path: path, parameters: [.pngCompression(9)])
        let back = try CVCodecs.read(path: path)
        XCTAssertEqual(back.packedBytes(), bytes)
        let gray = try CVCodecs.read(path: path, mode: .grayscale)
        XCTAssertEqual(gray.channels, 1)
        let decoded = try CVCodecs.decode(try CVCodecs.encode(mat, fileExtension: "png"))
        XCTAssertEqual(decoded.packedBytes(), bytes)
    }

    func testMissingFileIsNoSuchFile() {
        XCTAssertThrowsError(try CVCodecs.read(path: "/nonexistent/dir/x.png")) { error in
            XCTAssertEqual(error as? DualcamError, .io(path: "/nonexistent/dir/x.png", reason: "no such file"))
        }
    }

    func testGarbageIsAFormatErrorNotAnEmptyMatrix() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("garbage.png")
        try Data("this is not an image".utf8).write(to: url)
        XCTAssertThrowsError(try CVCodecs.read(path: url.path)) { error in
            guard case .format(let path, _)? = error as? DualcamError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
        }
        XCTAssertThrowsError(try CVCodecs.decode([1, 2, 3]))
        XCTAssertThrowsError(try CVCodecs.decode([]))
    }

    func testUnsupportedExtensionThrows() throws {
        let dir = try TemporaryDirectory()
        let mat = try CVMat(rows: 2, cols: 2, channels: 1, depth: .uint8)
        let path = dir.path("x.foo").path
        XCTAssertThrowsError(try CVCodecs.write(mat, path: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path) && text.contains(".foo"), text)
        }
        XCTAssertEqual(try dir.fileNames(), [])
        XCTAssertThrowsError(try CVCodecs.encode(mat, fileExtension: "foo")) { error in
            guard case .openCV? = error as? DualcamError else { return XCTFail("\(error)") }
        }
    }

    func testOpenCVExceptionBecomesAnError() throws {
        // PNG cannot hold 2 channels: cv::imwrite throws an assertion failure.
        let dir = try TemporaryDirectory()
        let mat = try CVMat(rows: 2, cols: 2, channels: 2, depth: .uint8)
        XCTAssertThrowsError(try CVCodecs.write(mat, path: dir.path("two.png").path)) { error in
            guard case .format(_, let reason)? = error as? DualcamError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("OpenCV imwrite failed"), reason)
            XCTAssertFalse(reason.contains("\n"))
        }
    }

    func testWritingIntoAMissingDirectoryFails() throws {
        let mat = try CVMat(rows: 2, cols: 2, channels: 1, depth: .uint8)
        XCTAssertThrowsError(try CVCodecs.write(mat, path: "/nonexistent/dir/x.png")) { error in
            guard case .io(let path, _)? = error as? DualcamError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/dir/x.png")
        }
    }

    func testCanWrite() {
        XCTAssertTrue(CVCodecs.canWrite(extension: "png"))
        XCTAssertTrue(CVCodecs.canWrite(extension: ".tiff"))
        XCTAssertFalse(CVCodecs.canWrite(extension: "foo"))
        XCTAssertFalse(CVCodecs.canWrite(extension: ""))
        _ = CVCodecs.canWrite(extension: "exr")  // either answer, but no crash
    }
}
