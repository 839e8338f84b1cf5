import DualcamGeometry
import DualcamSupport

/// How pixel disparity relates to depth on a rectified pair (Middlebury's
/// convention, calib.txt):
///
///     Z = k / (d + doffs),   d = k / Z - doffs,   k = f_px * B_m
///
/// with d the pixel disparity x_left - x_right, `offsetPixels` = doffs the
/// difference of the principal points cx_right - cx_left (0 when both
/// cameras share K, as in dualcam's own rectification, where d = k / Z) and
/// k = `pixelsPerInverseMetre`, all at one image size. Disparity then grows
/// with nearness; d + doffs <= 0 has no depth in front of the cameras.
public struct DisparityGeometry: Equatable, Sendable, Encodable {
    /// k = f_px * B_m at the map's size.
    public var pixelsPerInverseMetre: Double
    /// doffs = cx_right - cx_left in pixels at the map's size.
    public var offsetPixels: Double

    public init(pixelsPerInverseMetre: Double, offsetPixels: Double = 0) throws {
        guard pixelsPerInverseMetre.isFinite, pixelsPerInverseMetre > 0, offsetPixels.isFinite else {
            throw DualcamError.invalidValue(
                name: "disparity geometry",
                reason: "f_px * baseline_m = \(pixelsPerInverseMetre), doffs = \(offsetPixels) (expected a positive k and a finite doffs)")
        }
        self.pixelsPerInverseMetre = pixelsPerInverseMetre
        self.offsetPixels = offsetPixels
    }

    /// The geometry of a rectified two-camera rig (a Middlebury calib.txt
    /// import, or any calibration of an already rectified pair) at `size`:
    /// the reference camera is the left one, the other camera sits along +x.
    /// k = f_px B_m with f the reference's fx scaled to `size`, B the camera
    /// distance, doffs = cx_other - cx_reference. A rig whose cameras are
    /// rotated against each other (more than 0.05 degrees), whose focal
    /// lengths differ (more than 0.1 %) or whose baseline is not along x is
    /// not rectified and is refused: its pixel disparities have no such
    /// relation to depth.
    public init(rectifiedRig rig: Rig, size: PixelSize) throws {
        guard let other = rig.cameraNames.first(where: { $0 != rig.reference }) else {
            throw DualcamError.invalidValue(name: "calibration", reason: "needs two cameras to relate disparity to depth")
        }
        let left = try rig.camera(rig.reference).model.intrinsics.scaled(to: size)
        let right = try rig.camera(other).model.intrinsics.scaled(to: size)
        let rightFromLeft = try rig.transform(from: rig.reference, to: other, unit: .metre)
        let t = rightFromLeft.translation
        let angleDegrees = rightFromLeft.rotation.angle * 180 / Double.pi
        guard angleDegrees <= 0.05, abs(right.fx - left.fx) <= 1e-3 * left.fx,
              t.x < 0, abs(t.y) <= 0.01 * abs(t.x), abs(t.z) <= 0.01 * abs(t.x) else {
            throw DualcamError.invalidValue(
                name: "calibration",
                reason: "is not a rectified pair (cameras rotated \(String(format: "%.3g", angleDegrees)) deg, "
                    + "fx \(left.fx) vs \(right.fx), baseline (\(t.x), \(t.y), \(t.z)) m): pixel disparity needs one")
        }
        try self.init(pixelsPerInverseMetre: left.fx * abs(t.x), offsetPixels: right.cx - left.cx)
    }

    /// Z = k / (d + doffs); +inf at d + doffs = 0, NaN below (or for NaN d).
    @inlinable
    public func depthMetres(disparityPixels d: Double) -> Double {
        let shifted = d + offsetPixels
        if shifted == 0 { return .infinity }
        return shifted > 0 ? pixelsPerInverseMetre / shifted : .nan
    }

    /// d = k / Z - doffs; NaN for Z <= 0 or NaN, -doffs for Z = +inf.
    @inlinable
    public func disparityPixels(depthMetres z: Double) -> Double {
        z > 0 ? pixelsPerInverseMetre / z - offsetPixels : .nan
    }

    /// The same pair seen at `factor` times the resolution (k and doffs scale with x).
    public func scaled(by factor: Double) throws -> DisparityGeometry {
        try DisparityGeometry(pixelsPerInverseMetre: pixelsPerInverseMetre * factor, offsetPixels: offsetPixels * factor)
    }

    enum CodingKeys: String, CodingKey {
        case pixelsPerInverseMetre = "pixels_per_inverse_metre", offsetPixels = "doffs_px"
    }
}
