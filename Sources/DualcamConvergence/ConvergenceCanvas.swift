/// The view both images are registered into.
///
/// - `.tele`: the tele camera's field of view at the tele buffer's resolution.
///   The tele image is the *fixed* image (only undistorted, when the tele has
///   lens distortion); the wide image is the *moving* image, warped in with
///   H_tele<-wide.
/// - `.wide`: the wide camera's field of view at the wide buffer's resolution.
///   The wide image is fixed (undistorted when the wide has distortion); the
///   tele image moves, warped in with H_wide<-tele = (H_tele<-wide)^-1; it
///   covers only the middle of the canvas, the rest of the wide frame is
///   around it.
///
/// Canvas pixels are *ideal* (pinhole, distortion-free) pixels of the canvas
/// camera at its buffer size: the canvas camera's intrinsics, no distortion.
public enum ConvergenceCanvas: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case tele
    case wide
}
