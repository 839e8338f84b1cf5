import DualcamGeometry
import DualcamSupport
import Foundation

/// Imports of the files OpenCV's calibration samples write.
///
/// - `stereo_calib` (samples/cpp/stereo_calib.cpp) writes `intrinsics.yml`
///   (M1, D1, M2, D2) and `extrinsics.yml` (R, T, R1, R2, P1, P2, Q). The
///   first camera becomes `options.firstCamera` (default `wide`, the
///   reference), the second `options.secondCamera` (default `tele`), and
///   secondFromFirst = (R, T) since stereoCalibrate's X_2 = R X_1 + T. T is in
///   the calibration pattern's unit (`options.patternUnit`, default mm: give
///   the square size in mm to stereo_calib). R1 R2 P1 P2 Q are ignored. The
///   files do not hold the image size: it comes from `options.imageSize`, or
///   from `image_width`/`image_height` keys when a tool added them.
/// - `calibration` (samples/cpp/calibration.cpp) writes `camera_matrix`,
///   `distortion_coefficients`, `image_width`, `image_height` and
///   `avg_reprojection_error` (kept as the camera's RMS). It gives a
///   one-camera rig named `options.firstCamera`.
enum OpenCVSampleImport {
    static let stereoTool = "OpenCV stereo_calib"
    static let cameraTool = "OpenCV calibration"

    /// stereo_calib output: `intrinsics` (M1 D1 M2 D2) and `extrinsics` (R T).
    static func readStereo(intrinsics: URL, extrinsics: URL, options: CalibrationImport.Options) throws -> CalibrationFile {
        let intr = try OpenCVDocument(url: intrinsics)
        let extr = try OpenCVDocument(url: extrinsics)
        guard let size = try options.imageSize ?? intr.optionalSize(width: "image_width", height: "image_height") else {
            throw DualcamError.format(path: intrinsics.path, reason: "OpenCV stereo_calib files do not record the image size; \(options.imageSizeAdvice)")
        }
        let first = options.firstCamera, second = options.secondCamera
        guard first != second else {
            throw DualcamError.invalidValue(name: "camera names", reason: "the two cameras need different names, got '\(first)' twice")
        }
        let cameras = [
            RigCamera(name: first, model: CameraModel(intrinsics: try intr.intrinsics("M1", size: size),
                                                      distortion: try intr.distortion("D1"))),
            RigCamera(name: second, model: CameraModel(intrinsics: try intr.intrinsics("M2", size: size),
                                                       distortion: try intr.distortion("D2"))),
        ]
        let transform = try RigidTransform(rotation: try extr.rotation("R"), translation: try extr.vector3("T"),
                                           unit: options.patternUnit, from: first, to: second)
        let rig: Rig
        do { rig = try Rig(reference: first, cameras: cameras, extrinsics: [transform]) } catch {
            throw DualcamError.geometry(error, file: intrinsics.path)
        }
        let notes = "M1 D1 M2 D2 from \(intrinsics.lastPathComponent), R T from \(extrinsics.path); "
            + "T taken to be in \(options.patternUnit.rawValue); image size \(size)"
        return CalibrationFile(rig: rig, provenance: .imported(from: intrinsics.path, tool: stereoTool, notes: notes))
    }

    /// Finds the companion of a stereo_calib file: `extrinsics.yml` next to
    /// `intrinsics.yml` and vice versa (same extension first, then .yml, .yaml, .xml).
    static func companion(of url: URL, named base: String) -> URL? {
        let dir = url.deletingLastPathComponent()
        var extensions = [url.pathExtension, "yml", "yaml", "xml"].filter { !$0.isEmpty }
        extensions = extensions.enumerated().filter { extensions.firstIndex(of: $0.element) == $0.offset }.map(\.element)
        for ext in extensions {
            let candidate = dir.appendingPathComponent("\(base).\(ext)")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Single-camera calibration sample output.
    static func readCamera(_ url: URL, options: CalibrationImport.Options) throws -> CalibrationFile {
        let doc = try OpenCVDocument(url: url)
        guard let size = try doc.optionalSize(width: "image_width", height: "image_height") ?? options.imageSize else {
            throw DualcamError.format(path: url.path, reason: "missing keys 'image_width' and 'image_height' (pass the image size instead)")
        }
        let name = options.firstCamera
        let model = CameraModel(intrinsics: try doc.intrinsics("camera_matrix", size: size),
                                distortion: doc.has("distortion_coefficients") ? try doc.distortion("distortion_coefficients") : .none)
        let rig = try Rig(reference: name, cameras: [RigCamera(name: name, model: model)], extrinsics: [])
        var provenance = Provenance.imported(from: url.path, tool: cameraTool)
        if let rms = try doc.optionalReal("avg_reprojection_error") {
            provenance.rms = RMSErrors(cameras: [name.rawValue: rms])
        }
        if let time = try doc.optionalString("calibration_time") { provenance.notes = "calibrated \(time)" }
        return CalibrationFile(rig: rig, provenance: provenance)
    }
}
