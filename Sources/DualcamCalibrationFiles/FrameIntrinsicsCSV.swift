import DualcamGeometry
import DualcamSupport
import Foundation

/// One row of a per-sequence intrinsics CSV: K of one frame, in pixels of
/// that frame's own buffer (per-frame intrinsics come at the resolution of the
/// buffer they accompany).
public struct FrameIntrinsicsRecord: Equatable, Hashable, Sendable, Codable {
    /// Frame index in the sequence (non-negative, unique in a file).
    public var frame: Int
    /// Capture timestamp in nanoseconds.
    public var timestampNs: Int64
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    public var skew: Double

    public init(frame: Int, timestampNs: Int64, fx: Double, fy: Double, cx: Double, cy: Double, skew: Double = 0) {
        self.frame = frame
        self.timestampNs = timestampNs
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.skew = skew
    }

    /// The intrinsics for a buffer of `size` (the frame's own size).
    public func intrinsics(bufferSize size: PixelSize) throws -> Intrinsics {
        try Intrinsics(fx: fx, fy: fy, skew: skew, cx: cx, cy: cy, referenceSize: size)
    }
}

/// Per-sequence intrinsics CSV: a header line, then one line per frame:
///
///     frame,timestamp_ns,fx,fy,cx,cy[,skew]
///     0,1000000000,3000.5,3000.5,2016.25,1512.0
///
/// Columns are matched by name from the header (`frame`, `timestamp_ns`,
/// `fx`, `fy`, `cx`, `cy` required, `skew` optional, default 0; in any order;
/// other columns are an error). Numbers are plain decimal; fx and fy must be
/// positive and every value finite; frame numbers non-negative and unique.
/// Blank lines are skipped. Rows are returned in file order.
public enum FrameIntrinsicsCSV {
    public static let required = ["frame", "timestamp_ns", "fx", "fy", "cx", "cy"]
    public static let header = "frame,timestamp_ns,fx,fy,cx,cy,skew"

    public static func read(_ url: URL) throws -> [FrameIntrinsicsRecord] {
        try parse(try YAMLDocument.readText(url), path: url.path)
    }

    public static func parse(_ text: String, path: String) throws -> [FrameIntrinsicsRecord] {
        func fail(_ line: Int, _ reason: String) -> DualcamError { .format(path: path, reason: "line \(line): \(reason)") }
        // Character.isNewline covers "\n", "\r" and the single Character "\r\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let headerIndex = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw DualcamError.format(path: path, reason: "empty file; expected the header '\(header)'")
        }
        let columns = lines[headerIndex].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for c in columns where !(required + ["skew"]).contains(c) || columns.filter({ $0 == c }).count > 1 {
            throw fail(headerIndex + 1, "unexpected or repeated column '\(c)'; expected the header '\(header)' (skew optional)")
        }
        for c in required where !columns.contains(c) {
            throw fail(headerIndex + 1, "missing column '\(c)'; expected the header '\(header)' (skew optional)")
        }
        let index = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        var records: [FrameIntrinsicsRecord] = [], seen = Set<Int>()
        for n in (headerIndex + 1)..<lines.count {
            let line = lines[n]
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == columns.count else {
                throw fail(n + 1, "expected \(columns.count) values, got \(cells.count)")
            }
            func number(_ c: String) throws -> Double {
                guard let i = index[c] else { return 0 }
                guard let v = Double(cells[i]), v.isFinite, cells[i].allSatisfy({ "+-.0123456789eE".contains($0) }) else {
                    throw fail(n + 1, "\(c): expected a finite number, got '\(cells[i])'")
                }
                return v
            }
            guard let frame = Int(cells[index["frame"]!]), frame >= 0 else {
                throw fail(n + 1, "frame: expected a non-negative integer, got '\(cells[index["frame"]!])'")
            }
            guard seen.insert(frame).inserted else { throw fail(n + 1, "frame \(frame) appears twice") }
            guard let timestamp = Int64(cells[index["timestamp_ns"]!]) else {
                throw fail(n + 1, "timestamp_ns: expected an integer number of nanoseconds, got '\(cells[index["timestamp_ns"]!])'")
            }
            let record = FrameIntrinsicsRecord(frame: frame, timestampNs: timestamp, fx: try number("fx"), fy: try number("fy"),
                                               cx: try number("cx"), cy: try number("cy"), skew: try number("skew"))
            guard record.fx > 0, record.fy > 0 else {
                throw fail(n + 1, "focal lengths must be positive, got fx=\(record.fx) fy=\(record.fy)")
            }
            records.append(record)
        }
        return records
    }

    /// The CSV text (with the skew column), numbers exact in shortest form.
    public static func csvString(_ records: [FrameIntrinsicsRecord]) -> String {
        let n = YAMLBuilder.number
        return ([header] + records.map {
            "\($0.frame),\($0.timestampNs),\(n($0.fx)),\(n($0.fy)),\(n($0.cx)),\(n($0.cy)),\(n($0.skew))"
        }).joined(separator: "\n") + "\n"
    }

    /// Writes the CSV atomically.
    public static func write(_ records: [FrameIntrinsicsRecord], to url: URL) throws {
        try AtomicFile.write(csvString(records), to: url)
    }
}

extension Array where Element == FrameIntrinsicsRecord {
    /// The record of frame `frame`, if any.
    public func record(forFrame frame: Int) -> FrameIntrinsicsRecord? { first { $0.frame == frame } }
}
