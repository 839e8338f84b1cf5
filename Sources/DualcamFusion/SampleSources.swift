import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Sparse metric samples in wide pixels, with what was dropped on the way.
public struct LoadedSamples: Sendable {
    public var samples: [DepthSample]
    /// Reason -> number of samples dropped for it (e.g. "outside the image").
    public var dropped: [String: Int]
    public var warnings: [String] {
        dropped.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { "dropped \($0.value) sample(s) \($0.key)" }
    }
}

/// Reads sparse metric samples for fusion, by extension and header:
/// - `.csv` with header `x,y,depth_m[,confidence]`: wide pixels (`DepthSamplesCSV`);
/// - `.csv` with header `x,y,z`, or `.ply`: a point cloud in the sensor frame,
///   mapped into wide coordinates with the rig's `lidar` extrinsics
///   (X_wide = wideFromLidar X_lidar) and projected with the wide camera
///   model (distortion included) at the wide image size;
/// - `.png` (uint16 millimetres, 0 = none) or `.pfm` (metres, NaN/0 = none):
///   a sparse depth image aligned to wide, of the wide size or the same aspect
///   (a pixel of a smaller image covers W_wide / W wide pixels: x_wide =
///   (x + 0.5) W_wide / W - 0.5, `PixelGridResampling`).
/// Samples outside the image or with non-finite coordinates, depths that are
/// not finite and positive (or so small that 1/z overflows) and points behind
/// the camera are dropped and counted; nothing left is an error. At most
/// `InputLimits.maxSamples` samples are read.
public enum SampleSources {
    /// Sparse depth PNGs hold uint16 millimetres (above): metres = value / this.
    static let millimetresPerMetre: Float = 1000
    public static func load(_ url: URL, wideSize: PixelSize, rig: Rig) throws -> LoadedSamples {
        let ext = url.pathExtension.lowercased()
        var dropped: [String: Int] = [:]
        var samples: [DepthSample]
        switch ext {
        case "csv":
            try checkReadable(url)
            let text = try FileContents.text(url, expected: "CSV text")
            // The first line decides (without splitting the whole file into lines).
            let firstLine = text.prefix { !$0.isNewline }
            let header = firstLine.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\t", with: "")
            if header == "x,y,z" {
                samples = try projected(try PointCloudReader.read(url), rig: rig, wideSize: wideSize, path: url.path, dropped: &dropped)
            } else {
                samples = try DepthSamplesCSV.parse(text, path: url.path)
            }
        case "ply":
            try checkReadable(url)
            samples = try projected(try PointCloudReader.read(url), rig: rig, wideSize: wideSize, path: url.path, dropped: &dropped)
        case "png", "pfm":
            samples = try fromDepthImage(url, wideSize: wideSize, dropped: &dropped)
        default:
            throw DualcamError.format(
                path: url.path, reason: "unknown sample format '.\(ext)'; expected .csv (x,y,depth_m[,confidence] or x,y,z), .ply, .png (mm) or .pfm (m)")
        }
        try InputLimits.checkCount(samples.count, limit: InputLimits.maxSamples, limitName: "maxSamples",
                                   what: "samples", name: "samples \(url.path)")
        guard !samples.isEmpty || !dropped.isEmpty else {
            throw DualcamError.format(path: url.path, reason: "contains no samples")
        }
        var kept: [DepthSample] = []
        kept.reserveCapacity(samples.count)
        for s in samples {
            if !(s.depthMetres.isFinite && s.depthMetres > 0 && (1 / s.depthMetres).isFinite) {
                dropped["with a non-finite, non-positive or subnormal depth", default: 0] += 1
            } else if !(s.x.isFinite && s.y.isFinite) {
                dropped["with non-finite pixel coordinates", default: 0] += 1
            } else if s.x < -0.5 || s.y < -0.5 || s.x >= Double(wideSize.width) - 0.5 || s.y >= Double(wideSize.height) - 0.5 {
                dropped["outside the \(wideSize) wide image", default: 0] += 1
            } else {
                kept.append(s)
            }
        }
        guard !kept.isEmpty else {
            let why = dropped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            throw DualcamError.format(path: url.path, reason: "no usable samples (\(why))")
        }
        return LoadedSamples(samples: kept, dropped: dropped)
    }

    static func checkReadable(_ url: URL) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw DualcamError.io(path: url.path, reason: "no such readable file")
        }
    }

    static func projected(_ points: [Vector3], rig: Rig, wideSize: PixelSize, path: String,
                          dropped: inout [String: Int]) throws -> [DepthSample] {
        guard rig.cameraNames.contains(.lidar) else {
            throw DualcamError.invalidValue(
                name: "calibration", reason: "has no 'lidar' entry (a camera named lidar with lidar_from_\(rig.reference) extrinsics), which a point cloud (\(path)) needs to reach the wide camera")
        }
        let wideFromLidar = try rig.transform(from: .lidar, to: .wide, unit: .metre)
        let model = try rig.camera(.wide).model.scaled(to: wideSize)
        var samples: [DepthSample] = []
        samples.reserveCapacity(points.count)
        for p in points {
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { dropped["with non-finite coordinates", default: 0] += 1; continue }
            let q = wideFromLidar.apply(p)
            guard q.z > 0 else { dropped["behind the wide camera", default: 0] += 1; continue }
            guard let pixel = try? model.project(q) else { dropped["that do not project into the wide camera", default: 0] += 1; continue }
            samples.append(DepthSample(x: pixel.x, y: pixel.y, depthMetres: q.z))
        }
        return samples
    }

    static func fromDepthImage(_ url: URL, wideSize: PixelSize, dropped: inout [String: Int]) throws -> [DepthSample] {
        let image = try ImageIO.read(url)
        guard image.channels == 1 else {
            throw DualcamError.format(path: url.path, reason: "a sparse depth image must have 1 channel, got \(image.channels)")
        }
        let metres: [Float]
        if url.pathExtension.lowercased() == "png" {
            guard image.element == .uint16 else {
                throw DualcamError.format(path: url.path, reason: "a sparse depth PNG must be 16-bit millimetres, got \(image.element)")
            }
            metres = try image.pixels(as: UInt16.self).map { $0 == 0 ? .nan : Float($0) / Self.millimetresPerMetre }
        } else {
            metres = try image.converted(to: .float32).pixels(as: Float.self)
        }
        let size = PixelSize(width: image.width, height: image.height)
        guard size.width * wideSize.height == size.height * wideSize.width else {
            throw DualcamError.invalidValue(
                name: "samples \(url.lastPathComponent)", reason: "is \(size) but the wide image is \(wideSize); expected the same aspect ratio")
        }
        let grid = PixelGridResampling(from: size, to: wideSize)
        var samples: [DepthSample] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let z = metres[y * size.width + x]
                if z.isNaN || z == 0 { continue }
                let p = grid.target(x: Double(x), y: Double(y))
                samples.append(DepthSample(x: p.x, y: p.y, depthMetres: Double(z)))
            }
        }
        return samples
    }
}
