import DualcamOpenCV
import DualcamGeometry
import DualcamSupport
import Foundation

/// OpenCV's pinhole camera with 5-coefficient Brown-Conrady distortion, as a
/// plain value for fast reprojection in the solvers here (no throwing, no
/// frames): x = X/Z, y = Y/Z, r² = x² + y²,
/// x' = x (1 + k1 r² + k2 r⁴ + k3 r⁶) + 2 p1 x y + p2 (r² + 2 x²),
/// y' = y (1 + k1 r² + k2 r⁴ + k3 r⁶) + p1 (r² + 2 y²) + 2 p2 x y,
/// u = fx x' + s y' + cx, v = fy y' + cy (pixel centres at integers).
struct PinholeProjection: Sendable {
    var fx, fy, skew, cx, cy: Double
    var k1, k2, p1, p2, k3: Double

    init(_ p: CVCameraParameters) {
        let k = p.cameraMatrix, d = p.distortion
        fx = k[0]; skew = k[1]; cx = k[2]; fy = k[4]; cy = k[5]
        k1 = d[0]; k2 = d[1]; p1 = d[2]; p2 = d[3]; k3 = d[4]
    }

    func project(_ X: Vector3) -> Vector2 {
        let x = X.x / X.z, y = X.y / X.z
        let r2 = x * x + y * y
        let radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        let xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        let yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return Vector2(fx * xd + skew * yd + cx, fy * yd + cy)
    }
}

extension CVCameraParameters {
    /// OpenCV parameters of a dualcam camera model (Brown-Conrady with at most
    /// 5 coefficients, or none).
    init(_ model: CameraModel) throws {
        let k = model.intrinsics
        var d = [Double](repeating: 0, count: 5)
        switch model.distortion {
        case .none: break
        case let .brownConrady(b):
            guard !b.isRational else {
                throw DualcamError.invalidGeometry("the rational Brown-Conrady model (k4-k6) is not supported by dualcam calibrate")
            }
            d = [b.k1, b.k2, b.p1, b.p2, b.k3]
        case .radialLookupTable:
            throw DualcamError.invalidGeometry("radial lookup-table distortion has no OpenCV form; dualcam calibrate needs Brown-Conrady")
        }
        self.init(cameraMatrix: [k.fx, k.skew, k.cx, 0, k.fy, k.cy, 0, 0, 1], distortion: d)
    }

    /// The dualcam camera model of these parameters for images of `size`.
    func cameraModel(size: PixelSize) throws -> CameraModel {
        let k = cameraMatrix
        let intrinsics = try Intrinsics(fx: k[0], fy: k[4], skew: k[1], cx: k[2], cy: k[5], referenceSize: size)
        let b = try BrownConrady(coefficients: distortion)
        return CameraModel(intrinsics: intrinsics, distortion: b.isIdentity ? .none : .brownConrady(b))
    }
}

extension Matrix3 {
    init(_ rowMajor: [Double]) {
        self.init(rows: Vector3(rowMajor[0], rowMajor[1], rowMajor[2]), Vector3(rowMajor[3], rowMajor[4], rowMajor[5]),
                  Vector3(rowMajor[6], rowMajor[7], rowMajor[8]))
    }
}

extension Vector3 {
    init(_ values: [Double]) { self.init(values[0], values[1], values[2]) }
}
