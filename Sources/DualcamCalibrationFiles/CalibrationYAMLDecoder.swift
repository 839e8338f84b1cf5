import DualcamGeometry
import DualcamSupport
import Yams

/// YAML text -> CalibrationFile, validating every field (format in
/// Calibration/README.md). Errors are one line: file, line, field, problem.
enum CalibrationYAMLDecoder {
    static let topLevelKeys = [CalibrationFile.versionKey, "reference", "cameras", "extrinsics", "provenance", "extra"]

    static func decode(_ text: String, path: String) throws -> CalibrationFile {
        let root = try YAMLDocument.root(text, file: path)
        guard case .mapping = root.node else {
            throw DualcamError.format(path: path, reason: "expected a dualcam calibration mapping starting with '\(CalibrationFile.versionKey): 1', got \(root.shortDescription)")
        }
        let top = try root.mapping()
        guard let versionField = top.optional(CalibrationFile.versionKey) else {
            throw DualcamError.format(path: path, reason: "missing field '\(CalibrationFile.versionKey)' (the format version, expected \(CalibrationFile.formatVersion)); is this a dualcam calibration file?")
        }
        let version = try versionField.int()
        guard version == CalibrationFile.formatVersion else {
            throw versionField.error("unsupported format version \(version); this dualcam reads version \(CalibrationFile.formatVersion)")
        }
        try top.rejectUnknownKeys(topLevelKeys, hint: " (put your own fields under 'extra')")

        let referenceField = try top.required("reference")
        let reference = FrameName(try referenceField.string())
        var cameras: [RigCamera] = []
        var kinds: [FrameName: CameraKind] = [:]
        for item in try top.required("cameras").sequence() {
            let (camera, kind) = try decodeCamera(item)
            guard !cameras.contains(where: { $0.name == camera.name }) else {
                throw item.error("duplicate camera name '\(camera.name)'")
            }
            cameras.append(camera)
            kinds[camera.name] = kind
        }
        let names = cameras.map(\.name)
        guard !cameras.isEmpty else { throw top.field.error("'cameras' lists no camera") }
        guard names.contains(reference) else {
            throw referenceField.error("reference camera '\(reference)' is not one of the cameras (\(names.map(\.rawValue).joined(separator: ", ")))")
        }

        var extrinsics: [RigidTransform] = []
        if let section = top.optional("extrinsics") {
            for (key, field) in try section.mapping().pairs {
                extrinsics.append(try decodeExtrinsics(key: key, field, names: names, reference: reference))
            }
        }
        for name in names where name != reference && !extrinsics.contains(where: { $0.target == name }) {
            throw DualcamError.format(path: path, reason: "missing field 'extrinsics.\(name)_from_\(reference)' (every camera other than the reference needs its pose)")
        }
        let rig: Rig
        do { rig = try Rig(reference: reference, cameras: cameras, extrinsics: extrinsics) } catch {
            throw DualcamError.geometry(error, file: path)
        }
        let provenance = try decodeProvenance(try top.required("provenance"), names: names)
        var extra: [FreeFormEntry] = []
        if let e = top.optional("extra") {
            guard case let .mapping(entries) = try freeForm(e) else { throw e.error("expected a mapping") }
            extra = entries
        }
        return CalibrationFile(rig: rig, provenance: provenance, kinds: kinds, extra: extra)
    }

    static func decodeSize(_ field: YAMLField) throws -> PixelSize {
        let m = try field.mapping()
        try m.rejectUnknownKeys(["width", "height"])
        let size = PixelSize(width: try m.required("width").positiveInt(), height: try m.required("height").positiveInt())
        if let problem = InputLimits.imageSizeProblem(width: size.width, height: size.height) { throw field.error(problem) }
        return size
    }

