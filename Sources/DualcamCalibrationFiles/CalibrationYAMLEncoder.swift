import DualcamGeometry
import Yams

/// CalibrationFile -> YAML text (format in Calibration/README.md).
enum CalibrationYAMLEncoder {
    typealias B = YAMLBuilder

    static func encode(_ file: CalibrationFile, comment: String?) throws -> String {
        let rig = file.rig
        var root: [(String, Node)] = [
            (CalibrationFile.versionKey, B.int(CalibrationFile.formatVersion)),
            ("reference", B.string(rig.reference.rawValue)),
            ("cameras", B.list(rig.cameras.map { camera($0, kind: file.kind(of: $0.name)) })),
        ]
        let others = rig.cameras.map(\.name).filter { $0 != rig.reference }
        if !others.isEmpty {
            root.append(("extrinsics", B.map(others.map { name in
                let t = rig.extrinsics[name]!
                return ("\(t.target.rawValue)_from_\(t.source.rawValue)", transform(t))
            })))
        }
        root.append(("provenance", provenance(file.provenance, order: rig.cameras.map(\.name.rawValue))))
        if !file.extra.isEmpty { root.append(("extra", freeForm(.mapping(file.extra)))) }
        return try B.document(B.map(root), comment: comment)
    }

    static func camera(_ c: RigCamera, kind: CameraKind) -> Node {
        let k = c.model.intrinsics
        return B.map([
            ("name", B.string(c.name.rawValue)),
            ("kind", B.plain(kind.rawValue)),
            ("image_size", size(c.size)),
            ("intrinsics", B.map([("fx", B.double(k.fx)), ("fy", B.double(k.fy)), ("skew", B.double(k.skew)),
                                  ("cx", B.double(k.cx)), ("cy", B.double(k.cy))])),
            ("distortion", distortion(c.model.distortion)),
        ])
    }

    static func size(_ s: PixelSize) -> Node {
        B.map([("width", B.int(s.width)), ("height", B.int(s.height))], flow: true)
    }

    static func distortion(_ d: LensDistortion) -> Node {
        switch d {
        case .none:
            return B.map([("model", B.plain("none"))], flow: true)
        case let .brownConrady(b):
            var pairs: [(String, Node)] = [("model", B.plain("brown_conrady"))]
            let names = ["k1", "k2", "p1", "p2", "k3", "k4", "k5", "k6"]
            for (name, value) in zip(names, b.coefficients) { pairs.append((name, B.double(value))) }
            return B.map(pairs)
        case let .radialLookupTable(t):
            var pairs: [(String, Node)] = [
                ("model", B.plain("radial_lut")),
                ("center", B.numbers([t.center.x, t.center.y])),
                ("reference_size", size(t.referenceSize)),
                ("magnification", B.numbers(t.magnification)),
            ]
            if let inv = t.inverseMagnification { pairs.append(("inverse_magnification", B.numbers(inv))) }
            return B.map(pairs)
        }
    }

    static func transform(_ t: RigidTransform) -> Node {
        B.map([
            ("rotation", B.numbers(t.rotation.matrix.rowMajor)),
            ("translation", B.numbers([t.translation.x, t.translation.y, t.translation.z])),
            ("unit", B.plain(t.unit.rawValue)),
        ])
    }

    static func provenance(_ p: Provenance, order: [String]) -> Node {
        var pairs: [(String, Node)] = [("source", B.plain(p.source.rawValue))]
        if let v = p.tool { pairs.append(("tool", B.string(v))) }
        if let v = p.date { pairs.append(("date", B.string(v))) }
        if let v = p.notes { pairs.append(("notes", B.string(v))) }
        if let v = p.originalFile { pairs.append(("original_file", B.string(v))) }
        if let rms = p.rms, !rms.isEmpty {
            var r: [(String, Node)] = []
            if !rms.cameras.isEmpty {
                let names = order.filter { rms.cameras[$0] != nil }
                    + rms.cameras.keys.filter { !order.contains($0) }.sorted()
                r.append(("cameras", B.map(names.map { ($0, B.double(rms.cameras[$0]!)) }, flow: true)))
            }
            if let s = rms.stereo { r.append(("stereo", B.double(s))) }
            pairs.append(("rms", B.map(r)))
        }
        return B.map(pairs)
    }

    static func freeForm(_ v: FreeFormValue) -> Node {
        switch v {
        case let .scalar(s): return B.plain(s)
        case let .string(s): return B.string(s)
        case let .list(items): return B.list(items.map(freeForm))
        case let .mapping(entries): return B.map(entries.map { ($0.key, freeForm($0.value)) })
        }
    }
}
