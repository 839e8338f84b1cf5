import DualcamGeometry

/// The geometry of one wide/tele buffer pair: both camera models at their
/// buffer sizes, the rig's teleFromWide transform, and the canvas.
///
/// Conventions:
/// - Pixel coordinates follow OpenCV: pixel centres at integer coordinates,
///   origin at the top-left pixel's centre.
/// - Intrinsics are scaled to each buffer, K' = diag(W/Wref, H/Href, 1) K
///   (`Intrinsics.scaled(to:)`); a buffer whose aspect ratio differs from its
///   camera's reference is an error naming the camera.
/// - The convergence plane is the fronto-parallel plane Z = d in WIDE camera
///   coordinates (n = (0, 0, 1)), so
///   H_tele<-wide(d) = K_tele (R + t n^T / d) K_wide^-1 with
///   X_tele = R X_wide + t; d = inf gives K_tele R K_wide^-1. In terms of the
///   inverse distance q = 1/d it is linear before normalisation:
///   H(q) ~ K_tele R K_wide^-1 + q K_tele t n^T K_wide^-1.
/// - Homographies act on *ideal* pixels (distortion removed); lens distortion
///   is applied separately (`ConvergenceMaps`).
public struct ConvergenceGeometry: Hashable, Sendable {
    public let canvas: ConvergenceCanvas
    public let wideCamera: FrameName
    public let teleCamera: FrameName
    /// The wide camera at the wide buffer's size.
    public let wide: CameraModel
    /// The tele camera at the tele buffer's size.
    public let tele: CameraModel
    /// teleFromWide rotation R (row-major) and translation t in metres.
    public let rotation: Matrix3
    public let translationMetres: Vector3

    /// Builds the geometry for buffers of `wideSize` and `teleSize`.
    /// `wideIntrinsics` / `teleIntrinsics` override the rig's intrinsics (e.g.
    /// per-frame intrinsics); they are scaled to the buffer sizes too.
    public init(rig: Rig, wideSize: PixelSize, teleSize: PixelSize, canvas: ConvergenceCanvas = .tele,
                wideCamera: FrameName = .wide, teleCamera: FrameName = .tele,
                wideIntrinsics: Intrinsics? = nil, teleIntrinsics: Intrinsics? = nil) throws {
        func model(_ name: FrameName, _ size: PixelSize, _ override: Intrinsics?) throws -> CameraModel {
            let camera: RigCamera
            do { camera = try rig.camera(name) } catch {
                throw ConvergenceError.invalidInput("\(error)")
            }
            do {
                let k = try (override ?? camera.model.intrinsics).scaled(to: size)
                return CameraModel(intrinsics: k, distortion: camera.model.distortion)
            } catch {
                throw ConvergenceError.invalidInput("\(name) image \(size): \(error)")
            }
        }
        wide = try model(wideCamera, wideSize, wideIntrinsics)
        tele = try model(teleCamera, teleSize, teleIntrinsics)
        let transform: RigidTransform
        do { transform = try rig.transform(from: wideCamera, to: teleCamera, unit: .metre) } catch {
            throw ConvergenceError.invalidInput("\(error)")
        }
        rotation = transform.rotation.matrix
        translationMetres = transform.translation
        self.canvas = canvas
        self.wideCamera = wideCamera
        self.teleCamera = teleCamera
    }

    /// The parts as they are (no scaling).
    init(wide: CameraModel, tele: CameraModel, rotation: Matrix3, translationMetres: Vector3, canvas: ConvergenceCanvas,
         wideCamera: FrameName, teleCamera: FrameName) {
        self.wide = wide
        self.tele = tele
        self.rotation = rotation
        self.translationMetres = translationMetres
        self.canvas = canvas
        self.wideCamera = wideCamera
        self.teleCamera = teleCamera
    }

    public var wideSize: PixelSize { wide.size }
    public var teleSize: PixelSize { tele.size }

    /// The canvas: the tele buffer's size for `.tele`, the wide buffer's for `.wide`.
    public var canvasSize: PixelSize { canvas == .tele ? teleSize : wideSize }
    /// The camera whose view is the canvas (its image is only undistorted).
    public var fixedModel: CameraModel { canvas == .tele ? tele : wide }
    /// The camera whose image is warped into the canvas.
    public var movingModel: CameraModel { canvas == .tele ? wide : tele }
    public var fixedCamera: FrameName { canvas == .tele ? teleCamera : wideCamera }
    public var movingCamera: FrameName { canvas == .tele ? wideCamera : teleCamera }
    public var movingSize: PixelSize { movingModel.size }

    /// H_tele<-wide for the convergence plane at `distance` (formula in the
    /// type's doc), normalised so that H[2][2] = 1: a point of the plane seen
    /// at ideal wide pixel u_w is seen at ideal tele pixel u_t ~ H u_w.
    public func teleFromWide(at distance: Distance) throws -> Matrix3 {
        try teleFromWide(inverseDistance: distance.isInfinite ? 0 : 1 / distance.metres)
    }

    /// H_tele<-wide for the plane at inverse distance q = 1/d (1/m; q = 0 is infinity).
    public func teleFromWide(inverseDistance q: Double) throws -> Matrix3 {
        guard q.isFinite, q >= 0 else {
            throw ConvergenceError.invalidOption("inverse distance must be finite and non-negative, got \(q) 1/m")
        }
        let core = rotation + Matrix3.outer(translationMetres, Vector3(0, 0, 1)) * q
        let h = tele.intrinsics.matrix * core * wide.intrinsics.inverseMatrix
        guard h.isFinite, abs(h.determinant) > 1e-300 else {
            throw ConvergenceError.invalidOption(
                "the convergence plane at \(1 / q) m passes through a camera centre (singular homography)")
        }
        return h.normalizedHomography
    }

    /// The homography from ideal moving-image pixels to canvas pixels:
    /// H_tele<-wide for the `.tele` canvas, (H_tele<-wide)^-1 = H_wide<-tele
    /// for the `.wide` canvas.
    public func canvasFromMoving(at distance: Distance) throws -> Matrix3 {
        try canvasFromMoving(inverseDistance: distance.isInfinite ? 0 : 1 / distance.metres)
    }

    /// `canvasFromMoving` for the plane at inverse distance q = 1/d (1/m).
    public func canvasFromMoving(inverseDistance q: Double) throws -> Matrix3 {
        let h = try teleFromWide(inverseDistance: q)
        if canvas == .tele { return h }
        guard let inverse = h.inverse else {
            throw ConvergenceError.invalidOption("the convergence homography at \(1 / q) m is singular")
        }
        return inverse.normalizedHomography
    }

    /// Parallax per unit inverse distance at canvas pixel `p`: how far (canvas
    /// pixels) the moving image's content seen at `p` slides when q = 1/d grows
    /// by 1 /m, d/dq [M(q) M(q0)^-1 p] evaluated by a central difference
    /// around q0. About f_canvas * |t| in magnitude, along the baseline.
    public func parallaxPerInverseMetre(at p: Vector2, around q0: Double = 0.5) throws -> Vector2 {
        let h = 1e-3
        guard let movingFromCanvas = try canvasFromMoving(inverseDistance: q0).inverse else {
            throw ConvergenceError.invalidOption("the convergence homography at \(1 / q0) m is singular")
        }
        let m = movingFromCanvas.applyHomography(p)
        let a = try canvasFromMoving(inverseDistance: q0 + h).applyHomography(m)
        let b = try canvasFromMoving(inverseDistance: max(0, q0 - h)).applyHomography(m)
        return (a - b) / (q0 + h - max(0, q0 - h))
    }
}
