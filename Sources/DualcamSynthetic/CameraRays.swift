import DualcamGeometry
import Dispatch

/// A camera's inverse lens distortion precomputed on a regular grid.
///
/// Pixel convention (OpenCV's): pixel (x, y) has its centre at sensor
/// coordinates (x, y). For grid nodes s_ij = origin + step (i, j) the grid
/// stores the exact normalised ideal coordinates
/// n_ij = K^-1 undistortPixel(s_ij) (Newton, via `LensDistortion`); any sensor
/// position is then undistorted by bilinear interpolation of the four
/// surrounding nodes (linear extrapolation outside the grid). The grid covers
/// the image plus `margin` pixels on every side. Bilinear interpolation of a
/// smooth map has error <= step^2 / 8 * max|second derivative|: for the
/// nominal wide camera at 1920x1440 with the default step of 4 px the measured
/// maximum is 2.9e-4 px, below the 1e-3 px bound (`UndistortionGridTests`).
///
/// Without distortion no grid is stored and n = K^-1 s exactly. Nodes whose
/// undistortion fails (far outside the lens model's valid range) are NaN,
/// and so are the rays interpolated from them: such rays hit nothing.
public struct UndistortionGrid: Sendable {
    public let intrinsics: Intrinsics
    public let distortion: LensDistortion
    /// Node spacing in pixels.
    public let step: Double
    /// Sensor position of node (0, 0): (-margin, -margin).
    public let origin: Vector2
    let columns: Int
    let rows: Int
    /// Row-major nodes (normalised ideal coordinates); empty without distortion.
    let nodes: [Vector2]

    /// Builds the grid for `camera` at its own size (rows computed in parallel).
    public init(camera: CameraModel, step: Double = 4, margin: Double? = nil) throws {
        guard step.isFinite, step >= 0.25 else {
            throw RenderError.invalidOptions("undistortion grid step must be at least 0.25 px, got \(step)")
        }
        intrinsics = camera.intrinsics
        distortion = camera.distortion
        self.step = step
        let m = margin ?? (step + 2)
        origin = Vector2(-m, -m)
        guard !camera.distortion.isNone else {
            columns = 0; rows = 0; nodes = []
            return
        }
        let size = camera.size
        let cols = Int(((Double(size.width - 1) + 2 * m) / step).rounded(.up)) + 1
        let rws = Int(((Double(size.height - 1) + 2 * m) / step).rounded(.up)) + 1
        columns = cols; rows = rws
        var values = [Vector2](repeating: .zero, count: cols * rws)
        let (k, dist, o) = (camera.intrinsics, camera.distortion, origin)
        values.withUnsafeMutableBufferPointer { buffer in
            let out = buffer
            DispatchQueue.concurrentPerform(iterations: rws) { j in
                for i in 0..<cols {
                    let s = Vector2(o.x + step * Double(i), o.y + step * Double(j))
                    if let ideal = try? dist.undistortPixel(s, intrinsics: k) {
                        out[j * cols + i] = k.normalized(fromPixel: ideal)
                    } else {
                        out[j * cols + i] = Vector2(.nan, .nan)
                    }
                }
            }
        }
        nodes = values
    }

    /// Interpolated undistortion: the ideal pinhole pixel of a sensor position.
    public func idealPixel(_ sensor: Vector2) -> Vector2 {
        intrinsics.pixel(fromNormalized: nodes.withUnsafeBufferPointer { view($0).normalized(sensor.x, sensor.y).n })
    }

    /// Exact undistortion (Newton), for comparison: `LensDistortion.undistortPixel`.
    public func exactIdealPixel(_ sensor: Vector2) throws -> Vector2 {
        try distortion.undistortPixel(sensor, intrinsics: intrinsics)
    }

    /// A copyable view for the hot loop; valid while `nodes` is pinned.
    func view(_ nodes: UnsafeBufferPointer<Vector2>) -> GridView {
        let k = intrinsics
        return GridView(nodes: nodes, columns: columns, rows: rows, origin: origin, inverseStep: 1 / step,
                        fx: k.fx, fy: k.fy, skew: k.skew, cx: k.cx, cy: k.cy)
    }
}

/// The hot-path form of an `UndistortionGrid` (see there for the formulas).
struct GridView {
    let nodes: UnsafeBufferPointer<Vector2>
    let columns: Int
    let rows: Int
    let origin: Vector2
    let inverseStep: Double
    let fx, fy, skew, cx, cy: Double

