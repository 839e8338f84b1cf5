import DualcamGeometry
import DualcamImaging

/// A rectangle of canvas pixels: columns x..<x+width, rows y..<y+height.
public struct CanvasWindow: Equatable, Hashable, Sendable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One resolution level of the plane sweep: the pair as float32 grey images,
/// resized (pixel-area averaging) and undistorted once, so that scoring a
/// candidate distance is a single perspective warp of the moving image into
/// the scoring window plus an NCC.
///
/// Pixel maps (A = `PixelScaling`, x_level = s (x + 0.5) - 0.5):
/// - fixed level image: ideal canvas pixels at scale `canvasScaling`; its
///   pixel c_l is the full-size canvas pixel A_c^-1 c_l;
/// - moving level image: ideal moving pixels at scale `movingScaling`;
/// - the moving image seen in the canvas for inverse distance q is sampled,
///   for window pixel x (window origin o in level pixels), at
///   A_m M(q)^-1 A_c^-1 (x + o), M = `canvasFromMoving`.
/// Pixels with no data are NaN (outside the sensor after undistortion, or
/// outside the moving image) and are left out of the score.
struct SweepLevel {
    let geometry: ConvergenceGeometry
    let canvasScaling: PixelScaling
    let movingScaling: PixelScaling
    let window: CanvasWindow
    /// The fixed image's window, row-major.
    let fixedWindow: [Float]
    /// The moving image at this level, undistorted (ideal pixels), NaN outside.
    let moving: Image

    static let noData = ImageOps.Border.constant(value: .nan)

    /// `canvasScale` and `movingScale` are the resize factors of the canvas
    /// and the moving image; `window` is in full-size canvas pixels (nil: the
    /// whole canvas).
    init(geometry g: ConvergenceGeometry, fixed fixedImage: Image, moving movingImage: Image,
         canvasScale: Double, movingScale: Double, window fullWindow: CanvasWindow?) throws {
        geometry = g
        func levelSize(_ s: PixelSize, _ scale: Double) -> PixelSize {
            PixelSize(width: max(8, Int((Double(s.width) * scale).rounded())),
                      height: max(8, Int((Double(s.height) * scale).rounded())))
        }
        let canvasLevel = levelSize(g.canvasSize, canvasScale)
        let movingLevel = levelSize(g.movingSize, movingScale)
        canvasScaling = PixelScaling(from: g.canvasSize, to: canvasLevel)
        movingScaling = PixelScaling(from: g.movingSize, to: movingLevel)

        let fixedLevel = try Self.idealGrey(fixedImage, model: g.fixedModel, level: canvasLevel, scaling: canvasScaling)
        moving = try Self.idealGrey(movingImage, model: g.movingModel, level: movingLevel, scaling: movingScaling)

        // The window in level pixels: centre mapped by A_c, side scaled, clipped.
        let w: CanvasWindow
        if let full = fullWindow {
            let cx = canvasScaling.sx * (Double(full.x) + Double(full.width) / 2) - 0.5
            let cy = canvasScaling.sy * (Double(full.y) + Double(full.height) / 2) - 0.5
            let side = (max(8, Int((Double(full.width) * canvasScaling.sx).rounded())),
                        max(8, Int((Double(full.height) * canvasScaling.sy).rounded())))
            let x0 = max(0, Int((cx + 0.5 - Double(side.0) / 2).rounded()))
            let y0 = max(0, Int((cy + 0.5 - Double(side.1) / 2).rounded()))
            w = CanvasWindow(x: x0, y: y0, width: min(side.0, canvasLevel.width - x0),
                             height: min(side.1, canvasLevel.height - y0))
        } else {
            w = CanvasWindow(x: 0, y: 0, width: canvasLevel.width, height: canvasLevel.height)
        }
        window = w
        fixedWindow = try fixedLevel.cropped(x: w.x, y: w.y, width: w.width, height: w.height).pixels(as: Float.self)
    }

    /// `image` as float32 grey (luma), resized to `level` by pixel-area
    /// averaging, then undistorted into ideal pixels of that level when the
    /// camera has distortion (NaN where there is no data).
    static func idealGrey(_ image: Image, model: CameraModel, level: PixelSize, scaling: PixelScaling) throws -> Image {
        var grey = try ImageOps.convertToGray(image.converted(to: .float32))
        if level.width != grey.width || level.height != grey.height {
            grey = try ImageOps.resize(grey, width: level.width, height: level.height, interpolation: .area)
        }
        let distorter = PixelDistorter(model)
        if distorter.isIdentity { return grey }
        // Ideal level pixel -> ideal full pixel (A^-1) -> sensor full pixel -> sensor level pixel (A).
        let table = try RemapTable.build(size: level, homography: scaling.inverseMatrix, distorter: distorter,
                                         post: scaling, sourceSize: level)
        return try table.apply(grey, border: noData)
    }

    /// The NCC between the fixed window and the moving image warped for
    /// inverse distance `q`, and the number of pixels it used.
    func score(inverseDistance q: Double) throws -> (score: Double, count: Int) {
        let m = try geometry.canvasFromMoving(inverseDistance: q)
        guard let movingFromCanvas = m.inverse else { return (-1, 0) }
        let origin = Matrix3(rows: Vector3(1, 0, Double(window.x)), Vector3(0, 1, Double(window.y)), Vector3(0, 0, 1))
        let h = movingScaling.matrix * movingFromCanvas * canvasScaling.inverseMatrix * origin
        let warped = try ImageOps.warpPerspective(moving, homography: h.normalizedHomography.rowMajor,
                                                  width: window.width, height: window.height,
                                                  border: Self.noData, inverseMap: true)
        let values = try warped.pixels(as: Float.self)
        return values.withUnsafeBufferPointer { a in
            fixedWindow.withUnsafeBufferPointer { b in normalizedCrossCorrelation(a, b) }
        }
    }
}
