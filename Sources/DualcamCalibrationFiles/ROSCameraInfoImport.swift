import DualcamGeometry
import DualcamSupport
import Foundation

/// ROS `camera_info` YAML (camera_calibration_parsers), one camera:
///
///     image_width: 640
///     image_height: 480
///     camera_name: narrow_stereo
///     camera_matrix: {rows: 3, cols: 3, data: [fx, 0, cx, 0, fy, cy, 0, 0, 1]}
///     distortion_model: plumb_bob            # or rational_polynomial
///     distortion_coefficients: {rows: 1, cols: 5, data: [k1, k2, p1, p2, k3]}
///     rectification_matrix: {rows: 3, cols: 3, data: [...]}   # ignored
///     projection_matrix: {rows: 3, cols: 4, data: [...]}      # ignored
///
/// The camera becomes `options.firstCamera` (default `wide`) of a one-camera
/// rig; `camera_name` is kept in the provenance notes. plumb_bob takes 5
/// coefficients (4 accepted), rational_polynomial 8; an empty model or
/// `none` with no coefficients means no distortion. Other models
/// (equidistant/fisheye) are refused.
enum ROSCameraInfoImport {
    static let tool = "ROS camera_info"

    /// True when the YAML root has the keys camera_info files always carry.
    static func matches(_ root: YAMLMapping) -> Bool {
        root.keys.contains("camera_matrix") && root.keys.contains("image_width")
    }

    static func read(_ url: URL, options: CalibrationImport.Options) throws -> CalibrationFile {
        let root = try YAMLDocument.root(try YAMLDocument.readText(url), file: url.path)
        return try parse(try root.mapping(), path: url.path, options: options)
    }

    static func matrixData(_ m: YAMLMapping, _ key: String, rows: Int?, cols: Int?) throws -> [Double] {
        let field = try m.required(key)
        let mm = try field.mapping()
        let data = try mm.required("data").doubles()
        let r = try mm.optional("rows")?.positiveInt(), c = try mm.optional("cols")?.positiveInt()
        if let r, let c, r * c != data.count {
            throw field.error("rows x cols = \(r)x\(c) but data has \(data.count) values")
        }
        if let rows, let cols, data.count != rows * cols || (r != nil && r != rows) {
            throw field.error("expected a \(rows)x\(cols) matrix, got \(data.count) values")
        }
        return data
    }

    static func parse(_ m: YAMLMapping, path: String, options: CalibrationImport.Options) throws -> CalibrationFile {
        let size = PixelSize(width: try m.required("image_width").positiveInt(),
                             height: try m.required("image_height").positiveInt())
        let k = try matrixData(m, "camera_matrix", rows: 3, cols: 3)
        let intrinsics: Intrinsics
        do { intrinsics = try Intrinsics(matrix: Matrix3(rowMajor: k)!, referenceSize: size) } catch {
            throw try m.required("camera_matrix").error("\(error)")
        }
        let modelField = m.optional("distortion_model")
        let model = try modelField?.string() ?? ""
        let coefficients = m.optional("distortion_coefficients") == nil
            ? [] : try matrixData(m, "distortion_coefficients", rows: nil, cols: nil)
        let distortion: LensDistortion
        do {
            switch model {
            case "plumb_bob" where [4, 5].contains(coefficients.count),
                 "rational_polynomial" where coefficients.count == 8:
                distortion = .brownConrady(try BrownConrady(coefficients: coefficients))
            case "plumb_bob", "rational_polynomial":
                throw try m.required("distortion_coefficients").error(
                    "\(model) expects \(model == "plumb_bob" ? "5" : "8") coefficients, got \(coefficients.count)")
            case "" where coefficients.allSatisfy({ $0 == 0 }), "none" where coefficients.allSatisfy({ $0 == 0 }):
                distortion = .none
            default:
                throw (modelField ?? m.field).error("unsupported distortion model '\(model)'; expected plumb_bob or rational_polynomial")
            }
        } catch let e as GeometryError { throw try m.required("distortion_coefficients").error(e.description) }
        let name = options.firstCamera
        let rig = try Rig(reference: name, cameras: [RigCamera(name: name, model: CameraModel(intrinsics: intrinsics, distortion: distortion))],
                          extrinsics: [])
        let rosName = try m.optional("camera_name")?.string()
        let notes = rosName.map { "ROS camera_name '\($0)' -> \(name)" }
        return CalibrationFile(rig: rig, provenance: .imported(from: path, tool: tool, notes: notes))
    }
}
