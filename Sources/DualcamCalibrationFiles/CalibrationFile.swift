import DualcamGeometry
import DualcamSupport
import Foundation

/// What a rig camera delivers: colour images, or a depth map (aligned to its
/// own intrinsics) from a LiDAR or another depth sensor.
public enum CameraKind: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case camera
    case lidar
    case depth
}

/// A dualcam calibration file: a rig (cameras, reference camera,
/// cameraFromReference extrinsics), each camera's kind, how the numbers were
/// made, and free-form extra fields.
///
/// The on-disk form is YAML, version `dualcam_calibration: 1`, documented in
/// `Calibration/README.md`. Numbers are written in Swift's shortest
/// round-trip representation, so read(write(x)) == x exactly.
public struct CalibrationFile: Equatable, Sendable {
    /// The value of the `dualcam_calibration` key this code reads and writes.
    public static let formatVersion = 1
    /// The key that identifies (and versions) the format.
    public static let versionKey = "dualcam_calibration"

    public var rig: Rig
    /// Kind of each camera; cameras not listed are `.camera`.
    public var kinds: [FrameName: CameraKind]
    public var provenance: Provenance
    /// Free-form fields (the `extra` section), kept in order.
    public var extra: [FreeFormEntry]

    public init(rig: Rig, provenance: Provenance, kinds: [FrameName: CameraKind] = [:],
                extra: [FreeFormEntry] = []) {
        self.rig = rig
        self.provenance = provenance
        self.kinds = kinds
        self.extra = extra
    }

    public func kind(of camera: FrameName) -> CameraKind { kinds[camera] ?? .camera }

    /// Equal rigs, provenance and extra fields, and equal kinds for every
    /// camera (an absent kind equals `.camera`).
    public static func == (a: CalibrationFile, b: CalibrationFile) -> Bool {
        a.rig == b.rig && a.provenance == b.provenance && a.extra == b.extra
            && a.rig.cameraNames.allSatisfy { a.kind(of: $0) == b.kind(of: $0) }
    }

    /// Parses the YAML text of a calibration file; `path` names the file in errors.
    public init(yaml: String, path: String) throws {
        self = try CalibrationYAMLDecoder.decode(yaml, path: path)
    }

    /// Reads a dualcam calibration file (errors: `DualcamError.io` for a
    /// missing or unreadable file, `.format` naming the line and field).
    public static func read(_ url: URL) throws -> CalibrationFile {
        try CalibrationFile(yaml: try YAMLDocument.readText(url), path: url.path)
    }

    /// The YAML text, optionally preceded by `comment` as `#` lines.
    public func yamlString(comment: String? = nil) throws -> String {
        try CalibrationYAMLEncoder.encode(self, comment: comment)
    }

    /// Writes the YAML atomically to `url`.
    public func write(to url: URL, comment: String? = nil) throws {
        try AtomicFile.write(try yamlString(comment: comment), to: url)
    }
}

extension DualcamError {
    /// A geometry error raised while building a value from `file`.
    static func geometry(_ error: Error, file: String, field: String? = nil) -> DualcamError {
        if let e = error as? DualcamError { return e.located(at: file) }
        let what = field.map { "\($0): " } ?? ""
        return .format(path: file, reason: what + "\(error)")
    }
}
