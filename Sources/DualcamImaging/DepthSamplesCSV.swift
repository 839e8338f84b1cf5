import DualcamSupport
import Foundation

/// One sparse metric depth sample in the pixel grid of an image: position
/// (x, y) in pixels (OpenCV's convention: pixel centres at integers), depth Z
/// along the optical axis in metres, and an optional confidence in [0, 1].
public struct DepthSample: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var depthMetres: Double
    public var confidence: Double?

    public init(x: Double, y: Double, depthMetres: Double, confidence: Double? = nil) {
        self.x = x
        self.y = y
        self.depthMetres = depthMetres
        self.confidence = confidence
    }
}

/// Sparse depth samples as CSV: a header `x,y,depth_m[,confidence]`, then one
/// sample per line. Doubles are written in Swift's shortest round-trip form,
/// so writing and reading back is exact.
public enum DepthSamplesCSV {
    public static func csvString(_ samples: [DepthSample]) -> String {
        let withConfidence = samples.contains { $0.confidence != nil }
        var lines = [withConfidence ? "x,y,depth_m,confidence" : "x,y,depth_m"]
        lines.reserveCapacity(samples.count + 1)
        for s in samples {
            var line = "\(short(s.x)),\(short(s.y)),\(s.depthMetres)"
            if withConfidence { line += ",\(s.confidence.map { "\($0)" } ?? "")" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes atomically.
    public static func write(_ samples: [DepthSample], to url: URL) throws {
        try AtomicFile.write(csvString(samples), to: url)
    }

    public static func read(_ url: URL) throws -> [DepthSample] {
        try FileAccess.checkReadable(url)
        let text = try FileContents.text(url, expected: "CSV x,y,depth_m[,confidence]")
        return try parse(text, path: url.path)
    }

    /// Parses CSV text; `path` names the file in errors. A header line is
    /// required; blank lines are skipped; every value must be finite, depth > 0,
    /// confidence (when given) in [0, 1].
    public static func parse(_ text: String, path: String) throws -> [DepthSample] {
        var columns = 0
        var samples: [DepthSample] = []
        samples.reserveCapacity(min(InputLimits.maxSamples, text.utf8.count / 16))
        try NumericCSV.forEachLine(text) { line in
            if line.number == 1 {
                let header = line.normalized
                guard header == "x,y,depth_m" || header == "x,y,depth_m,confidence" else {
                    throw DualcamError.format(path: path, reason: "expected the CSV header x,y,depth_m[,confidence]")
                }
                columns = line.fieldCount
                return
            }
            if line.isBlank { return }
            let where_ = "line \(line.number)"
            guard line.fieldCount == columns || (columns == 4 && line.fieldCount == 3) else {
                throw DualcamError.format(path: path, reason: "\(where_): expected \(columns) values, found \(line.fieldCount)")
            }
            guard let x = line.double(0), let y = line.double(1), let z = line.double(2),
                  x.isFinite, y.isFinite, z.isFinite else {
                throw DualcamError.format(path: path, reason: "\(where_): x, y and depth_m must be finite numbers")
            }
            guard z > 0 else {
                throw DualcamError.format(path: path, reason: "\(where_): depth_m must be positive, got \(z)")
            }
            var confidence: Double?
            if line.fieldCount == 4, !line.isEmpty(3) {
                guard let c = line.double(3), c >= 0, c <= 1 else {
                    throw DualcamError.format(path: path, reason: "\(where_): confidence must be a number in [0, 1]")
                }
                confidence = c
            }
            guard samples.count < InputLimits.maxSamples else {
                throw DualcamError.format(path: path, reason: "more than \(InputLimits.maxSamples) samples exceed the limit (InputLimits.maxSamples)")
            }
            samples.append(DepthSample(x: x, y: y, depthMetres: z, confidence: confidence))
        }
        return samples
    }

    /// Integers without a trailing ".0" (pixel positions usually are integers).
    private static func short(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    /// A sparse depth map of `width` x `height` (float32 metres, NaN where no
    /// sample) with each sample at its nearest pixel; a later sample at the same
    /// pixel replaces an earlier one. Samples outside the image are ignored.
    public static func sparseDepthImage(_ samples: [DepthSample], width: Int, height: Int) throws -> Image {
        var values = [Float](repeating: .nan, count: width * height)
        for s in samples {
            let fx = s.x.rounded(), fy = s.y.rounded()  // compared as doubles: NaN or 1e300 never reach Int()
            guard fx >= 0, fy >= 0, fx < Double(width), fy < Double(height) else { continue }
            let x = Int(fx), y = Int(fy)
            values[y * width + x] = Float(s.depthMetres)
        }
        return try Image(width: width, height: height, channels: 1, pixels: values)
    }
}
