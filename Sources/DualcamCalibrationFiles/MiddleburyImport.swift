import DualcamGeometry
import DualcamSupport
import Foundation

/// Middlebury stereo `calib.txt` (2014 and 2021 datasets): `key=value` lines
///
///     cam0=[f 0 cx0; 0 f cy; 0 0 1]
///     cam1=[f 0 cx1; 0 f cy; 0 0 1]
///     doffs=209.059     x difference of the principal points, cx1 - cx0 (px)
///     baseline=176.252  camera distance in mm
///     width=2880  height=1988  ndisp=280  isint=0  vmin=33  vmax=218  dyavg=0  dymax=0
///
/// The images are rectified and cam1 sits `baseline` mm to the right of cam0
/// (+x), so X_cam1 = X_cam0 - (baseline, 0, 0): cam1FromCam0 has R = I and
/// t = (-baseline, 0, 0) mm. cam0 becomes `options.firstCamera` (default
/// `wide`, the reference) and cam1 `options.secondCamera` (default `tele`),
/// like every import, even though both have the same field of view.
/// `doffs` must equal cx1 - cx0 (within 0.01 px); it and the other keys
/// (ndisp, isint, vmin, vmax, dyavg, dymax, ...) are kept under `extra`,
/// as written. Without width/height lines the size comes from `options.imageSize`.
enum MiddleburyImport {
    static let tool = "Middlebury calib.txt"

    static func looksLikeMiddlebury(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            line.replacingOccurrences(of: " ", with: "").hasPrefix("cam0=[")
        }
    }

    static func read(_ url: URL, options: CalibrationImport.Options) throws -> CalibrationFile {
        try parse(try YAMLDocument.readText(url), path: url.path, options: options)
    }

    static func parse(_ text: String, path: String, options: CalibrationImport.Options) throws -> CalibrationFile {
        func fail(_ reason: String) -> DualcamError { .format(path: path, reason: reason) }
        var values: [(key: String, value: String, line: Int)] = []
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw fail("line \(n + 1): expected 'key=value', got '\(line.prefix(40))'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            guard !values.contains(where: { $0.key == key }) else { throw fail("line \(n + 1): duplicate key '\(key)'") }
            values.append((key, line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces), n + 1))
        }
        func entry(_ key: String) throws -> (value: String, line: Int) {
            guard let e = values.first(where: { $0.key == key }) else { throw fail("missing '\(key)=' line") }
            return (e.value, e.line)
        }
        func number(_ key: String) throws -> Double {
            let (text, line) = try entry(key)
            guard let v = Double(text), v.isFinite else { throw fail("line \(line): \(key): expected a finite number, got '\(text)'") }
            return v
        }
        func positiveInt(_ key: String) throws -> Int {
            let (text, line) = try entry(key)
            guard let v = Int(text), v > 0 else { throw fail("line \(line): \(key): expected a positive integer, got '\(text)'") }
            return v
        }
        let hasSize = values.contains { $0.key == "width" } || values.contains { $0.key == "height" }
        guard let size = hasSize ? PixelSize(width: try positiveInt("width"), height: try positiveInt("height"))
                                 : options.imageSize else {
            throw fail("no 'width=' and 'height=' lines; pass the image size")
        }
        func camera(_ key: String) throws -> Intrinsics {
            let (text, line) = try entry(key)
            let inner = text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
            let numbers = inner.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\t" || $0 == "," }).map { Double($0) }
            guard text.hasPrefix("["), text.hasSuffix("]"), numbers.count == 9, numbers.allSatisfy({ $0?.isFinite == true }) else {
                throw fail("line \(line): \(key): expected a 3x3 matrix '[f 0 cx; 0 f cy; 0 0 1]', got '\(text.prefix(60))'")
            }
            do { return try Intrinsics(matrix: Matrix3(rowMajor: numbers.map { $0! })!, referenceSize: size) } catch {
                throw fail("line \(line): \(key): \(error)")
            }
        }
        let k0 = try camera("cam0"), k1 = try camera("cam1")
        let baseline = try number("baseline")
        guard baseline > 0 else { throw fail("line \(try entry("baseline").line): baseline: expected a positive distance in mm, got \(baseline)") }
        if values.contains(where: { $0.key == "doffs" }) {
            let doffs = try number("doffs")
            guard abs((k1.cx - k0.cx) - doffs) <= 0.01 else {
                throw fail("line \(try entry("doffs").line): doffs \(doffs) differs from cx1 - cx0 = \(k1.cx - k0.cx); expected them equal")
            }
        }
        let first = options.firstCamera, second = options.secondCamera
        let rig: Rig
        do {
            rig = try Rig(reference: first, cameras: [RigCamera(name: first, model: CameraModel(intrinsics: k0)),
                                                      RigCamera(name: second, model: CameraModel(intrinsics: k1))],
                          extrinsics: [try RigidTransform(rotation: .identity, translation: Vector3(-baseline, 0, 0),
                                                          unit: .millimetre, from: first, to: second)])
        } catch { throw DualcamError.geometry(error, file: path) }
        let known: Set = ["cam0", "cam1", "baseline", "width", "height"]
        let extra = values.filter { !known.contains($0.key) }.map { e -> FreeFormEntry in
            FreeFormEntry(e.key, .inferred(e.value))
        }
        let notes = "Middlebury cam0 -> \(first), cam1 -> \(second); cam1 is \(baseline) mm to the right of cam0"
        return CalibrationFile(rig: rig, provenance: .imported(from: path, tool: tool, notes: notes), extra: extra)
    }
}
