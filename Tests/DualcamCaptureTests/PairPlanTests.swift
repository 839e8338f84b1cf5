import DualcamCapture
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// `PairPlan` pairs recordings from listings and timestamps alone, exactly
/// as `FilePairs.open` pairs the decoded frames, and `PlannedPairSource`
/// delivers any range of those pairs as the whole run would.
final class PairPlanTests: XCTestCase {
    typealias F = FileSourceTests

    /// Everything `FilePairs.open` delivers, as (wide id, tele id, wide ts, tele ts, origin, sequence).
    static func all(_ source: PairSource) throws -> [[String]] {
        var rows: [[String]] = []
        while let p = try source.nextPair() {
            rows.append([String(F.id(p.wide.image)), String(F.id(p.tele.image)), String(p.wide.timestampNs), String(p.tele.timestampNs),
                         p.wide.origin, p.tele.origin, String(p.wide.sequence), String(p.tele.sequence)])
        }
        return rows
    }

    /// Timestamped directories with lost frames on both sides and jitter:
    /// the planned pairs are the synchronizer's, with and without --max-skew.
    func testTimestampPairingMatchesTheStreamingSource() throws {
        let tmp = try TemporaryDirectory()
        var rng = SeededGenerator(seed: 11)
        let period: Int64 = 33_333_333
        var wide: [(Int, Int64)] = [], tele: [(Int, Int64)] = []
        for k in 0..<150 {
            let t = 1_000_000_000 + Int64(k) * period
            if Int.random(in: 0..<10, using: &rng) != 0 { wide.append((k, t + Int64.random(in: -2_000_000...2_000_000, using: &rng))) }
            if Int.random(in: 0..<10, using: &rng) != 0 { tele.append((k + 1000, t + 5_000_000 + Int64.random(in: -6_000_000...6_000_000, using: &rng))) }
        }
        let w = tmp.path("wide"), t = tmp.path("tele")
        try F.writeDirectory(w, frames: wide, csv: true)
        try F.writeDirectory(t, frames: tele, csv: true)
        for skew: Int64? in [nil, 9_000_000, 3_000_000] {
            let plan = try PairPlan.make(wide: w.path, tele: t.path, nominalFPS: 30, maxSkewNs: skew)
            XCTAssertEqual(plan.pairing, .timestamp)
            let expected = try Self.all(try FilePairs.open(wide: w.path, tele: t.path, nominalFPS: 30, maxSkewNs: skew))
            XCTAssertGreaterThan(expected.count, 20, "skew \(String(describing: skew))")
            guard expected.count > 20 else { continue }
            XCTAssertEqual(plan.count, expected.count, "skew \(String(describing: skew))")
            XCTAssertEqual(try Self.all(try PlannedPairSource(plan: plan, from: 0, to: nil, nominalFPS: 30)), expected)
            // Any range is that slice of the whole run.
            for (a, b) in [(0, 7), (13, 20), (expected.count - 5, expected.count)] {
                XCTAssertEqual(try Self.all(try PlannedPairSource(plan: plan, from: a, to: b, nominalFPS: 30)), Array(expected[a..<b]))
            }
        }
    }

    func testIndexPairingAndVideos() throws {
        let tmp = try TemporaryDirectory()
        let a = tmp.path("a"), b = tmp.path("b")
        try F.writeDirectory(a, frames: (0..<9).map { ($0, 0) }, csv: false)
        try F.writeDirectory(b, frames: (0..<9).map { ($0 + 100, 0) }, csv: false)
        let plan = try PairPlan.make(wide: a.path, tele: b.path, nominalFPS: 20, maxSkewNs: nil)
        XCTAssertEqual(plan.pairing, .index)
        let expected = try Self.all(try FilePairs.open(wide: a.path, tele: b.path, nominalFPS: 20, maxSkewNs: nil))
        XCTAssertEqual(try Self.all(try PlannedPairSource(plan: plan, from: 3, to: 6, nominalFPS: 20)), Array(expected[3..<6]))

        // Two videos: pairs by index, the count an estimate, the range read past the frames before it.
        for (dir, name, offset) in [(a, "a.avi", 0), (b, "b.avi", 100)] {
            let writer = try VideoWriter(url: tmp.path(name), fps: 20, width: 8, height: 4)
            for k in 0..<9 { try writer.write(try F.frame(k + offset)) }
            try writer.finish()
            _ = dir
        }
        let video = try PairPlan.make(wide: tmp.path("a.avi").path, tele: tmp.path("b.avi").path, nominalFPS: 30, maxSkewNs: nil)
        XCTAssertNil(video.pairs)
        XCTAssertEqual(video.estimatedCount, 9)
        let whole = try Self.all(try FilePairs.open(wide: tmp.path("a.avi").path, tele: tmp.path("b.avi").path, nominalFPS: 30, maxSkewNs: nil))
        XCTAssertEqual(whole.count, 9)
        XCTAssertEqual(try Self.all(try PlannedPairSource(plan: video, from: 4, to: 7, nominalFPS: 30)), Array(whole[4..<7]))
        XCTAssertEqual(try Self.all(try PlannedPairSource(plan: video, from: 7, to: nil, nominalFPS: 30)), Array(whole[7...]))
        XCTAssertEqual(try Self.all(try PlannedPairSource(plan: video, from: 12, to: nil, nominalFPS: 30)), [])
    }

    /// The plan refuses what `FilePairs.open` refuses, with the same message.
    func testRefusalsAreFilePairs() throws {
        let tmp = try TemporaryDirectory()
        let a = tmp.path("a"), c = tmp.path("c"), d = tmp.path("d")
        try F.writeDirectory(a, frames: (0..<3).map { ($0, 0) }, csv: false)
        try F.writeDirectory(c, frames: (0..<4).map { ($0, 0) }, csv: false)
        try F.writeDirectory(d, frames: (0..<3).map { ($0, Int64($0) * 1000) }, csv: true)
        try ImageIO.write(try F.frame(1), to: tmp.path("one.png"))
        for (w, t) in [(a, c), (d, a), (a, tmp.path("one.png")), (a, tmp.path("missing"))] {
            var expected = ""
            do { _ = try Self.all(try FilePairs.open(wide: w.path, tele: t.path, nominalFPS: 30, maxSkewNs: nil)) } catch { expected = "\(error)" }
            XCTAssertFalse(expected.isEmpty)
            XCTAssertThrowsError(try PairPlan.make(wide: w.path, tele: t.path, nominalFPS: 30, maxSkewNs: nil)) {
                XCTAssertEqual("\($0)", expected)
            }
        }
        // A timestamp that does not increase is found without decoding.
        try F.writeDirectory(tmp.path("e"), frames: [(0, 5), (1, 5)], csv: true)
        XCTAssertThrowsError(try PairPlan.make(wide: tmp.path("e").path, tele: d.path, nominalFPS: 30, maxSkewNs: nil)) {
            XCTAssertTrue("\($0)".contains("does not increase"), "\($0)")
        }
    }
}
