import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation
import Yams

/// A calibration test suite (`Calibration/suites/*.yaml`): a data source, a
/// pattern and expected value ranges, run by `dualcam calibrate test SUITE`.
///
/// ```yaml
/// name: synthetic-nominal
/// description: free text
/// pattern: chessboard:16x11:15mm
/// source:
///   kind: synthetic            # or opencv-list
///   rig: nominal               # or a calibration file, relative to the suite
///   corners: projected         # or rendered (rendered views, detected corners)
///   views: 20
///   held_back_views: 5         # for the verify.* quantities
///   corner_noise_px: 0.2       # projected: Gaussian noise per coordinate
///   render_noise: 2            # rendered: sensor noise sigma, 8-bit levels
///   seed: 7
///   size: 4032x3024
///   perturb_rotation_deg: 0.5  # for the verify_perturbed.* quantities
///   # opencv-list: list: /usr/share/doc/opencv-doc/examples/data/stereo_calib.xml
/// checks:
///   - {quantity: stereo_rms_px, max: 0.45}
///   - {quantity: baseline_mm, value: 3.34, tolerance: 0.03}
///   - {quantity: pairs_used, min: 13}
/// ```
/// Each check names a quantity (see `CalibrationSuiteRunner.quantities`) and
/// `min` and/or `max`, or `value` with `tolerance` (absolute).
public struct CalibrationSuite: Sendable {
    public struct Check: Sendable {
        public var quantity: String
        public var min: Double?
        public var max: Double?
    }

    public enum Source: Sendable {
        case synthetic(SyntheticBoardViews, rig: URL?, rendered: Bool, renderNoise: Double, perturbRotationDegrees: Double)
        case openCVList(URL)
    }

    public var name: String
    public var description: String?
    public var pattern: BoardTarget
    public var patternText: String
    public var source: Source
    public var checks: [Check]

    public static func read(_ url: URL) throws -> CalibrationSuite {
        let path = url.path
        let text = try YAMLBudget.readText(url)
        let root = try YAMLBudget.load(text, file: path)
        guard let map = root as? [String: Any] else { throw DualcamError.format(path: path, reason: "expected a mapping") }
        func fail(_ field: String, _ why: String) -> DualcamError { .format(path: path, reason: "\(field): \(why)") }
        func number(_ any: Any?, _ field: String) throws -> Double? {
            guard let any else { return nil }
            if let d = any as? Double { return d }
            if let i = any as? Int { return Double(i) }
            throw fail(field, "expected a number, got \(any)")
        }
        guard let patternText = map["pattern"] as? String else { throw fail("pattern", "missing (e.g. chessboard:9x6:25mm)") }
        let pattern: BoardTarget
        do { pattern = try BoardTarget(parsing: patternText) } catch { throw fail("pattern", "\(error)") }
        guard let source = map["source"] as? [String: Any], let kind = source["kind"] as? String else {
            throw fail("source.kind", "missing; expected synthetic or opencv-list")
        }
        let base = url.deletingLastPathComponent()
        func resolve(_ p: String) -> URL { p.hasPrefix("/") ? URL(fileURLWithPath: p) : base.appendingPathComponent(p) }
        let parsedSource: Source
        switch kind {
        case "synthetic":
            var s = SyntheticBoardViews()
            s.target = pattern
            func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
                guard let x = try number(source[key], "source.\(key)") else { return value }
                do { return try InputLimits.integer(x, name: "source.\(key)", in: range) } catch DualcamError.invalidValue(_, let why) {
                    throw fail("source.\(key)", why)
                }
            }
            // Views and held-back views together within InputLimits.maxViews.
            s.views = try integer("views", default: 20, in: 1...InputLimits.maxViews)
            s.heldBackViews = try integer("held_back_views", default: 0, in: 0...(InputLimits.maxViews - s.views))
            s.cornerNoisePixels = try number(source["corner_noise_px"], "source.corner_noise_px") ?? 0.2
            s.seed = UInt64(try integer("seed", default: 1, in: 0...Int(Int32.max)))
            s.maxTiltDegrees = try number(source["max_tilt_deg"], "source.max_tilt_deg") ?? 30
            if let size = source["size"] as? String {
                guard let parsed = PixelSize(parsing: size) else { throw fail("source.size", "expected WxH, got \(PrintableText.quoted(size))") }
                if let problem = InputLimits.imageSizeProblem(width: parsed.width, height: parsed.height) { throw fail("source.size", problem) }
                s.size = parsed
            }
            let rig = (source["rig"] as? String).flatMap { $0 == "nominal" ? nil : resolve($0) }
            let corners = source["corners"] as? String ?? "projected"
            guard ["projected", "rendered"].contains(corners) else { throw fail("source.corners", "expected projected or rendered") }
            parsedSource = .synthetic(s, rig: rig, rendered: corners == "rendered",
                                      renderNoise: try number(source["render_noise"], "source.render_noise") ?? 0,
                                      perturbRotationDegrees: try number(source["perturb_rotation_deg"], "source.perturb_rotation_deg") ?? 0)
        case "opencv-list":
            guard let list = source["list"] as? String else { throw fail("source.list", "missing (an OpenCV image list)") }
            parsedSource = .openCVList(resolve(list))
        default:
            throw fail("source.kind", "unknown kind '\(kind)'; expected synthetic or opencv-list")
        }
        guard let rawChecks = map["checks"] as? [Any], !rawChecks.isEmpty else { throw fail("checks", "missing or empty") }
        let checks: [Check] = try rawChecks.enumerated().map { index, raw in
            let field = "checks[\(index)]"
            guard let c = raw as? [String: Any], let quantity = c["quantity"] as? String else {
                throw fail(field, "expected a mapping with 'quantity'")
            }
            guard CalibrationSuiteRunner.isKnown(quantity) else {
                throw fail("\(field).quantity", "unknown quantity '\(quantity)'; expected one of \(CalibrationSuiteRunner.quantityNames.joined(separator: ", "))")
            }
            var check = Check(quantity: quantity, min: try number(c["min"], "\(field).min"), max: try number(c["max"], "\(field).max"))
            if let value = try number(c["value"], "\(field).value") {
                guard let tolerance = try number(c["tolerance"], "\(field).tolerance"), tolerance >= 0 else {
                    throw fail("\(field).tolerance", "required with 'value' (a number >= 0)")
                }
                check.min = value - tolerance
                check.max = value + tolerance
            }
            guard check.min != nil || check.max != nil else { throw fail(field, "needs min, max, or value with tolerance") }
            return check
        }
        return CalibrationSuite(name: map["name"] as? String ?? url.deletingPathExtension().lastPathComponent,
                                description: map["description"] as? String, pattern: pattern, patternText: patternText,
                                source: parsedSource, checks: checks)
    }
}
