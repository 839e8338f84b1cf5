import DualcamOpenCV
import DualcamGeometry
import DualcamLinearAlgebra
import Foundation

/// Standard deviations of the stereo extrinsics (tele_from_wide).
///
/// cv::stereoCalibrate returns no uncertainties, so they are computed here
/// from the Jacobian J of the reprojection residuals at the solution, with
/// the intrinsics held fixed: parameters θ = (δω, T, and per view the board
/// pose in the wide camera, rvec_i, t_i), where R = exp(δω) R0; residuals are
/// the wide and tele reprojection errors of every corner. Covariance
/// Σ = σ² (JᵀJ)⁻¹ with σ² = |r|² / (m - p) (m residuals, p parameters); the
/// normal matrix is accumulated from J's sparse rows and inverted with LAPACK
/// (symmetric eigen-decomposition, DualcamLinearAlgebra). J is taken by
/// central differences. Because the intrinsics are held fixed, these are
/// lower bounds on the true uncertainties.
struct ExtrinsicUncertainty {
    /// Per-axis rotation standard deviation, degrees (of δω).
    var rotationDegrees: Vector3
    /// Translation standard deviation per component, mm.
    var translationMillimetres: Vector3
    /// Standard deviation of the baseline |T|, mm.
    var baselineMillimetres: Double

    struct View {
        var object: [Vector3]   // mm
        var wide: [Vector2]
        var tele: [Vector2]
        var rvec: Vector3
        var tvec: Vector3
    }

    static func compute(views: [View], wide: PinholeProjection, tele: PinholeProjection,
                        rotation: Matrix3, translation: Vector3) throws -> ExtrinsicUncertainty {
        let p = 6 + 6 * views.count
        var normal = [Double](repeating: 0, count: p * p)
        var sumSquares = 0.0, m = 0

        // Residuals of one view for its pose (rv, tv) and the extrinsics (dw, T).
        func residuals(_ v: View, rv: Vector3, tv: Vector3, dw: Vector3, t: Vector3) -> [Double] {
            let r = Rotation(rotationVector: rv).matrix
            let rs = Rotation(rotationVector: dw).matrix * rotation
            var out: [Double] = []
            out.reserveCapacity(4 * v.object.count)
            for (i, X) in v.object.enumerated() {
                let inWide = r * X + tv
                let a = wide.project(inWide) - v.wide[i]
                let b = tele.project(rs * inWide + t) - v.tele[i]
                out += [a.x, a.y, b.x, b.y]
            }
            return out
        }

        for (index, v) in views.enumerated() {
            let base = residuals(v, rv: v.rvec, tv: v.tvec, dw: .zero, t: translation)
            sumSquares += base.reduce(0) { $0 + $1 * $1 }
            m += base.count
            // Columns: 0..<6 extrinsics, then this view's 6 pose parameters.
            var columns: [[Double]] = []
            for k in 0..<12 {
                var plus = [v.rvec, v.tvec, Vector3.zero, translation], minus = plus
                let slot = k < 6 ? 2 + k / 3 : (k - 6) / 3
                let h = slot == 1 || slot == 3 ? 1e-4 : 1e-7
                plus[slot][k % 3] += h
                minus[slot][k % 3] -= h
                let rp = residuals(v, rv: plus[0], tv: plus[1], dw: plus[2], t: plus[3])
                let rm = residuals(v, rv: minus[0], tv: minus[1], dw: minus[2], t: minus[3])
                columns.append(zip(rp, rm).map { ($0 - $1) / (2 * h) })
            }
            let global = (0..<6).map { $0 } + (0..<6).map { 6 + 6 * index + $0 }
            for row in 0..<base.count {
                for a in 0..<12 {
                    let ja = columns[a][row]
                    guard ja != 0 else { continue }
                    for b in 0..<12 {
                        normal[global[a] * p + global[b]] += ja * columns[b][row]
                    }
                }
            }
        }
        let dof = max(1, m - p)
        let sigma2 = sumSquares / Double(dof)
        let (values, vectors) = try SymmetricEigen.decompose(try DenseMatrix(rows: p, columns: p, values: normal))
        // Covariance block of the 6 extrinsic parameters: V diag(1/λ) Vᵀ.
        var cov = [Double](repeating: 0, count: 36)
        let largest = values.last ?? 0
        for (k, lambda) in values.enumerated() where lambda > largest * 1e-14 {
            for a in 0..<6 {
                for b in 0..<6 { cov[a * 6 + b] += vectors[a, k] * vectors[b, k] / lambda }
            }
        }
        cov = cov.map { $0 * sigma2 }
        let u = translation / max(translation.norm, 1e-300)
        var baselineVariance = 0.0
        for a in 0..<3 {
            for b in 0..<3 { baselineVariance += u[a] * u[b] * cov[(3 + a) * 6 + 3 + b] }
        }
        return ExtrinsicUncertainty(
            rotationDegrees: Vector3(Angle.degrees(cov[0].squareRoot()), Angle.degrees(cov[7].squareRoot()),
                                     Angle.degrees(cov[14].squareRoot())),
            translationMillimetres: Vector3(cov[21].squareRoot(), cov[28].squareRoot(), cov[35].squareRoot()),
            baselineMillimetres: max(0, baselineVariance).squareRoot())
    }
}
