import DualcamSupport
import Foundation

/// Frame timestamps of a directory: `timestamps.csv` next to the frames, one
/// row per frame, header `file,timestamp_ns` (file name relative to the
/// directory, timestamp an integer in nanoseconds on a monotonic clock).
/// Frames not listed are an error; extra rows for missing files too.
public enum TimestampsCSV {
    public static let fileName = "timestamps.csv"
    public static let header = "file,timestamp_ns"

    /// file name -> timestamp (ns).
    public static func read(_ url: URL) throws -> [String: Int64] {
        let text = try FileContents.text(url, expected: "CSV text with the header '\(header)'")
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first, first.replacingOccurrences(of: " ", with: "") == header else {
            throw DualcamError.format(path: url.path, reason: "expected the header '\(header)'")
        }
        lines.removeFirst()
        var result: [String: Int64] = [:]
        for (i, line) in lines.enumerated() {
            let parts = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let t = Int64(parts[1]) else {
                throw DualcamError.format(path: url.path, reason: "line \(i + 2): expected 'file,timestamp_ns' with an integer timestamp")
            }
            guard result.updateValue(t, forKey: parts[0]) == nil else {
                throw DualcamError.format(path: url.path, reason: "line \(i + 2): \(parts[0]) is listed twice")
            }
        }
        return result
    }

    /// The CSV text for (file, timestamp) rows.
    public static func text(_ rows: [(file: String, timestampNs: Int64)]) -> String {
        ([header] + rows.map { "\($0.file),\($0.timestampNs)" }).joined(separator: "\n") + "\n"
    }

    /// A timestamp in nanoseconds from a file name whose stem is all digits
    /// with at least 9 of them (`1403636579763555584.png`, as EuRoC and ROS
    /// bag exports name frames); nil otherwise. A path counts by its last
    /// component. (Plain string operations: Foundation's NSString path
    /// helpers trap on some repeated-slash text such as `a///b///`.)
    public static func timestamp(fromName name: String) -> Int64? {
        let file = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let stem = file.lastIndex(of: ".").map { file[..<$0] } ?? file
        guard stem.count >= 9, stem.allSatisfy(\.isASCII), stem.allSatisfy(\.isNumber) else { return nil }
        return Int64(stem)
    }
}
