import DualcamOpenCV
import DualcamGeometry
import DualcamSupport
import Foundation

/// dualcam's OpenCV FileStorage form of a calibration: a superset of
/// stereo_calib's files that OpenCV code can read with plain
/// `fs["M1"] >> M1`, and that dualcam imports back exactly.
///
/// Cameras are numbered from 1, camera 1 being the rig's reference and the
/// others following in rig order. For camera i:
///
///     name<i>, kind<i>         string (kind: camera | lidar | depth)
///     width<i>, height<i>      int, the image size the intrinsics refer to
///     M<i>                     3x3 camera matrix
///     D<i>                     1xN Brown-Conrady coefficients (5 or 8);
///                              absent when the camera has no distortion model
///     rms<i>                   optional per-camera RMS (px)
/// and for i >= 2 the pose relative to camera 1, X_i = R X_1 + T:
///     R, T, T_unit             for camera 2 (stereo_calib's names)
///     R<i>, T<i>, T<i>_unit    for cameras 3, 4, ...
/// plus `dualcam_opencv: 1` (format version), `cameras` (count) and the
/// provenance: `source`, `tool`, `date`, `notes`, `original_file`, `rms_stereo`.
/// Radial lookup-table distortion has no OpenCV form and is refused.
/// Doubles are written by OpenCV with 17 significant digits, which reads back
/// to the same Double; only the sign of a zero may be lost (-0 is written as `0.`).
public enum OpenCVCalibrationExport {
    public static let versionKey = "dualcam_opencv"
    public static let formatVersion = 1

    /// Writes `file` atomically to `url` (.yml/.yaml for YAML, .xml for XML).
    public static func write(_ file: CalibrationFile, to url: URL) throws {
        let order = try cameraOrder(file, path: url.path)
        try CVFileStorage.write(to: url) { try fill($0, file, order: order, path: url.path) }
    }

    /// The document as YAML text.
    public static func yamlString(_ file: CalibrationFile) throws -> String {
        let order = try cameraOrder(file, path: "OpenCV export")
        let storage = try CVFileStorage(writingIn: .yaml)
        try fill(storage, file, order: order, path: "OpenCV export")
        return try storage.releaseToString()
    }

    static func cameraOrder(_ file: CalibrationFile, path: String) throws -> [RigCamera] {
        let rig = file.rig
        let order = [try rig.camera(rig.reference)] + rig.cameras.filter { $0.name != rig.reference }
        for c in order {
            if case .radialLookupTable = c.model.distortion {
                throw DualcamError.invalidValue(name: path, reason: "camera '\(c.name)' uses a radial lookup-table distortion, which OpenCV's format cannot hold")
            }
        }
        return order
    }

    static func poseKeys(_ i: Int) -> (r: String, t: String, unit: String) {
        i == 2 ? ("R", "T", "T_unit") : ("R\(i)", "T\(i)", "T\(i)_unit")
    }

    static func fill(_ fs: CVFileStorage, _ file: CalibrationFile, order: [RigCamera], path: String) throws {
        try fs.write(versionKey, int: formatVersion)
        try fs.write("cameras", int: order.count)
        for (offset, camera) in order.enumerated() {
            let i = offset + 1
            try fs.write("name\(i)", string: camera.name.rawValue)
            try fs.write("kind\(i)", string: file.kind(of: camera.name).rawValue)
            try fs.write("width\(i)", int: camera.size.width)
            try fs.write("height\(i)", int: camera.size.height)
            try fs.write("M\(i)", rows: 3, cols: 3, values: camera.model.intrinsics.matrix.rowMajor)
            if case let .brownConrady(b) = camera.model.distortion {
                try fs.write("D\(i)", rows: 1, cols: b.coefficients.count, values: b.coefficients)
            }
            if let rms = file.provenance.rms?.cameras[camera.name.rawValue] { try fs.write("rms\(i)", real: rms) }
            if i >= 2 {
                let t = try file.rig.cameraFromReference(camera.name, unit: file.rig.extrinsics[camera.name]!.unit)
                let keys = poseKeys(i)
                try fs.write(keys.r, rows: 3, cols: 3, values: t.rotation.matrix.rowMajor)
                try fs.write(keys.t, rows: 3, cols: 1, values: [t.translation.x, t.translation.y, t.translation.z])
                try fs.write(keys.unit, string: t.unit.rawValue)
            }
        }
        let p = file.provenance
        try fs.write("source", string: p.source.rawValue)
        for (key, value) in [("tool", p.tool), ("date", p.date), ("notes", p.notes), ("original_file", p.originalFile)] {
            if let value { try fs.write(key, string: value) }
        }
        if let s = p.rms?.stereo { try fs.write("rms_stereo", real: s) }
    }

    /// Reads a file written by `write` (detected by its `dualcam_opencv` key).
    static func read(_ url: URL) throws -> CalibrationFile {
        let doc = try OpenCVDocument(url: url)
        let version = try doc.positiveInt(versionKey)
        guard version == formatVersion else {
            throw doc.error(versionKey, "unsupported version \(version); this dualcam reads \(formatVersion)")
        }
        let count = try doc.positiveInt("cameras")
        var cameras: [RigCamera] = [], kinds: [FrameName: CameraKind] = [:], poses: [RigidTransform] = []
        var rms = RMSErrors(stereo: try doc.optionalReal("rms_stereo"))
        for i in 1...count {
            let name = FrameName(try doc.string("name\(i)"))
            let kindText = try doc.string("kind\(i)")
            guard let kind = CameraKind(rawValue: kindText) else {
                throw doc.error("kind\(i)", "unknown camera kind '\(kindText)'; expected camera, lidar or depth")
            }
            let size = PixelSize(width: try doc.positiveInt("width\(i)"), height: try doc.positiveInt("height\(i)"))
            let distortion = doc.has("D\(i)") ? try doc.distortion("D\(i)") : .none
            cameras.append(RigCamera(name: name, model: CameraModel(intrinsics: try doc.intrinsics("M\(i)", size: size),
                                                                    distortion: distortion)))
            kinds[name] = kind
            if let r = try doc.optionalReal("rms\(i)") { rms.cameras[name.rawValue] = r }
            if i >= 2 {
                let keys = poseKeys(i)
                let unitText = try doc.string(keys.unit)
                guard let unit = LengthUnit(rawValue: unitText) else {
                    throw doc.error(keys.unit, "unknown unit '\(unitText)'; expected one of \(LengthUnit.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                poses.append(try RigidTransform(rotation: try doc.rotation(keys.r), translation: try doc.vector3(keys.t),
                                                unit: unit, from: cameras[0].name, to: name))
            }
        }
        let rig: Rig
        do { rig = try Rig(reference: cameras[0].name, cameras: cameras, extrinsics: poses) } catch {
            throw DualcamError.geometry(error, file: url.path)
        }
        let sourceText = try doc.string("source")
        guard let source = Provenance.Source(rawValue: sourceText) else {
            throw doc.error("source", "unknown source '\(sourceText)'; expected nominal, calibrated or imported")
        }
        let date = try doc.optionalString("date")
        if let date, !Provenance.isValidISODate(date) { throw doc.error("date", "expected an ISO-8601 date, got '\(date)'") }
        let provenance = Provenance(source: source, tool: try doc.optionalString("tool"), date: date,
                                    notes: try doc.optionalString("notes"),
                                    originalFile: try doc.optionalString("original_file"),
                                    rms: rms.isEmpty ? nil : rms)
        return CalibrationFile(rig: rig, provenance: provenance, kinds: kinds)
    }
}
