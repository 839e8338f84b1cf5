import DualcamGeometry
import Foundation

/// What `dualcam calibration show` prints about a calibration, as a Codable
/// value (for `--json`) with a text rendering (`text`). Lengths in mm,
/// angles in degrees, intrinsics in pixels of each camera's image size.
public struct RigSummary: Equatable, Sendable, Codable {
    public struct Camera: Equatable, Sendable, Codable {
        public var name: String
        public var kind: CameraKind
        public var width: Int
        public var height: Int
        public var fx: Double
        public var fy: Double
        public var cx: Double
        public var cy: Double
        public var skew: Double
        /// 2 atan(W / 2 fx) and 2 atan(H / 2 fy), degrees.
        public var horizontalFieldOfViewDegrees: Double
        public var verticalFieldOfViewDegrees: Double
        /// `none`, `brown_conrady` or `radial_lut` (the file format's names).
        public var distortionModel: String
        /// Brown-Conrady coefficients k1 k2 p1 p2 k3 [k4 k5 k6]; radial_lut: sample count only.
        public var distortionCoefficients: [Double]?
        public var lookupTableSamples: Int?
    }

    /// A camera relative to the reference: `cameraFromReference`.
    public struct Pair: Equatable, Sendable, Codable {
        public var reference: String
        public var camera: String
        /// |t| in mm.
        public var baselineMillimetres: Double
        /// t in mm, X_camera = R X_reference + t.
        public var translationMillimetres: [Double]
        /// Angle of R in degrees.
        public var rotationDegrees: Double
        /// fx of the camera over fx of the reference (e.g. ~2 for a 2x tele).
        public var focalRatio: Double
    }

    public var reference: String
    public var cameras: [Camera]
    public var pairs: [Pair]
    public var provenance: Provenance

    public init(_ file: CalibrationFile) {
        let rig = file.rig
        reference = rig.reference.rawValue
        provenance = file.provenance
        cameras = rig.cameras.map { c in
            let k = c.model.intrinsics
            var model = "none", coefficients: [Double]? = nil, samples: Int? = nil
            switch c.model.distortion {
            case .none: break
            case let .brownConrady(b): model = "brown_conrady"; coefficients = b.coefficients
            case let .radialLookupTable(t): model = "radial_lut"; samples = t.magnification.count
            }
            return Camera(name: c.name.rawValue, kind: file.kind(of: c.name), width: c.size.width, height: c.size.height,
                          fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, skew: k.skew,
                          horizontalFieldOfViewDegrees: k.horizontalFieldOfViewDegrees,
                          verticalFieldOfViewDegrees: k.verticalFieldOfViewDegrees,
                          distortionModel: model, distortionCoefficients: coefficients, lookupTableSamples: samples)
        }
        // Cannot fail: a Rig always contains its reference and has extrinsics for every other camera.
        // swiftlint:disable force_try
        let referenceFx = try! rig.camera(rig.reference).model.intrinsics.fx
        pairs = rig.cameras.filter { $0.name != rig.reference }.map { c in
            let t = try! rig.cameraFromReference(c.name, unit: .millimetre)
            return Pair(reference: rig.reference.rawValue, camera: c.name.rawValue,
                        baselineMillimetres: t.baseline,
                        translationMillimetres: [t.translation.x, t.translation.y, t.translation.z],
                        rotationDegrees: t.rotation.angleDegrees,
                        focalRatio: c.model.intrinsics.fx / referenceFx)
        }
        // swiftlint:enable force_try
    }

    /// Human-readable rendering, one block per camera then one line per pair.
    public var text: String {
        func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
        var lines: [String] = []
        var origin = "source: \(provenance.source.rawValue)"
        if let tool = provenance.tool { origin += ", tool: \(tool)" }
        if let date = provenance.date { origin += ", date: \(date)" }
        lines.append(origin)
        if let file = provenance.originalFile { lines.append("imported from: \(file)") }
        if let notes = provenance.notes { lines.append("notes: \(notes)") }
        if let rms = provenance.rms {
            let parts = rms.cameras.keys.sorted().map { "\($0) \(f(rms.cameras[$0]!, 3)) px" }
                + (rms.stereo.map { ["stereo \(f($0, 3)) px"] } ?? [])
            lines.append("RMS reprojection error: " + parts.joined(separator: ", "))
        }
        lines.append("reference camera: \(reference)")
        for c in cameras {
            let kind = c.kind == .camera ? "" : " (\(c.kind.rawValue))"
            lines.append("camera \(c.name)\(kind): \(c.width)x\(c.height)")
            var k = "  fx \(f(c.fx)) fy \(f(c.fy)) cx \(f(c.cx)) cy \(f(c.cy))"
            if c.skew != 0 { k += " skew \(f(c.skew, 4))" }
            lines.append(k + " px")
            lines.append("  field of view \(f(c.horizontalFieldOfViewDegrees)) x \(f(c.verticalFieldOfViewDegrees)) deg (H x V)")
            var d = "  distortion: \(c.distortionModel)"
            if let co = c.distortionCoefficients { d += " [" + co.map { String(format: "%.6g", $0) }.joined(separator: ", ") + "]" }
            if let n = c.lookupTableSamples { d += " (\(n) samples)" }
            lines.append(d)
        }
        for p in pairs {
            let t = p.translationMillimetres.map { f($0, 3) }.joined(separator: ", ")
            lines.append("\(p.camera) from \(p.reference): baseline \(f(p.baselineMillimetres, 3)) mm (t = [\(t)] mm), "
                + "rotation \(f(p.rotationDegrees, 3)) deg, focal ratio \(f(p.focalRatio, 3))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Pretty-printed JSON with sorted snake_case keys (dualcam's JSON style).
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
