import DualcamDepthMap
import DualcamGeometry

extension StereoDepthResult {
    /// k = f_out B at the output's resolution (f_out: the reference focal
    /// length at the output size, mean of fx and fy), so `.pixels` values are
    /// disparities measured in output pixels, d = k / Z (DepthMap's convention).
    public var outputPixelsPerInverseMetre: Double {
        (intrinsics.fx + intrinsics.fy) / 2 * rectification.baselineMetres
    }

    /// The result as a typed depth map (accuracy relative: stereo).
    public func depthMap(type: DepthDataType = .depth) throws -> DepthMap {
        let map = try DepthMap(size: size, values: depthMetres, type: .depth, accuracy: .relative,
                               isFiltered: filtered, quality: highQuality ? .high : .low, intrinsics: intrinsics,
                               pixelsPerInverseMetre: outputPixelsPerInverseMetre, referenceCamera: reference.rawValue)
        return try map.converted(to: type)
    }

    /// The per-pixel confidence as a `ConfidenceMap` (ARKit-style levels).
    public func confidenceMap() throws -> ConfidenceMap {
        try ConfidenceMap(size: size, values: confidence)
    }
}
