import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// An ideal rectified stereo pair and its ground-truth pixel disparity.
///
/// The rectified rig keeps the reference (`wide`) camera's pinhole intrinsics
/// for both cameras (no distortion, no skew, fx = fy), no rotation, and the
/// original baseline length B along x: X_tele = X_wide + (-B, 0, 0). A point
/// at depth Z then appears in tele at the same row, shifted left by the pixel
/// disparity d = f B / Z: x_tele = x_wide - d (the usual left/right convention).
public enum RectifiedStereo {
    /// The rectified counterpart of `rig` (wide and tele required).
    public static func rig(from rig: Rig) throws -> Rig {
        let wide = try rig.camera(.wide).model.intrinsics
        let baseline = try rig.transform(from: .wide, to: .tele, unit: .millimetre).baseline
        let f = (wide.fx + wide.fy) / 2
        let k = try Intrinsics(fx: f, fy: f, cx: wide.cx, cy: wide.cy, referenceSize: wide.referenceSize)
        return try Rig(reference: .wide,
                       cameras: [RigCamera(name: .wide, model: CameraModel(intrinsics: k)),
                                 RigCamera(name: .tele, model: CameraModel(intrinsics: k))],
                       extrinsics: [RigidTransform(rotation: .identity, translation: Vector3(-baseline, 0, 0),
                                                   unit: .millimetre, from: .wide, to: .tele)])
    }

    /// d = f B / Z (pixels) for each pixel of a depth map in metres; NaN where the depth is NaN.
    public static func pixelDisparity(depth: Image, focalPixels f: Double, baselineMetres b: Double) throws -> Image {
        guard f > 0, b > 0 else {
            throw DualcamError.invalidValue(name: "rectified pair", reason: "focal length and baseline must be positive")
        }
        let z = try depth.pixels(as: Float.self)
        return try Image(width: depth.width, height: depth.height, channels: 1,
                         pixels: z.map { $0.isFinite && $0 > 0 ? Float(f * b / Double($0)) : .nan })
    }

    /// The disparity map of the wide view of a rectified rig made by `rig(from:)`.
    public static func disparity(of wide: RenderedView, rectifiedRig: Rig) throws -> Image {
        let f = try rectifiedRig.camera(.wide).model.intrinsics.fx
        let b = try rectifiedRig.transform(from: .wide, to: .tele, unit: .metre).baseline
        return try pixelDisparity(depth: wide.depth, focalPixels: f, baselineMetres: b)
    }
}
