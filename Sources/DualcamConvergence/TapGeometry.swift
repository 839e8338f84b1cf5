import DualcamGeometry

/// Where a tap is scored and where it lands.
///
/// A tap in the canvas camera's image, or on the canvas, is scored on the
/// canvas as before (a window of ideal canvas pixels). A tap in the moving
/// camera's image is scored in *that* camera's view: the sweep runs with the
/// tapped camera as the fixed one (`ConvergenceGeometry` with the other
/// canvas), so the window covers what the user tapped whatever the distance;
/// the point's position in the other image depends on the distance, which
/// is what is being searched.
struct TapGeometry {
    /// The geometry of the sweep: its canvas (fixed camera) is the scored camera.
    let sweep: ConvergenceGeometry
    /// The tap in ideal pixels of the scored camera (the window's centre).
    let idealPixel: Vector2
    /// The tap in the scored camera's image (sensor pixels).
    let pixel: Vector2
    let tap: TapPoint

    /// `canvasGeometry` is the warp's geometry (its canvas is the output's).
    init(_ tap: TapPoint, canvasGeometry g: ConvergenceGeometry) throws {
        self.tap = tap
        let scored: ConvergenceCanvas
        switch tap.image {
        case .canvas: scored = g.canvas
        case .wide: scored = .wide
        case .tele: scored = .tele
        }
        sweep = scored == g.canvas ? g : g.withCanvas(scored)
        let model = sweep.fixedModel, size = sweep.canvasSize
        let p = tap.pixel
        let inside = p.x.isFinite && p.y.isFinite && p.x >= 0 && p.y >= 0
            && p.x <= Double(size.width - 1) && p.y <= Double(size.height - 1)
        if tap.image == .canvas {
            guard inside else {
                throw ConvergenceError.invalidOption("auto distance: point (\(p.x), \(p.y)) is outside the \(size) canvas")
            }
            idealPixel = p
            pixel = (try? model.distortion.distortPixel(p, intrinsics: model.intrinsics)) ?? p
        } else {
            guard inside else {
                throw ConvergenceError.invalidOption(
                    "auto distance: point (\(p.x), \(p.y)) is outside the \(size) \(tap.image.rawValue) image")
            }
            pixel = p
            do { idealPixel = try model.distortion.undistortPixel(p, intrinsics: model.intrinsics) } catch {
                throw ConvergenceError.invalidOption(
                    "auto distance: point (\(p.x), \(p.y)) of the \(tap.image.rawValue) image cannot be undistorted: \(error)")
            }
        }
    }

    /// The scored window: `side` pixels square around the ideal tap, moved
    /// inside the scored view.
    func window(side requested: Int) -> CanvasWindow {
        let size = sweep.canvasSize
        let side = min(requested, size.width, size.height)
        let cx = min(max(idealPixel.x, 0), Double(size.width - 1)), cy = min(max(idealPixel.y, 0), Double(size.height - 1))
        let x0 = min(max(0, Int((cx - Double(side) / 2 + 0.5).rounded(.down))), size.width - side)
        let y0 = min(max(0, Int((cy - Double(side) / 2 + 0.5).rounded(.down))), size.height - side)
        return CanvasWindow(x: x0, y: y0, width: side, height: side)
    }

    /// Where the tapped point lands at inverse distance q: in the other
    /// camera's image and on `canvas` (the warp's canvas camera).
    func landing(inverseDistance q: Double, canvas: ConvergenceCanvas) throws -> TapLanding {
        // M: ideal other-camera pixels -> ideal scored-camera pixels.
        let m = try sweep.canvasFromMoving(inverseDistance: q)
        let other = sweep.movingModel
        var otherIdeal: Vector2?
        if let inverse = m.inverse {
            let h = inverse * idealPixel.homogeneous
            if h.z > 0 { otherIdeal = Vector2(h.x / h.z, h.y / h.z) }
        }
        let otherPixel = otherIdeal.flatMap { try? other.distortion.distortPixel($0, intrinsics: other.intrinsics) }
        let size = other.size
        let inside = otherPixel.map { $0.x >= 0 && $0.y >= 0 && $0.x <= Double(size.width - 1) && $0.y <= Double(size.height - 1) } ?? false
        return TapLanding(tap: tap, camera: sweep.canvas, pixel: pixel, idealPixel: idealPixel,
                          otherCamera: sweep.canvas == .tele ? .wide : .tele, otherPixel: otherPixel, otherInside: inside,
                          canvasPixel: sweep.canvas == canvas ? idealPixel : otherIdeal)
    }
}

extension ConvergenceGeometry {
    /// The same pair with the other camera as the canvas.
    func withCanvas(_ canvas: ConvergenceCanvas) -> ConvergenceGeometry {
        ConvergenceGeometry(wide: wide, tele: tele, rotation: rotation, translationMetres: translationMetres,
                                canvas: canvas, wideCamera: wideCamera, teleCamera: teleCamera)
    }
}
