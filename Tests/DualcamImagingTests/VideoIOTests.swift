import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

final class VideoIOTests: XCTestCase {
    private let width = 64, height = 48

    /// A smooth colour pattern that moves with `frame` (MJPG-friendly: no hard edges).
    private func pattern(_ frame: Int) throws -> Image {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                bytes.append(UInt8((x * 3 + frame * 8) % 256))
                bytes.append(UInt8((y * 4 + frame * 5) % 200))
                bytes.append(UInt8(128 + 60 * sin(Double(x + y + frame) / 8)))
            }
        }
        return try Image(width: width, height: height, channels: 3, element: .uint8, bytes: bytes)
    }

    private func meanAbsoluteDifference(_ a: Image, _ b: Image) -> Double {
        let total = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.bytes.count)
    }

    private func roundTrip(name: String, fourcc: String) throws {
        let dir = try TemporaryDirectory()
        let url = dir.path(name)
        let writer: VideoWriter
        do {
            writer = try VideoWriter(url: url, fps: 10, width: width, height: height, fourcc: fourcc)
        } catch {
            throw XCTSkip("this OpenCV build cannot write \(fourcc) into .\(url.pathExtension): \(error)")
        }
        let frames = try (0..<10).map(pattern)
        for frame in frames { try writer.write(frame) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "visible before finish()")
        try writer.finish()
        XCTAssertEqual(try dir.fileNames(), [name], "only the destination is left")

        let reader = try VideoReader(url: url)
        XCTAssertEqual(reader.width, width)
        XCTAssertEqual(reader.height, height)
        XCTAssertEqual(reader.fps, 10, accuracy: 0.01)
        XCTAssertEqual(reader.frameCount, 10)
        var decoded = [Image]()
        while let image = try reader.next() { decoded.append(image) }
        XCTAssertEqual(decoded.count, 10)
        XCTAssertNil(try reader.next(), "stays at the end")
        for (index, (original, image)) in zip(frames, decoded).enumerated() {
            XCTAssertEqual(image.width, width)
            XCTAssertEqual(image.height, height)
            XCTAssertEqual(image.channels, 3)
            XCTAssertEqual(image.element, .uint8)
            let difference = meanAbsoluteDifference(original, image)
            XCTAssertLessThan(difference, 10, "frame \(index): mean abs difference \(difference)")
        }
    }

    func testMJPGAviRoundTrip() throws {
        try roundTrip(name: "out.avi", fourcc: "MJPG")
    }

    func testMP4VRoundTrip() throws {
        try roundTrip(name: "out.mp4", fourcc: "mp4v")
    }

    func testGreyFramesAreAccepted() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("grey.avi")
        let writer = try VideoWriter(url: url, fps: 5, width: width, height: height)
        let grey = try Image(width: width, height: height, channels: 1, element: .uint8,
                             bytes: (0..<(width * height)).map { UInt8(($0 % width) * 4) })
        try writer.write(grey)
        try writer.finish()
        let reader = try VideoReader(url: url)
        let frame = try XCTUnwrap(try reader.next())
        XCTAssertEqual(frame.channels, 3)
        let red = stride(from: 0, to: frame.bytes.count, by: 3).map { frame.bytes[$0] }
        let difference = zip(red, grey.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        XCTAssertLessThan(Double(difference) / Double(grey.bytes.count), 10)
    }

    func testWriterInMissingDirectoryFailsAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("missing/out.avi")
        assertThrowsDualcamError(try VideoWriter(url: url, fps: 10, width: width, height: height),
                                 mentioning: url.path, "does not exist")
        XCTAssertEqual(try dir.fileNames(), [])
    }

    func testUnsupportedCodecFailsAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("out.avi")
        assertThrowsDualcamError(try VideoWriter(url: url, fps: 10, width: width, height: height, fourcc: "MJPEG"),
                                 mentioning: "fourcc")
        assertThrowsDualcamError(try VideoWriter(url: url, fps: 10, width: width, height: height, fourcc: "XXXX"),
                                 mentioning: url.path, "'XXXX'")
        let unknown = dir.path("out.xyz")
        assertThrowsDualcamError(try VideoWriter(url: unknown, fps: 10, width: width, height: height),
                                 mentioning: unknown.path, "'.xyz'")
        XCTAssertEqual(try dir.fileNames(), [])
    }

    func testWriterDroppedWithoutFinishLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        do {
            let writer = try VideoWriter(url: dir.path("out.avi"), fps: 10, width: width, height: height)
            try writer.write(pattern(0))
            XCTAssertEqual(try dir.fileNames().count, 1, "the hidden temporary file")
            XCTAssertTrue(try dir.fileNames()[0].hasPrefix("."))
        }
        XCTAssertEqual(try dir.fileNames(), [])
    }

    func testWrongFrameSizeThrows() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("out.avi")
        let writer = try VideoWriter(url: url, fps: 10, width: width, height: height)
        let small = try Image(width: 32, height: 24, channels: 3, element: .uint8)
        assertThrowsDualcamError(try writer.write(small), mentioning: url.path, "32x24")
        let float = try Image(width: width, height: height, channels: 3, element: .float32)
        assertThrowsDualcamError(try writer.write(float), mentioning: url.path)
    }

    func testReadingMissingFile() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("none.avi")
        assertThrowsDualcamError(try VideoReader(url: url), mentioning: url.path, "no such file")
    }

    func testReadingGarbage() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("garbage.avi")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: url)
        assertThrowsDualcamError(try VideoReader(url: url), mentioning: url.path)
    }

    func testIsVideo() {
        for name in ["a.avi", "b.MP4", "c.mkv", "/x/d.mov"] {
            XCTAssertTrue(VideoIO.isVideo(URL(fileURLWithPath: name)), name)
        }
        for name in ["a.png", "b", "c.avi.png", "mov"] {
            XCTAssertFalse(VideoIO.isVideo(URL(fileURLWithPath: name)), name)
        }
    }
}
