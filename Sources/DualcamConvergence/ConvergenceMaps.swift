import DualcamGeometry
import DualcamImaging

/// The remap tables that put a wide/tele pair on the canvas for one
/// convergence distance: one resampling pass per image, undistortion and
/// warp together.
///
/// For canvas pixel p (an ideal pixel of the canvas camera, see
/// `ConvergenceCanvas`) with M = `canvasFromMoving` (H_tele<-wide for the
/// `.tele` canvas, its inverse for `.wide`):
/// - moving image: sample the moving sensor at distort_moving(M^-1 p);
/// - fixed image: sample the canvas camera's own sensor at distort_fixed(p),
///   its undistortion; nil (no resampling at all) when that camera has no
///   distortion.
public struct ConvergenceMaps: Sendable {
    public let geometry: ConvergenceGeometry
    public let distance: Distance
    /// H_tele<-wide at the buffer sizes (ideal pixels).
    public let teleFromWide: Matrix3
    /// M: ideal moving pixels -> canvas pixels.
    public let canvasFromMoving: Matrix3
    /// Moving image -> canvas; its mask says where the moving image has data.
    public let moving: RemapTable
    /// Fixed image -> canvas (undistortion), nil when it is the identity.
    public let fixed: RemapTable?

    public var canvasSize: PixelSize { geometry.canvasSize }

    /// Builds the tables (formulas in the type's doc).
    public init(geometry: ConvergenceGeometry, distance: Distance) throws {
        self.geometry = geometry
        self.distance = distance
        teleFromWide = try geometry.teleFromWide(at: distance)
        canvasFromMoving = try geometry.canvasFromMoving(at: distance)
        guard let movingFromCanvas = canvasFromMoving.inverse else {
            throw ConvergenceError.invalidOption("the convergence homography at \(distance) is singular")
        }
        moving = try RemapTable.build(size: geometry.canvasSize, homography: movingFromCanvas,
                                      distorter: PixelDistorter(geometry.movingModel), sourceSize: geometry.movingSize)
        let fixedDistorter = PixelDistorter(geometry.fixedModel)
        fixed = fixedDistorter.isIdentity ? nil
            : try RemapTable.build(size: geometry.canvasSize, homography: .identity, distorter: fixedDistorter,
                                   sourceSize: geometry.canvasSize)
    }
}
