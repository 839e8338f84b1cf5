import DualcamGeometry
import DualcamSupport
import Foundation

/// Picks the intrinsics to use for one image buffer: the frame's own
/// (per-frame) intrinsics when it has them, else the calibration's, and in
/// both cases scaled to the buffer: K' = diag(W/Wref, H/Href, 1) K.
/// A buffer whose aspect ratio differs from the intrinsics' reference
/// dimensions is an error (`Intrinsics.scaled`): a crop is not a scale.
public enum IntrinsicsResolver {
    /// Where resolved intrinsics came from.
    public enum Source: String, Equatable, Sendable, Codable {
        case perFrame = "per-frame"
        case calibration
    }

    public struct Resolved: Equatable, Sendable {
        /// K for the buffer (referenceSize == the buffer size).
        public var intrinsics: Intrinsics
        public var source: Source
    }

    /// Per-frame `perFrame` if given, else `calibration`, scaled to `bufferSize`.
    /// `name` (e.g. the image path) prefixes an aspect-ratio error.
    public static func resolve(bufferSize: PixelSize, perFrame: Intrinsics?, calibration: Intrinsics,
                               name: String = "intrinsics") throws -> Resolved {
        let (k, source) = perFrame.map { ($0, Source.perFrame) } ?? (calibration, .calibration)
        do { return Resolved(intrinsics: try k.scaled(to: bufferSize), source: source) } catch {
            throw DualcamError.invalidValue(name: name, reason: "\(source.rawValue) \(error)")
        }
    }

    /// For an image file: its sidecar `<image>.json` if present, else the
    /// calibration's intrinsics of `camera` in `calibration`; scaled to `bufferSize`.
    public static func resolve(image: URL, bufferSize: PixelSize, camera: FrameName,
                               calibration: CalibrationFile) throws -> Resolved {
        let fallback: Intrinsics
        do { fallback = try calibration.rig.camera(camera).model.intrinsics } catch {
            throw DualcamError.invalidValue(name: "camera", reason: "\(error)")
        }
        return try resolve(bufferSize: bufferSize, perFrame: try FrameIntrinsicsSidecar.read(besides: image),
                           calibration: fallback, name: image.path)
    }

    /// For frame `frame` of a sequence with CSV records (K given at the
    /// frame's own buffer size): the record's K if the frame has one, else the
    /// calibration's intrinsics; scaled to `bufferSize`.
    public static func resolve(frame: Int, records: [FrameIntrinsicsRecord], bufferSize: PixelSize,
                               calibration: Intrinsics) throws -> Resolved {
        let perFrame: Intrinsics?
        do { perFrame = try records.record(forFrame: frame)?.intrinsics(bufferSize: bufferSize) } catch {
            throw DualcamError.invalidValue(name: "frame \(frame)", reason: "\(error)")
        }
        return try resolve(bufferSize: bufferSize, perFrame: perFrame, calibration: calibration, name: "frame \(frame)")
    }
}
