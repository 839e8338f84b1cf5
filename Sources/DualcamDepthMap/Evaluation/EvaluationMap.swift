import DualcamGeometry
import DualcamSupport

/// The space two maps are compared in (`StereoEvaluation`).
/// - `disparity`: pixel disparity in the ground truth's geometry (bad-N,
///   average and RMS error in pixels, as Middlebury and KITTI score);
/// - `depth`: metres along the reference camera's axis (AbsRel, RMSE, delta).
public enum EvaluationSpace: String, CaseIterable, Codable, Sendable {
    case disparity, depth
}

/// A map to score or to score against: row-major float values (NaN =
/// missing) that are either pixel disparities or depths in metres.
///
/// A disparity map may know its `DisparityGeometry` (a dualcam map of type
/// `pixels` with its k, or ground truth with a calibration); one that does
/// not is taken to be in the geometry of whatever it is compared with (a
/// Middlebury or KITTI disparity map, or an OpenCV matcher's output on the
/// same rectified pair).
public struct EvaluationMap: Sendable {
    public enum Kind: String, Sendable { case disparityPixels = "disparity_px", depthMetres = "depth_m" }

    public var size: PixelSize
    public var values: [Float]
    public var kind: Kind
    /// For `disparityPixels`: how its values relate to depth (nil: unknown).
    public var geometry: DisparityGeometry?

    public init(size: PixelSize, values: [Float], kind: Kind, geometry: DisparityGeometry? = nil) throws {
        guard size.width > 0, size.height > 0, values.count == size.width * size.height else {
            throw DualcamError.invalidValue(name: "evaluation map", reason: "\(values.count) values for a \(size) map")
        }
        self.size = size
        self.values = values
        self.kind = kind
        self.geometry = geometry
    }

    /// A dualcam `DepthMap`: `depth` stays metres, `disparity` (1/m) becomes
    /// metres (Z = 1 / D), `pixels` stays pixel disparity with the map's k
    /// (doffs 0: dualcam rectifies both views to one K) when it has one.
    public init(_ map: DepthMap) throws {
        switch map.type {
        case .depth, .disparity:
            try self.init(size: map.size, values: try map.converted(to: .depth).values, kind: .depthMetres)
        case .pixels:
            try self.init(size: map.size, values: map.values, kind: .disparityPixels,
                          geometry: try map.pixelsPerInverseMetre.map { try DisparityGeometry(pixelsPerInverseMetre: $0) })
        }
    }

    /// The values in `space`, with `target` the geometry of the disparity
    /// space (the ground truth's): own disparities are carried through
    /// depth into `target` when both geometries are known, kept as they are
    /// when one is unknown; depths need a geometry (their own is irrelevant).
    /// Converting disparity to depth needs the map's geometry or `target`.
    /// Missing or impossible values (d + doffs <= 0, Z <= 0) become NaN.
    public func values(in space: EvaluationSpace, target: DisparityGeometry?) throws -> [Float] {
        switch (kind, space) {
        case (.depthMetres, .depth):
            return values.map { $0 > 0 ? $0 : .nan }
        case (.depthMetres, .disparity):
            guard let target else { throw Self.needsGeometry("depth to disparity") }
            return values.map { Float(target.disparityPixels(depthMetres: Double($0))) }
        case (.disparityPixels, .disparity):
            guard let own = geometry, let target, own != target else { return values }
            return values.map { Float(target.disparityPixels(depthMetres: own.depthMetres(disparityPixels: Double($0)))) }
        case (.disparityPixels, .depth):
            guard let g = geometry ?? target else { throw Self.needsGeometry("disparity to depth") }
            return values.map { Float(g.depthMetres(disparityPixels: Double($0))) }
        }
    }

    /// The map resampled to `newSize` by nearest neighbour (no value is
    /// blended across a discontinuity); disparities and their geometry
    /// scale with newWidth / width. The aspect ratio must stay (within 1 px).
    public func resized(to newSize: PixelSize) throws -> EvaluationMap {
        if newSize == size { return self }
        let asDepthMap = try DepthMap(size: size, values: values, type: kind == .depthMetres ? .depth : .pixels)
        let resized = try asDepthMap.resized(to: newSize, method: .nearest)
        let factor = Double(newSize.width) / Double(size.width)
        return try EvaluationMap(size: newSize, values: resized.values, kind: kind, geometry: try geometry?.scaled(by: factor))
    }

    private static func needsGeometry(_ what: String) -> DualcamError {
        .invalidValue(name: "evaluation", reason: "converting \(what) needs the pair's geometry (give a calibration, e.g. Middlebury calib.txt)")
    }
}
