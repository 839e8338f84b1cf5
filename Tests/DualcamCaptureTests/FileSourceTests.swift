import DualcamCapture
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// File sources read for real from a temporary directory.
final class FileSourceTests: XCTestCase {
    /// A tiny frame whose first pixel encodes `id` (so pairs can be identified after reading).
    static func frame(_ id: Int, width: Int = 8, height: Int = 4) throws -> Image {
        var bytes = [UInt8](repeating: 40, count: width * height * 3)
        bytes[0] = UInt8(id & 0xFF)
        bytes[1] = UInt8(id >> 8)
        return try Image(width: width, height: height, channels: 3, element: .uint8, bytes: bytes)
    }

    static func id(_ image: Image) -> Int { Int(image.bytes[0]) | Int(image.bytes[1]) << 8 }

    static func writeDirectory(_ dir: URL, frames: [(id: Int, timestampNs: Int64)], csv: Bool) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var rows: [(file: String, timestampNs: Int64)] = []
        for (k, f) in frames.enumerated() {
            let name = String(format: "img_%04d.png", k)
            try ImageIO.write(frame(f.id), to: dir.appendingPathComponent(name))
            rows.append((name, f.timestampNs))
        }
        if csv { try Data(TimestampsCSV.text(rows).utf8).write(to: dir.appendingPathComponent(TimestampsCSV.fileName)) }
    }

    func testDirectoryPairWithTimestampsCSVYieldsExactlyTheExpectedPairs() throws {
        // 300 moments at 30 fps; the tele camera runs 4 ms late with +-3 ms jitter.
        // 20 wide and 25 tele frames are lost (different ones): the moments both
        // cameras kept are exactly the expected pairs.
        let tmp = try TemporaryDirectory()
        var rng = SeededGenerator(seed: 3)
        let period: Int64 = 33_333_333
        let lostWide = Set((0..<300).shuffled(using: &rng).prefix(20))
        let lostTele = Set((0..<300).shuffled(using: &rng).prefix(25))
        var wide: [(Int, Int64)] = [], tele: [(Int, Int64)] = []
        for k in 0..<300 {
            let t = 1_000_000_000 + Int64(k) * period
            if !lostWide.contains(k) { wide.append((k, t + Int64.random(in: -1_000_000...1_000_000, using: &rng))) }
            if !lostTele.contains(k) { tele.append((k, t + 4_000_000 + Int64.random(in: -3_000_000...3_000_000, using: &rng))) }
        }
        XCTAssertEqual(wide.count, 280)
        XCTAssertEqual(tele.count, 275)
        try Self.writeDirectory(tmp.url.appendingPathComponent("wide"), frames: wide, csv: true)
        try Self.writeDirectory(tmp.url.appendingPathComponent("tele"), frames: tele, csv: true)

        let source = try FilePairs.open(wide: tmp.url.appendingPathComponent("wide").path, tele: tmp.url.appendingPathComponent("tele").path,
                                        nominalFPS: 30, maxSkewNs: 10_000_000)
        var pairs: [(Int, Int)] = []
        while let p = try source.nextPair() {
            pairs.append((Self.id(p.wide.image), Self.id(p.tele.image)))
            XCTAssertEqual(p.wide.role, .wide)
            XCTAssertEqual(p.tele.role, .tele)
            XCTAssertLessThanOrEqual(abs(p.skewNs), 10_000_000)
        }
        let expected = (0..<300).filter { !lostWide.contains($0) && !lostTele.contains($0) }
        XCTAssertEqual(pairs.map(\.0), expected)
        XCTAssertEqual(pairs.map(\.1), expected)
        let s = source.statistics
        XCTAssertEqual(s.pairs, expected.count)
        XCTAssertEqual(s.unpairedWide, 280 - expected.count)
        XCTAssertEqual(s.unpairedTele, 275 - expected.count)
        XCTAssertLessThanOrEqual(s.maxSkewNs!, 8_000_000)
    }

    func testNanosecondFileNamesAreTimestamps() throws {
        let tmp = try TemporaryDirectory()
        for (camera, offset) in [("wide", Int64(0)), ("tele", Int64(2_000_000))] {
            let dir = tmp.url.appendingPathComponent(camera)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for k in 0..<4 {
                let t = 1_403_636_579_763_555_584 + Int64(k) * 50_000_000 + offset
                try ImageIO.write(Self.frame(k), to: dir.appendingPathComponent("\(t).png"))
            }
        }
        let wide = try SequenceSource(path: tmp.url.appendingPathComponent("wide").path, role: .wide, nominalFPS: 30)
        XCTAssertEqual(wide.timestamps, .fileNames)
        XCTAssertEqual(try wide.next()?.timestampNs, 1_403_636_579_763_555_584)
        let source = try FilePairs.open(wide: tmp.url.appendingPathComponent("wide").path, tele: tmp.url.appendingPathComponent("tele").path,
                                        nominalFPS: 30, maxSkewNs: nil)
        var n = 0
        while let p = try source.nextPair() {
            XCTAssertEqual(p.skewNs, 2_000_000)
            XCTAssertEqual(Self.id(p.wide.image), n)
            n += 1
        }
        XCTAssertEqual(n, 4)
    }

    func testNominalRateDirectoriesPairByIndexAndMustMatchInLength() throws {
        let tmp = try TemporaryDirectory()
        let a = tmp.url.appendingPathComponent("a"), b = tmp.url.appendingPathComponent("b"), c = tmp.url.appendingPathComponent("c")
        try Self.writeDirectory(a, frames: (0..<3).map { ($0, 0) }, csv: false)
        try Self.writeDirectory(b, frames: (0..<3).map { ($0 + 100, 0) }, csv: false)
        try Self.writeDirectory(c, frames: (0..<4).map { ($0, 0) }, csv: false)
        let source = try FilePairs.open(wide: a.path, tele: b.path, nominalFPS: 20, maxSkewNs: nil)
        var times: [Int64] = []
        while let p = try source.nextPair() {
            XCTAssertEqual(Self.id(p.tele.image), Self.id(p.wide.image) + 100)
            times.append(p.wide.timestampNs)
        }
        XCTAssertEqual(times, [0, 50_000_000, 100_000_000])
        XCTAssertEqual(source.statistics.pairs, 3)
        XCTAssertEqual(source.statistics.maxSkewNs, 0)
        XCTAssertThrowsError(try FilePairs.open(wide: a.path, tele: c.path, nominalFPS: 20, maxSkewNs: nil)) { error in
            XCTAssertEqual("\(error)", "--wide/--tele: \(a.path) has 3 frames but \(c.path) has 4; sequences without timestamps pair by index and must have the same length")
        }
        // One side with timestamps, the other without.
        try Self.writeDirectory(tmp.url.appendingPathComponent("d"), frames: (0..<3).map { ($0, Int64($0) * 1000) }, csv: true)
        XCTAssertThrowsError(try FilePairs.open(wide: tmp.url.appendingPathComponent("d").path, tele: a.path, nominalFPS: 20, maxSkewNs: nil)) { error in
            XCTAssertTrue("\(error)".contains("has timestamps (csv) but"), "\(error)")
        }
    }

    func testTimestampFromName() {
        XCTAssertEqual(TimestampsCSV.timestamp(fromName: "1403636579763555584.png"), 1_403_636_579_763_555_584)
        XCTAssertEqual(TimestampsCSV.timestamp(fromName: "frames/123456789.png"), 123_456_789)
        XCTAssertEqual(TimestampsCSV.timestamp(fromName: "123456789"), 123_456_789)
        XCTAssertNil(TimestampsCSV.timestamp(fromName: "12345678.png"))  // fewer than 9 digits
        XCTAssertNil(TimestampsCSV.timestamp(fromName: "123456789.png.bak"))
        XCTAssertNil(TimestampsCSV.timestamp(fromName: ".123456789"))
        XCTAssertNil(TimestampsCSV.timestamp(fromName: "99999999999999999999.png"))  // beyond Int64
        // Trapped in Foundation's NSString.deletingPathExtension (fuzzing, Fuzz/regressions/strings).
        XCTAssertNil(TimestampsCSV.timestamp(fromName: "a///b///"))
        XCTAssertNil(TimestampsCSV.timestamp(fromName: "123456789///"))
    }

    func testBadTimestampsCSV() throws {
        let tmp = try TemporaryDirectory()
        let dir = tmp.url.appendingPathComponent("w")
        try Self.writeDirectory(dir, frames: [(0, 0), (1, 10)], csv: false)
        let csv = dir.appendingPathComponent(TimestampsCSV.fileName)
        try "file,timestamp_ns\nimg_0000.png,5\n".write(to: csv, atomically: true, encoding: .utf8)
        let source = try SequenceSource(path: dir.path, role: .wide, nominalFPS: 30)
        XCTAssertEqual(try source.next()?.timestampNs, 5)
        XCTAssertThrowsError(try source.next()) { XCTAssertTrue("\($0)".contains("no timestamp for img_0001.png"), "\($0)") }
        try "frame,time\n".write(to: csv, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SequenceSource(path: dir.path, role: .wide, nominalFPS: 30)) {
            XCTAssertEqual("\($0)", "\(csv.path): expected the header 'file,timestamp_ns'")
        }
        try "file,timestamp_ns\nimg_0000.png,abc\n".write(to: csv, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SequenceSource(path: dir.path, role: .wide, nominalFPS: 30)) {
            XCTAssertTrue("\($0)".contains("line 2"), "\($0)")
        }
        try "file,timestamp_ns\nimg_0000.png,50\nimg_0001.png,40\n".write(to: csv, atomically: true, encoding: .utf8)
        let backwards = try SequenceSource(path: dir.path, role: .wide, nominalFPS: 30)
        _ = try backwards.next()
        XCTAssertThrowsError(try backwards.next()) { XCTAssertTrue("\($0)".contains("does not increase"), "\($0)") }
    }

    func testSideBySideImageAndVideoSplitIntoHalves() throws {
        let tmp = try TemporaryDirectory()
        // Left half dark red, right half light blue; 64x32 frames, 12 frames.
        func sbs(_ k: Int) throws -> Image {
            var bytes = [UInt8](repeating: 0, count: 64 * 32 * 3)
            for y in 0..<32 {
                for x in 0..<64 {
                    let i = (y * 64 + x) * 3
                    if x < 32 { bytes[i] = 200; bytes[i + 1] = UInt8(10 * k); bytes[i + 2] = 20 } else { bytes[i] = 30; bytes[i + 1] = 120; bytes[i + 2] = 230 }
                }
            }
            return try Image(width: 64, height: 32, channels: 3, element: .uint8, bytes: bytes)
        }
        let imageURL = tmp.url.appendingPathComponent("sbs.png")
        try ImageIO.write(sbs(0), to: imageURL)
        let single = try SideBySideSource(path: imageURL.path, nominalFPS: 30)
        let p = try XCTUnwrap(single.nextPair())
        XCTAssertEqual(p.wide.image, try sbs(0).cropped(x: 0, y: 0, width: 32, height: 32))
        XCTAssertEqual(p.tele.image, try sbs(0).cropped(x: 32, y: 0, width: 32, height: 32))
        XCTAssertNil(try single.nextPair())

        let videoURL = tmp.url.appendingPathComponent("sbs.avi")
        let writer = try VideoWriter(url: videoURL, fps: 25, width: 64, height: 32)
        for k in 0..<12 { try writer.write(sbs(k)) }
        try writer.finish()
        let video = try SideBySideSource(path: videoURL.path, nominalFPS: 30)
        var n = 0
        while let pair = try video.nextPair() {
            XCTAssertEqual(pair.wide.image.width, 32)
            XCTAssertEqual(pair.tele.image.width, 32)
            XCTAssertEqual(pair.wide.timestampNs, Int64(n) * 40_000_000, "25 fps from the container")
            XCTAssertEqual(pair.skewNs, 0)
            // MJPG is lossy: compare the mean colour of each half (centre block).
            let w = mean(pair.wide.image), t = mean(pair.tele.image)
            XCTAssertEqual(w[0], 200, accuracy: 8); XCTAssertEqual(w[1], Double(10 * n), accuracy: 8); XCTAssertEqual(w[2], 20, accuracy: 8)
            XCTAssertEqual(t[0], 30, accuracy: 8); XCTAssertEqual(t[1], 120, accuracy: 8); XCTAssertEqual(t[2], 230, accuracy: 8)
            n += 1
        }
        XCTAssertEqual(n, 12)

        let odd = tmp.url.appendingPathComponent("odd.png")
        try ImageIO.write(Self.frame(1, width: 7, height: 4), to: odd)
        XCTAssertThrowsError(try SideBySideSource(path: odd.path, nominalFPS: 30).nextPair()) {
            XCTAssertTrue("\($0)".contains("needs an even width"), "\($0)")
        }
    }

    /// Mean RGB of the centre 16x16 block (away from the seam).
    private func mean(_ image: Image) -> [Double] {
        var sum = [0.0, 0.0, 0.0]
        for y in 8..<24 { for x in 8..<24 { for c in 0..<3 { sum[c] += image[x: x, y: y, channel: c] } } }
        return sum.map { $0 / 256 }
    }

    func testImagePairAndMissingFiles() throws {
        let tmp = try TemporaryDirectory()
        let w = tmp.url.appendingPathComponent("w.png"), t = tmp.url.appendingPathComponent("t.png")
        try ImageIO.write(Self.frame(7), to: w)
        try ImageIO.write(Self.frame(9), to: t)
        let source = try FilePairs.open(wide: w.path, tele: t.path, nominalFPS: 30, maxSkewNs: nil)
        let p = try XCTUnwrap(source.nextPair())
        XCTAssertEqual(Self.id(p.wide.image), 7)
        XCTAssertEqual(Self.id(p.tele.image), 9)
        XCTAssertNil(try source.nextPair())
        XCTAssertThrowsError(try FilePairs.open(wide: w.path, tele: tmp.url.appendingPathComponent("none.png").path, nominalFPS: 30, maxSkewNs: nil))
        XCTAssertThrowsError(try FilePairs.open(wide: w.path, tele: tmp.url.path, nominalFPS: 30, maxSkewNs: nil)) {
            XCTAssertTrue("\($0)".contains("is a single image but"), "\($0)")
        }
    }
}
