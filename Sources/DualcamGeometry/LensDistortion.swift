/// A camera's lens distortion: none, Brown-Conrady (normalised coordinates)
/// or a radial lookup table (pixel coordinates of its own reference size).
public enum LensDistortion: Equatable, Hashable, Sendable {
    case none
    case brownConrady(BrownConrady)
    case radialLookupTable(RadialLookupTable)

    public var isNone: Bool {
        switch self {
        case .none: return true
        case let .brownConrady(b): return b.isIdentity
        case .radialLookupTable: return false
        }
    }

    /// Where a point that an ideal pinhole camera with `intrinsics` would image
    /// at `ideal` (pixels of the intrinsics' size) lands on the sensor.
    public func distortPixel(_ ideal: Vector2, intrinsics: Intrinsics) throws -> Vector2 {
        switch self {
        case .none:
            return ideal
        case let .brownConrady(model):
            return intrinsics.pixel(fromNormalized: model.distort(intrinsics.normalized(fromPixel: ideal)))
        case let .radialLookupTable(table):
            let s = try table.scale(to: intrinsics.referenceSize)
            let q = table.distort(Vector2(ideal.x / s.x, ideal.y / s.y))
            return Vector2(q.x * s.x, q.y * s.y)
        }
    }

    /// Inverse of `distortPixel`: the ideal pinhole pixel of a sensor pixel.
    public func undistortPixel(_ distorted: Vector2, intrinsics: Intrinsics) throws -> Vector2 {
        switch self {
        case .none:
            return distorted
        case let .brownConrady(model):
            return intrinsics.pixel(fromNormalized: try model.undistort(intrinsics.normalized(fromPixel: distorted)))
        case let .radialLookupTable(table):
            let s = try table.scale(to: intrinsics.referenceSize)
            let q = try table.undistort(Vector2(distorted.x / s.x, distorted.y / s.y))
            return Vector2(q.x * s.x, q.y * s.y)
        }
    }
}

extension RadialLookupTable {
    /// Per-axis factors from the table's reference size to `size` (same aspect ratio required).
    func scale(to size: PixelSize) throws -> (x: Double, y: Double) {
        if size == referenceSize { return (1, 1) }
        let sx = Double(size.width) / Double(referenceSize.width)
        let sy = Double(size.height) / Double(referenceSize.height)
        guard abs(sx * Double(referenceSize.height) - Double(size.height)) <= 1 else {
            throw GeometryError.aspectRatioMismatch(
                "cannot use a distortion lookup table made for \(referenceSize) on \(size): the aspect ratio differs")
        }
        return (sx, sy)
    }
}

/// A camera model: intrinsics plus lens distortion, mapping camera-frame
/// points to sensor pixels and back.
public struct CameraModel: Equatable, Hashable, Sendable {
    public var intrinsics: Intrinsics
    public var distortion: LensDistortion

    public init(intrinsics: Intrinsics, distortion: LensDistortion = .none) {
        self.intrinsics = intrinsics
        self.distortion = distortion
    }

    /// The image size the intrinsics refer to.
    public var size: PixelSize { intrinsics.referenceSize }

    /// The same camera for a buffer of `size` (K scaled; the distortion is
    /// scale-free or carries its own reference size).
    public func scaled(to size: PixelSize) throws -> CameraModel {
        CameraModel(intrinsics: try intrinsics.scaled(to: size), distortion: distortion)
    }

    /// Sensor pixel of a point in camera coordinates, or nil when Z <= 0
    /// (behind the camera): distort(K [X/Z, Y/Z, 1]^T).
    public func project(_ point: Vector3) throws -> Vector2? {
        guard point.z > 0 else { return nil }
        let ideal = intrinsics.pixel(fromNormalized: Vector2(point.x / point.z, point.y / point.z))
        return try distortion.distortPixel(ideal, intrinsics: intrinsics)
    }

    /// The point at depth Z (along the optical axis) seen at sensor pixel `pixel`.
    public func backProject(_ pixel: Vector2, depth z: Double) throws -> Vector3 {
        let n = intrinsics.normalized(fromPixel: try distortion.undistortPixel(pixel, intrinsics: intrinsics))
        return Vector3(n.x * z, n.y * z, z)
    }
}
