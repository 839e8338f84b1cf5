import DualcamGeometry
import DualcamSupport
import Foundation

extension DepthMapWriter {
    /// Writes `map` and its metadata sidecar (`DepthMetadata.sidecarURL(for:)`
    /// unless `sidecar` is given); returns the metadata written, which
    /// describes the values as stored (`stored(_:format:precision:)`: PNG
    /// drops and float16 rounding count). Each file is written atomically;
    /// the sidecar is written after the map succeeded.
    @discardableResult
    public static func writeWithMetadata(
        _ map: DepthMap, to url: URL, precision: DepthPrecision = .float32, sidecar: URL? = nil,
        coveredRegion: PixelRect?? = .none, extra: [String: JSONValue] = [:]
    ) throws -> DepthMetadata {
        let format = try DepthFileFormat.of(url)
        let sidecarURL = sidecar ?? DepthMetadata.sidecarURL(for: url)
        try write(map, to: url, precision: precision)
        let metadata = DepthMetadata(map: try stored(map, format: format, precision: precision), precision: precision,
                                     format: format, coveredRegion: coveredRegion, extra: extra)
        try metadata.write(to: sidecarURL)
        return metadata
    }
}

extension DepthMapReader {
    /// Reads a map together with its sidecar (`DepthMetadata.sidecarURL(for:)`
    /// unless `sidecar` is given), which supplies the type, accuracy,
    /// filtered flag, quality, reference camera, intrinsics and k. A sidecar
    /// whose size differs from the file is an error naming the sidecar.
    public static func read(_ url: URL, sidecar: URL? = nil) throws -> (map: DepthMap, metadata: DepthMetadata) {
        let sidecarURL = sidecar ?? DepthMetadata.sidecarURL(for: url)
        let metadata = try DepthMetadata.read(sidecarURL)
        var map = try read(url, type: metadata.type)
        guard map.width == metadata.width, map.height == metadata.height else {
            throw DualcamError.format(
                path: sidecarURL.path, reason: "describes a \(metadata.width)x\(metadata.height) map but \(url.lastPathComponent) is \(map.size)")
        }
        map.accuracy = metadata.accuracy
        map.isFiltered = metadata.filtered
        map.quality = metadata.quality
        map.referenceCamera = metadata.referenceCamera
        map.intrinsics = metadata.referenceIntrinsics
        if let k = metadata.pixelsPerInverseMetre {
            guard k.isFinite, k > 0 else {
                throw DualcamError.format(path: sidecarURL.path, reason: "pixels_per_inverse_metre is \(k) (expected a positive number)")
            }
            map.pixelsPerInverseMetre = k
        }
        return (map, metadata)
    }
}
