import DualcamGeometry
import DualcamSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One common rectified camera pair for a wide/tele (or same-lens) rig.
///
/// Both rectified cameras share the pinhole intrinsics `intrinsics` (fx = fy = f,
/// no skew, no distortion) and one orientation; the baseline lies along +x
/// from the left to the right camera:
///
///     X_rect_c = R_c X_c              (R_c = `rotation(of: c)`, rectFromCamera)
///     X_rect_right = X_rect_left - (B, 0, 0)
///
/// so a point at rectified depth Z is seen at x_right = x_left - d with
/// d = f B / Z (`pixelsPerInverseMetre` = f B).
///
/// Rotations as in Bouguet's method (OpenCV stereoRectify): each camera turns
/// by half the relative rotation (H = rot(r/2) for teleFromWide = rot(r): wide
/// by H, tele by H^T, after which they are parallel), then both by R_align whose
/// first row is the baseline direction (sign chosen so x points from the left
/// to the right camera), second row z x e1 normalised, third e1 x e2.
///
/// Focal length and window are chosen so the narrower camera is not wasted:
/// f = `scale` x the narrower camera's focal length at its buffer size, and the
/// window is the overlap of both cameras' rectified footprints (for a wide/tele
/// rig: the tele field of view) plus `margin` columns on each side, so matches
/// up to the largest disparity searched stay inside the image.
public struct StereoRectification: Sendable, Equatable {
    /// The common rectified intrinsics; `intrinsics.referenceSize` is the rectified image size.
    public let intrinsics: Intrinsics
    /// Baseline length B in metres.
    public let baselineMetres: Double
    /// The camera in the left position (the other is right).
    public let left: FrameName
    public let right: FrameName
    /// The camera models at the buffer sizes used.
    public let wide: CameraModel
    public let tele: CameraModel
    /// rectFromWide, rectFromTele.
    public let wideRotation: Rotation
    public let teleRotation: Rotation
    /// The overlap window in rectified normalised coordinates (x/z, y/z): min and max.
    public let overlapMin: Vector2
    public let overlapMax: Vector2
    /// Columns added on each side of the overlap for the disparity search.
    public let margin: Int

    /// Rectified image size.
    public var size: PixelSize { intrinsics.referenceSize }
    /// f B: pixel disparity = pixelsPerInverseMetre / Z_rect.
    public var pixelsPerInverseMetre: Double { intrinsics.fx * baselineMetres }

    /// rectFromCamera for `camera` (wide or tele).
    public func rotation(of camera: FrameName) throws -> Rotation {
        switch camera {
        case .wide: return wideRotation
        case .tele: return teleRotation
        default: throw DualcamError.invalidValue(name: "camera '\(camera)'", reason: "expected wide or tele")
        }
    }

    /// The camera model of `camera` (wide or tele).
    public func model(of camera: FrameName) throws -> CameraModel {
        switch camera {
        case .wide: return wide
        case .tele: return tele
        default: throw DualcamError.invalidValue(name: "camera '\(camera)'", reason: "expected wide or tele")
        }
    }

    /// The camera whose rectified footprint is narrower (tele on a wide/tele
    /// rig); the left camera when both are the same within 1 %.
    public let narrower: FrameName