    /// Normalised ideal coordinates of sensor position (x, y) and, for
    /// refinement, d n / d x and d n / d y of the interpolant (per pixel).
    @inline(__always)
    func normalized(_ x: Double, _ y: Double) -> (n: Vector2, dx: Vector2, dy: Vector2) {
        if nodes.isEmpty {
            let yn = (y - cy) / fy
            let xn = (x - cx - skew * yn) / fx
            return (Vector2(xn, yn), Vector2(1 / fx, 0), Vector2(-skew / (fx * fy), 1 / fy))
        }
        let gx = (x - origin.x) * inverseStep, gy = (y - origin.y) * inverseStep
        let i = min(max(NoiseHash.floorInt(gx), 0), columns - 2)
        let j = min(max(NoiseHash.floorInt(gy), 0), rows - 2)
        let fx = gx - Double(i), fy = gy - Double(j)
        let base = j * columns + i
        let n00 = nodes[base], n10 = nodes[base + 1]
        let n01 = nodes[base + columns], n11 = nodes[base + columns + 1]
        let top = n00 + (n10 - n00) * fx, bottom = n01 + (n11 - n01) * fx
        let ddx = ((n10 - n00) * (1 - fy) + (n11 - n01) * fy) * inverseStep
        return (top + (bottom - top) * fy, ddx, (bottom - top) * inverseStep)
    }
}

/// The rays of one rig camera in world coordinates (the rig's reference
/// camera frame, metres).
///
/// cameraFromWorld = rig.transform(from: rig.reference, to: camera, unit: .metre)
/// = [R | t]; the camera centre in world is C = -R^T t, and the ray through
/// sensor position s has direction d = R^T (xn, yn, 1) with
/// (xn, yn) = K^-1 undistortPixel(s). Because d_cam has z = 1, a hit at
/// C + t d has depth Z = t in this camera.
public struct CameraRays: Sendable {
    public let name: FrameName
    public let model: CameraModel
    public let cameraFromWorld: RigidTransform
    /// C = -R^T t.
    public let center: Vector3
    /// The columns of R^T (= the rows of R): d = c0 xn + c1 yn + c2.
    let c0, c1, c2: Vector3
    public let grid: UndistortionGrid

    public init(rig: Rig, camera name: FrameName, gridStep: Double = 4) throws {
        self.name = name
        model = try rig.camera(name).model
        cameraFromWorld = try rig.transform(from: rig.reference, to: name, unit: .metre)
        let r = cameraFromWorld.rotation.matrix
        (c0, c1, c2) = (r.row0, r.row1, r.row2)
        center = -(r.transposed * cameraFromWorld.translation)
        grid = try UndistortionGrid(camera: model, step: gridStep)
    }

    /// Image size of the camera.
    public var size: PixelSize { model.size }

    /// World direction through a sensor position, from the interpolated grid.
    public func direction(sensorX x: Double, sensorY y: Double) -> Vector3 {
        grid.nodes.withUnsafeBufferPointer { worldDirection(grid.view($0).normalized(x, y).n) }
    }

    /// World direction through a sensor position with the interpolated
    /// undistortion refined by one Newton-like step (see `refined`).
    public func refinedDirection(sensorX x: Double, sensorY y: Double) -> Vector3 {
        grid.nodes.withUnsafeBufferPointer { worldDirection(refined(grid.view($0), x, y)) }
    }

    /// World direction through a sensor position with exact (Newton) undistortion.
    public func exactDirection(_ sensor: Vector2) throws -> Vector3 {
        let ideal = try model.distortion.undistortPixel(sensor, intrinsics: model.intrinsics)
        return worldDirection(model.intrinsics.normalized(fromPixel: ideal))
    }

    /// d = R^T (xn, yn, 1).
    @inline(__always)
    func worldDirection(_ n: Vector2) -> Vector3 { c0 * n.x + c1 * n.y + c2 }

    /// The interpolated undistortion n0 of sensor position s = (x, y) refined
    /// by one step: with the forward model s0 = distortPixel(K n0) (exact and
    /// cheap) and the interpolant's Jacobian J = dn/ds, n1 = n0 - J (s0 - s).
    /// J is accurate to O(step), so the grid's error shrinks by a factor of
    /// roughly step * |d2n/ds2| (to ~1e-7 px for the nominal wide camera).
    @inline(__always)
    func refined(_ g: GridView, _ x: Double, _ y: Double) -> Vector2 {
        let (n0, dx, dy) = g.normalized(x, y)
        let k = model.intrinsics
        let s0: Vector2
        switch model.distortion {
        case .none:
            return n0
        case let .brownConrady(b):
            // BrownConrady.distort, inlined (see its doc for the formula).
            let x = n0.x, y = n0.y
            let r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2
            let radial = (1 + b.k1 * r2 + b.k2 * r4 + b.k3 * r6) / (1 + b.k4 * r2 + b.k5 * r4 + b.k6 * r6)
            let xd = x * radial + 2 * b.p1 * x * y + b.p2 * (r2 + 2 * x * x)
            let yd = y * radial + b.p1 * (r2 + 2 * y * y) + 2 * b.p2 * x * y
            s0 = Vector2(k.fx * xd + k.skew * yd + k.cx, k.fy * yd + k.cy)
        case .radialLookupTable:
            guard let s = try? model.distortion.distortPixel(k.pixel(fromNormalized: n0), intrinsics: k) else { return n0 }
            s0 = s
        }
        return n0 - dx * (s0.x - x) - dy * (s0.y - y)
    }
}
