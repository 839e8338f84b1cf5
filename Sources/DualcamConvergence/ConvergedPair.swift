import DualcamGeometry
import DualcamImaging

/// A wide/tele pair registered on a canvas at one convergence distance.
///
/// `wide` and `tele` are both `canvasSize`, same element and channels as the
/// inputs: on the `.tele` canvas `wide` is the warped (moving) image and
/// `tele` the tele image (undistorted if the tele has distortion); on the
/// `.wide` canvas `tele` is warped in and `wide` is the undistorted wide.
/// Points of the convergence plane sit at the same canvas pixel in both;
/// nearer and farther points are displaced along the baseline in opposite
/// directions.
public struct ConvergedPair: Sendable {
    public let canvas: ConvergenceCanvas
    public let distance: Distance
    /// H_tele<-wide at the buffer sizes (ideal pixels), for reports.
    public let teleFromWide: Matrix3
    /// Ideal moving pixels -> canvas pixels (see `ConvergenceMaps`).
    public let canvasFromMoving: Matrix3
    /// The wide image on the canvas.
    public let wide: Image
    /// The tele image on the canvas.
    public let tele: Image
    /// uint8 1-channel, 255 where the moving image has data (its bilinear
    /// sample lies inside the moving image), 0 elsewhere (those pixels of the
    /// moving image are black).
    public let movingValid: Image
    /// True when the moving image covers the whole canvas.
    public let movingFullyValid: Bool

    public var canvasSize: PixelSize { PixelSize(width: wide.width, height: wide.height) }
    /// The image warped into the canvas (`wide` on the `.tele` canvas, `tele` on `.wide`).
    public var moving: Image { canvas == .tele ? wide : tele }
    /// The canvas camera's own image (`tele` on `.tele`, `wide` on `.wide`).
    public var fixed: Image { canvas == .tele ? tele : wide }
}