    /// Rectifies `rig`'s wide/tele pair with the given models (intrinsics at
    /// the buffer sizes, e.g. per-frame). `margin(f)` gives the extra columns
    /// for a rectified focal length f (pixels), e.g. the largest disparity searched.
    public init(rig: Rig, wide: CameraModel, tele: CameraModel, scale: Double,
                margin: (Double) throws -> Int) throws {
        guard scale > 0, scale.isFinite else {
            throw DualcamError.invalidValue(name: "rectification scale", reason: "expected a positive number, got \(scale)")
        }
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let b = teleFromWide.translation.norm
        guard b > Self.minimumBaselineMetres else {
            throw DualcamError.invalidGeometry("the calibration's wide and tele cameras have no baseline; stereo depth needs one")
        }
        let half = Rotation(rotationVector: teleFromWide.rotation.rotationVector / 2)
        // Direction from the wide to the tele centre in the half-rotated frames: X_tele' = X_wide' + H^T t.
        let u = -(half.inverse * teleFromWide.translation) / b
        let e1 = u.x >= 0 ? u : -u
        let e2raw = Vector3(-e1.y, e1.x, 0)
        guard e2raw.norm > Self.minimumBaselineTilt else {
            throw DualcamError.invalidGeometry("the baseline points along the optical axis; the pair cannot be rectified")
        }
        let e2 = e2raw / e2raw.norm
        let e3 = e1.cross(e2)
        let align = try Rotation(Matrix3(rows: e1, e2, e3))
        let rw = align * half, rt = align * half.inverse
        left = u.x >= 0 ? .wide : .tele
        right = left == .wide ? .tele : .wide
        self.wide = wide
        self.tele = tele
        wideRotation = rw
        teleRotation = rt
        baselineMetres = b

        let wideBox = try Self.footprint(wide, rw, camera: "wide")
        let teleBox = try Self.footprint(tele, rt, camera: "tele")
        let lo = Vector2(max(wideBox.min.x, teleBox.min.x), max(wideBox.min.y, teleBox.min.y))
        let hi = Vector2(min(wideBox.max.x, teleBox.max.x), min(wideBox.max.y, teleBox.max.y))
        guard hi.x - lo.x > Self.minimumOverlap, hi.y - lo.y > Self.minimumOverlap else {
            throw DualcamError.invalidGeometry("the calibration's wide and tele cameras do not overlap; no stereo depth is possible")
        }
        overlapMin = lo
        overlapMax = hi
        let wideWidth = wideBox.max.x - wideBox.min.x, teleWidth = teleBox.max.x - teleBox.min.x
        if abs(wideWidth - teleWidth) <= Self.sameFieldOfView * max(wideWidth, teleWidth) {
            narrower = left
        } else {
            narrower = teleWidth < wideWidth ? .tele : .wide
        }
        let k = (narrower == .tele ? tele : wide).intrinsics
        let f = scale * (k.fx + k.fy) / 2
        let m = try margin(f)
        self.margin = m
        let width = Int((f * (hi.x - lo.x)).rounded(.up)) + 1 + 2 * m
        let height = Int((f * (hi.y - lo.y)).rounded(.up)) + 1
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw DualcamError.invalidValue(name: "rectified size \(width)x\(height)", reason: "too large; expected at most \(Self.maximumSide) per side")
        }
        intrinsics = try Intrinsics(fx: f, fy: f, cx: -f * lo.x + Double(m), cy: -f * lo.y,
                                    referenceSize: PixelSize(width: width, height: height))
    }

    /// Cameras closer than this (metres) have no baseline to triangulate with.
    static let minimumBaselineMetres = 1e-9
    /// The baseline's component across the optical axis (unit baseline)
    /// must exceed this, or no rectified row direction exists.
    static let minimumBaselineTilt = 1e-6
    /// The footprints' overlap in normalised coordinates must exceed this on
    /// both axes (a pixel at a 1000-px focal length).
    static let minimumOverlap = 1e-3
    /// Fields of view within this fraction of each other count as the same
    /// (then the left camera is the narrower): so small a difference is
    /// calibration noise, not a narrower camera.
    static let sameFieldOfView = 0.01
    /// The rectified image is at most this many pixels per side: memory and
    /// time stay bounded when a calibration asks for an absurd size.
    static let maximumSide = 8192
    /// Samples per image edge for the footprint: distortion bends the border
    /// between them by far less than a pixel.
    static let footprintSamples = 32
    /// A border ray must point forward: its z at least this fraction of its
    /// length (within about 87 degrees of the rectified axis), or the
    /// footprint is unbounded.
    static let minimumForwardCosine = 0.05

    /// Bounding box of a camera's image border in rectified normalised
    /// coordinates (`footprintSamples` per edge, undistorted exactly).
    static func footprint(_ model: CameraModel, _ rotation: Rotation, camera: String) throws -> (min: Vector2, max: Vector2) {
        let k = model.intrinsics
        let w = Double(k.referenceSize.width) - 0.5, h = Double(k.referenceSize.height) - 0.5
        var lo = Vector2(Double.infinity, .infinity), hi = Vector2(-Double.infinity, -.infinity)
        let n = Self.footprintSamples
        for i in 0...n {
            let t = Double(i) / Double(n)
            for p in [Vector2(-0.5 + t * (w + 0.5), -0.5), Vector2(-0.5 + t * (w + 0.5), h),
                      Vector2(-0.5, -0.5 + t * (h + 0.5)), Vector2(w, -0.5 + t * (h + 0.5))] {
                let ideal = try model.distortion.undistortPixel(p, intrinsics: k)
                let q = k.normalized(fromPixel: ideal)
                let ray = rotation * Vector3(q.x, q.y, 1)
                guard ray.z > Self.minimumForwardCosine * ray.norm else {
                    throw DualcamError.invalidGeometry(
                        "the \(camera) camera looks more than 87 degrees away from the rectified direction; the cameras do not overlap")
                }
                let r = Vector2(ray.x / ray.z, ray.y / ray.z)
                lo = Vector2(min(lo.x, r.x), min(lo.y, r.y))
                hi = Vector2(max(hi.x, r.x), max(hi.y, r.y))
            }
        }
        return (lo, hi)
    }
}
