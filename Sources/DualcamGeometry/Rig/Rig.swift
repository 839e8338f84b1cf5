/// One camera (or depth sensor) of a rig: its name, the image size it
/// delivers, and its camera model at that size.
public struct RigCamera: Equatable, Sendable {
    public var name: FrameName
    public var model: CameraModel
    /// Size of the images this camera delivers (the intrinsics' reference size).
    public var size: PixelSize { model.intrinsics.referenceSize }

    public init(name: FrameName, model: CameraModel) {
        self.name = name
        self.model = model
    }
}

/// A multi-camera rig: named cameras (at least `wide` and `tele`, optionally a
/// `lidar` depth sensor) with device-level extrinsics.
///
/// Extrinsics are stored as AVFoundation does: each camera's pose relative to
/// one reference camera, `cameraFromReference` (X_camera = R X_reference + t),
/// the reference itself having identity R and zero t. `transform(from:to:)`
/// derives any pair, e.g. `rig.transform(from: .wide, to: .tele)` is
/// `teleFromWide`.
public struct Rig: Equatable, Sendable {
    public private(set) var cameras: [RigCamera]
    public let reference: FrameName
    /// cameraFromReference for every camera other than the reference.
    public private(set) var extrinsics: [FrameName: RigidTransform]

    public init(reference: FrameName, cameras: [RigCamera], extrinsics: [RigidTransform]) throws {
        let names = cameras.map(\.name)
        guard Set(names).count == names.count else {
            throw GeometryError.invalidRig("rig camera names must be unique, got \(names.map(\.rawValue))")
        }
        guard names.contains(reference) else {
            throw GeometryError.invalidRig("rig reference camera '\(reference)' is not one of its cameras \(names.map(\.rawValue))")
        }
        var table: [FrameName: RigidTransform] = [:]
        for t in extrinsics {
            guard t.source == reference else {
                throw GeometryError.invalidRig(
                    "rig extrinsics must map from the reference camera '\(reference)', got \(t.name)")
            }
            guard names.contains(t.target), t.target != reference else {
                throw GeometryError.invalidRig("rig extrinsics \(t.name) name an unknown or reference camera")
            }
            guard table[t.target] == nil else {
                throw GeometryError.invalidRig("rig has two extrinsics for camera '\(t.target)'")
            }
            table[t.target] = t
        }
        for name in names where name != reference && table[name] == nil {
            throw GeometryError.invalidRig("rig camera '\(name)' has no extrinsics relative to '\(reference)'")
        }
        self.cameras = cameras
        self.reference = reference
        self.extrinsics = table
    }

    public var cameraNames: [FrameName] { cameras.map(\.name) }

    public func camera(_ name: FrameName) throws -> RigCamera {
        guard let c = cameras.first(where: { $0.name == name }) else {
            throw GeometryError.invalidRig("rig has no camera '\(name)'; it has \(cameraNames.map(\.rawValue).joined(separator: ", "))")
        }
        return c
    }

    /// cameraFromReference, identity for the reference itself.
    public func cameraFromReference(_ name: FrameName, unit: LengthUnit = .millimetre) throws -> RigidTransform {
        _ = try camera(name)
        if name == reference { return .identity(reference, unit: unit) }
        // A camera added by `setCamera` has no extrinsics: an error, not a crash.
        guard let t = extrinsics[name] else {
            throw GeometryError.invalidRig("rig camera '\(name)' has no extrinsics relative to '\(reference)'")
        }
        return t.converted(to: unit)
    }

    /// `targetFromSource`: maps points in `source` camera coordinates into
    /// `target` coordinates, targetFromReference * (sourceFromReference)^-1.
    public func transform(from source: FrameName, to target: FrameName,
                          unit: LengthUnit = .millimetre) throws -> RigidTransform {
        let sourceFromRef = try cameraFromReference(source, unit: unit)
        let targetFromRef = try cameraFromReference(target, unit: unit)
        return try targetFromRef.composed(after: sourceFromRef.inverse)
    }

    /// Replaces the model of a camera the rig already has (e.g. with
    /// per-frame intrinsics). Adding a camera goes through `init`, which
    /// requires its extrinsics, so an unknown name is an error.
    public mutating func setCamera(_ camera: RigCamera) throws {
        guard let i = cameras.firstIndex(where: { $0.name == camera.name }) else {
            throw GeometryError.invalidRig(
                "rig has no camera '\(camera.name)' to replace; it has \(cameraNames.map(\.rawValue).joined(separator: ", "))")
        }
        cameras[i] = camera
    }

    /// The plane-induced homography H_target<-source for a plane given in
    /// `source` coordinates, using each camera's intrinsics at the given buffer
    /// sizes (default: the cameras' own sizes). See `PlaneHomography`.
    public func homography(from source: FrameName, to target: FrameName, plane: Plane,
                           sourceSize: PixelSize? = nil, targetSize: PixelSize? = nil) throws -> Matrix3 {
        let s = try camera(source).model.intrinsics, t = try camera(target).model.intrinsics
        return try PlaneHomography.homography(
            from: try s.scaled(to: sourceSize ?? s.referenceSize),
            to: try t.scaled(to: targetSize ?? t.referenceSize),
            dstFromSrc: try transform(from: source, to: target, unit: plane.unit),
            plane: plane)
    }
}
