/// A named frame of reference: a camera of a rig (`wide`, `tele`, `lidar`, ...)
/// or any other coordinate system (`world`, `board`).
public struct FrameName: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, Comparable
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
    public static func < (a: FrameName, b: FrameName) -> Bool { a.rawValue < b.rawValue }

    public static let wide: FrameName = "wide"
    public static let tele: FrameName = "tele"
    public static let lidar: FrameName = "lidar"
}

/// A rigid transform [R | t] that maps points from frame `source` to frame
/// `target`: X_target = R X_source + t, with t in `unit`.
///
/// Name values by what they map, target first: `teleFromWide` maps wide
/// coordinates into tele coordinates (AVFoundation's device-level extrinsics
/// and OpenCV's stereoCalibrate R, T use the same direction:
/// X_2 = R X_1 + T).
public struct RigidTransform: Equatable, Sendable, CustomStringConvertible {
    public let rotation: Rotation
    /// t, in `unit`.
    public let translation: Vector3
    public let unit: LengthUnit
    public let source: FrameName
    public let target: FrameName

    public init(rotation: Rotation, translation: Vector3, unit: LengthUnit,
                from source: FrameName, to target: FrameName) throws {
        guard translation.x.isFinite, translation.y.isFinite, translation.z.isFinite else {
            throw GeometryError.invalidTransform("translation of \(target) from \(source) has non-finite entries: \(translation)")
        }
        self.rotation = rotation
        self.translation = translation
        self.unit = unit
        self.source = source
        self.target = target
    }

    /// The identity map of a frame onto itself.
    public static func identity(_ frame: FrameName, unit: LengthUnit = .millimetre) -> RigidTransform {
        // swiftlint:disable:next force_try
        try! RigidTransform(rotation: .identity, translation: .zero, unit: unit, from: frame, to: frame)
    }

    /// The same transform with t expressed in `newUnit`.
    public func converted(to newUnit: LengthUnit) -> RigidTransform {
        // Scaling a finite translation keeps it finite, so this cannot throw.
        try! RigidTransform(rotation: rotation, translation: translation * unit.factor(to: newUnit),
                            unit: newUnit, from: source, to: target)
    }

    /// t expressed in `unit`.
    public func translation(in newUnit: LengthUnit) -> Vector3 { translation * unit.factor(to: newUnit) }

    /// Maps a point given in `source` coordinates (in `unit`) into `target` coordinates.
    public func apply(_ point: Vector3) -> Vector3 { rotation * point + translation }

    /// The inverse map, target to source: X_s = R^T X_t - R^T t.
    public var inverse: RigidTransform {
        let rt = rotation.inverse
        return try! RigidTransform(rotation: rt, translation: -(rt * translation), unit: unit,
                                   from: target, to: source)
    }

    /// `self` after `first`: for first = bFromA and self = cFromB gives cFromA,
    /// X_c = R_cb (R_ba X_a + t_ba) + t_cb. The frames must chain (first.target ==
    /// self.source); the result is in `self`'s unit.
    public func composed(after first: RigidTransform) throws -> RigidTransform {
        guard first.target == source else {
            throw GeometryError.frameMismatch(
                "cannot compose \(name) after \(first.name): frames do not chain")
        }
        let f = first.converted(to: unit)
        return try RigidTransform(rotation: rotation * f.rotation,
                                  translation: rotation * f.translation + translation,
                                  unit: unit, from: f.source, to: target)
    }

    /// The distance between the two frames' origins (the baseline), in `unit`.
    public var baseline: Double { translation.norm }

    public var name: String {
        "\(target.rawValue)From\(source.rawValue.prefix(1).uppercased())\(source.rawValue.dropFirst())"
    }

    public var description: String {
        "\(name): R=\(rotation.matrix), t=[\(translation.x), \(translation.y), \(translation.z)] \(unit.rawValue)"
    }
}