    static func decodeCamera(_ field: YAMLField) throws -> (RigCamera, CameraKind) {
        let m = try field.mapping()
        try m.rejectUnknownKeys(["name", "kind", "image_size", "reference_dimensions", "intrinsics", "distortion"])
        let name = FrameName(try m.required("name").string())
        var kind = CameraKind.camera
        if let k = m.optional("kind") {
            let text = try k.string()
            guard let parsed = CameraKind(rawValue: text) else {
                throw k.error("unknown camera kind '\(text)'; expected one of \(CameraKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = parsed
        }
        let size = try decodeSize(try m.required("image_size"))
        if let r = m.optional("reference_dimensions"), try decodeSize(r) != size {
            throw r.error("reference dimensions must equal image_size \(size) (intrinsics refer to the image size)")
        }
        let kf = try m.required("intrinsics")
        let k = try kf.mapping()
        try k.rejectUnknownKeys(["fx", "fy", "skew", "cx", "cy"])
        let intrinsics: Intrinsics
        do {
            intrinsics = try Intrinsics(fx: try k.required("fx").double(), fy: try k.required("fy").double(),
                                        skew: try k.optional("skew")?.double() ?? 0,
                                        cx: try k.required("cx").double(), cy: try k.required("cy").double(),
                                        referenceSize: size)
        } catch let e as GeometryError { throw kf.error(e.description) }
        let distortion = try m.optional("distortion").map(decodeDistortion) ?? LensDistortion.none
        return (RigCamera(name: name, model: CameraModel(intrinsics: intrinsics, distortion: distortion)), kind)
    }

    static let models = ["none", "brown_conrady", "radial_lut"]

    static func decodeDistortion(_ field: YAMLField) throws -> LensDistortion {
        let m = try field.mapping()
        let modelField = try m.required("model")
        let model = try modelField.string()
        do {
            switch model {
            case "none":
                try m.rejectUnknownKeys(["model"])
                return .none
            case "brown_conrady":
                let names = ["k1", "k2", "p1", "p2", "k3", "k4", "k5", "k6"]
                try m.rejectUnknownKeys(["model"] + names)
                var c = [Double]()
                for (i, n) in names.enumerated() {
                    // k1 k2 p1 p2 are required; k3 and the rational k4..k6 default to 0.
                    c.append(i < 4 ? try m.required(n).double() : try m.optional(n)?.double() ?? 0)
                }
                return .brownConrady(try BrownConrady(coefficients: c))
            case "radial_lut":
                try m.rejectUnknownKeys(["model", "center", "reference_size", "magnification", "inverse_magnification"])
                let center = try m.required("center").doubles(count: 2)
                return .radialLookupTable(try RadialLookupTable(
                    center: Vector2(center[0], center[1]), referenceSize: try decodeSize(try m.required("reference_size")),
                    magnification: try m.required("magnification").doubles(),
                    inverseMagnification: try m.optional("inverse_magnification")?.doubles()))
            default:
                throw modelField.error("unknown distortion model '\(model)'; expected one of \(models.joined(separator: ", "))")
            }
        } catch let e as GeometryError { throw field.error(e.description) }
    }

    /// `<target>_from_<source>`; camera names may contain underscores, so the
    /// split is the one whose two sides are both camera names.
    static func splitExtrinsicsKey(_ key: String, names: [FrameName]) -> (target: FrameName, source: FrameName)? {
        var search = key.startIndex..<key.endIndex
        while let r = key.range(of: "_from_", range: search) {
            let target = FrameName(String(key[..<r.lowerBound])), source = FrameName(String(key[r.upperBound...]))
            if names.contains(target), names.contains(source) { return (target, source) }
            search = key.index(after: r.lowerBound)..<key.endIndex
        }
        return nil
    }

    static func decodeExtrinsics(key: String, _ field: YAMLField, names: [FrameName], reference: FrameName) throws -> RigidTransform {
        guard key.contains("_from_") else {
            throw field.error("extrinsics keys are '<camera>_from_<reference>', e.g. 'tele_from_wide'")
        }
        guard let (target, source) = splitExtrinsicsKey(key, names: names) else {
            throw field.error("names an unknown camera; the cameras are \(names.map(\.rawValue).joined(separator: ", "))")
        }
        guard source == reference, target != reference else {
            let example = ([target, source] + names).first { $0 != reference }.map(\.rawValue) ?? "<camera>"
            throw field.error("extrinsics must map from the reference camera '\(reference)' to another camera, e.g. '\(example)_from_\(reference)'")
        }
        let m = try field.mapping()
        try m.rejectUnknownKeys(["rotation", "translation", "unit"])
        let rotationField = try m.required("rotation")
        let r = try rotationField.doubles(count: 9)
        let rotation: Rotation
        do { rotation = try Rotation(Matrix3(rowMajor: r)!) } catch let e as GeometryError {
            throw rotationField.error(e.description)
        }
        let t = try m.required("translation").doubles(count: 3)
        let unitField = try m.required("unit")
        let unitText = try unitField.string()
        guard let unit = LengthUnit(rawValue: unitText) ?? LengthUnit.parse(unitText) else {
            throw unitField.error("unknown unit '\(unitText)'; expected one of \(LengthUnit.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        do {
            return try RigidTransform(rotation: rotation, translation: Vector3(t[0], t[1], t[2]), unit: unit,
                                      from: source, to: target)
        } catch let e as GeometryError { throw field.error(e.description) }
    }

    static func decodeProvenance(_ field: YAMLField, names: [FrameName]) throws -> Provenance {
        let m = try field.mapping()
        try m.rejectUnknownKeys(["source", "tool", "date", "notes", "original_file", "rms"])
        let sourceField = try m.required("source")
        let sourceText = try sourceField.string()
        guard let source = Provenance.Source(rawValue: sourceText) else {
            throw sourceField.error("unknown source '\(sourceText)'; expected one of \(Provenance.Source.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var p = Provenance(source: source, tool: try m.optional("tool")?.string(),
                           notes: try m.optional("notes")?.string(),
                           originalFile: try m.optional("original_file")?.string())
        if let d = m.optional("date") {
            let text = try d.string()
            guard Provenance.isValidISODate(text) else {
                throw d.error("expected an ISO-8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got '\(text)'")
            }
            p.date = text
        }
        if let r = m.optional("rms") {
            let rm = try r.mapping()
            try rm.rejectUnknownKeys(["cameras", "stereo"])
            var rms = RMSErrors(stereo: try rm.optional("stereo")?.double())
            if let c = rm.optional("cameras") {
                for (name, value) in try c.mapping().pairs {
                    guard names.contains(FrameName(name)) else { throw value.error("not one of the cameras") }
                    rms.cameras[name] = try value.double()
                }
            }
            p.rms = rms
        }
        return p
    }

    static func freeForm(_ field: YAMLField) throws -> FreeFormValue {
        switch field.node {
        case let .scalar(s):
            let quoted = !(s.style == .plain || s.style == .any)
            let isString = quoted || Resolver.default.resolveTag(of: Node.scalar(.init(s.string))) == .str
            return isString ? .string(s.string) : .scalar(s.string)
        case .sequence: return .list(try field.sequence().map(freeForm))
        case .mapping: return .mapping(try field.mapping().pairs.map { FreeFormEntry($0.0, try freeForm($0.1)) })
        case .alias: throw field.error("aliases are not supported")
        }
    }
}
