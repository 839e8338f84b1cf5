import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamLinearAlgebra
import DualcamSupport
import Foundation

/// Checks an existing wide/tele calibration against new views of a target.
///
/// Per pair: the board pose is found in each camera alone (cv::solvePnP with
/// the calibration's intrinsics: the per-camera reprojection RMS checks the
/// intrinsics), then one pose is fitted to both cameras at once with
/// tele_from_wide fixed (Gauss-Newton from the wide pose: the stereo
/// reprojection RMS checks the extrinsics), and the corners are rectified
/// with the calibration (cv::stereoRectify) to measure the epipolar error.
public struct CalibrationVerifier: Sendable {
    public var maxEpipolarPixels = 1.0
    public var maxReprojectionPixels = 1.0

    public init() {}

    public struct View: Codable, Sendable {
        public var view: String
        public var wideRMS: Double
        public var teleRMS: Double
        public var stereoRMS: Double
        public var epipolarErrorMean: Double
    }

    public struct Report: Codable, Sendable {
        public var pairsGiven: Int
        public var pairsUsed: Int
        public var dropped: [DroppedView]
        public var views: [View]
        /// RMS over all views of the joint (stereo) fit, px.
        public var reprojectionRMS: Double
        public var epipolarErrorMean: Double
        public var epipolarErrorMax: Double
        public var maxReprojection: Double
        public var maxEpipolar: Double
        public var passed: Bool
        /// What exceeded its threshold.
        public var failures: [String]

        public var text: String {
            func f(_ x: Double) -> String { String(format: "%.3f", x) }
            var lines = ["\(pairsUsed) of \(pairsGiven) pairs used"]
            for d in dropped { lines.append("  dropped \(d.view): \(d.reason)") }
            lines.append("view  wide RMS  tele RMS  stereo RMS  epipolar (px)")
            for v in views {
                lines.append("\(v.view)  \(f(v.wideRMS))  \(f(v.teleRMS))  \(f(v.stereoRMS))  \(f(v.epipolarErrorMean))")
            }
            lines.append("reprojection RMS \(f(reprojectionRMS)) px (max \(f(maxReprojection))), epipolar error mean \(f(epipolarErrorMean)) px, max \(f(epipolarErrorMax)) px (max mean \(f(maxEpipolar)))")
            lines.append(passed ? "PASS" : "FAIL: " + failures.joined(separator: "; "))
            return lines.joined(separator: "\n")
        }
    }

    public func verify(_ calibration: CalibrationFile, observations obs: CalibrationObservations) throws -> Report {
        let rig = calibration.rig
        let wideModel = try rig.camera(.wide).model.scaled(to: obs.wideSize)
        let teleModel = try rig.camera(.tele).model.scaled(to: obs.teleSize)
        let wide = try CVCameraParameters(wideModel), tele = try CVCameraParameters(teleModel)
        let extrinsics = try rig.transform(from: .wide, to: .tele, unit: .millimetre)
        let rotation = extrinsics.rotation.matrix, translation = extrinsics.translation
        let given = obs.pairs.count + obs.dropped.count
        guard !obs.pairs.isEmpty else {
            throw DualcamError.invalidValue(
                name: "verification input",
                reason: "no usable pair among \(given)" + (obs.dropped.first.map { " (first: \($0.view): \($0.reason))" } ?? ""))
        }
        let points = obs.cornerPointsMillimetres
        let wideP = PinholeProjection(wide), teleP = PinholeProjection(tele)
        let epipolar = try EpipolarCheck.errors(pairs: obs.pairs, camera1: wide, camera2: tele, size: obs.wideSize,
                                               rotation: rotation.rowMajor, translation: [translation.x, translation.y, translation.z])
        var views: [View] = [], sumSquares = 0.0, count = 0
        for (index, pair) in obs.pairs.enumerated() {
            let (w, t) = pair.wide.common(with: pair.tele)
            let object = w.cornerIndices.map { points[$0] }
            let flat = object.flatMap { [$0.x, $0.y, $0.z] }
            let wPose = try CVCalibrate.solvePnP(objectXYZ: flat, imageXY: w.pixels.flatMap { [$0.x, $0.y] }, camera: wide)
            let tPose = try CVCalibrate.solvePnP(objectXYZ: flat, imageXY: t.pixels.flatMap { [$0.x, $0.y] }, camera: tele)
            let wideRMS = Self.rms(object, w.pixels, wideP, Vector3(wPose.rotationVector), Vector3(wPose.translation))
            let teleRMS = Self.rms(object, t.pixels, teleP, Vector3(tPose.rotationVector), Vector3(tPose.translation))
            let joint = try Self.jointFit(object: object, wide: w.pixels, tele: t.pixels, wideP: wideP, teleP: teleP,
                                          rotation: rotation, translation: translation,
                                          start: (Vector3(wPose.rotationVector), Vector3(wPose.translation)))
            sumSquares += joint.sumSquares
            count += 2 * object.count
            views.append(View(view: pair.name, wideRMS: wideRMS, teleRMS: teleRMS,
                              stereoRMS: (joint.sumSquares / Double(2 * object.count)).squareRoot(),
                              epipolarErrorMean: epipolar.perPair[index]))
        }
        let reprojection = (sumSquares / Double(max(1, count))).squareRoot()
        var failures: [String] = []
        if reprojection > maxReprojectionPixels {
            failures.append(String(format: "reprojection RMS %.3f px exceeds %.3f px", reprojection, maxReprojectionPixels))
        }
        if epipolar.mean > maxEpipolarPixels {
            failures.append(String(format: "mean epipolar error %.3f px exceeds %.3f px", epipolar.mean, maxEpipolarPixels))
        }
        return Report(pairsGiven: given, pairsUsed: obs.pairs.count, dropped: obs.dropped, views: views,
                      reprojectionRMS: reprojection, epipolarErrorMean: epipolar.mean, epipolarErrorMax: epipolar.max,
                      maxReprojection: maxReprojectionPixels, maxEpipolar: maxEpipolarPixels,
                      passed: failures.isEmpty, failures: failures)
    }

    /// RMS (per corner, over x and y together) of the reprojection with pose (rv, t).
    static func rms(_ object: [Vector3], _ pixels: [Vector2], _ camera: PinholeProjection, _ rv: Vector3, _ t: Vector3) -> Double {
        let r = Rotation(rotationVector: rv).matrix
        let sum = zip(object, pixels).reduce(0.0) { acc, p in
            let d = camera.project(r * p.0 + t) - p.1
            return acc + d.x * d.x + d.y * d.y
        }
        return (sum / Double(max(1, object.count))).squareRoot()
    }

    /// Gauss-Newton over one board pose seen by both cameras, tele_from_wide
    /// fixed; returns the final sum of squared residuals (both cameras, px²).
    static func jointFit(object: [Vector3], wide: [Vector2], tele: [Vector2], wideP: PinholeProjection,
                         teleP: PinholeProjection, rotation: Matrix3, translation: Vector3,
                         start: (Vector3, Vector3)) throws -> (sumSquares: Double, pose: (Vector3, Vector3)) {
        func residuals(_ params: [Double]) -> [Double] {
            let r = Rotation(rotationVector: Vector3(params[0], params[1], params[2])).matrix
            let t = Vector3(params[3], params[4], params[5])
            var out: [Double] = []
            for (i, X) in object.enumerated() {
                let inWide = r * X + t
                let a = wideP.project(inWide) - wide[i], b = teleP.project(rotation * inWide + translation) - tele[i]
                out += [a.x, a.y, b.x, b.y]
            }
            return out
        }
        var params = [start.0.x, start.0.y, start.0.z, start.1.x, start.1.y, start.1.z]
        var current = residuals(params)
        var cost = current.reduce(0) { $0 + $1 * $1 }
        for _ in 0..<20 {
            var jacobian = [Double](repeating: 0, count: current.count * 6)
            for k in 0..<6 {
                let h = k < 3 ? 1e-7 : 1e-4
                var plus = params, minus = params
                plus[k] += h
                minus[k] -= h
                let rp = residuals(plus), rm = residuals(minus)
                for row in 0..<current.count { jacobian[row * 6 + k] = (rp[row] - rm[row]) / (2 * h) }
            }
            let step = try LeastSquares.solve(try DenseMatrix(rows: current.count, columns: 6, values: jacobian),
                                              current.map { -$0 })
            let candidate = zip(params, step).map { $0 + $1 }
            let next = residuals(candidate)
            let nextCost = next.reduce(0) { $0 + $1 * $1 }
            guard nextCost < cost else { break }
            let improvement = (cost - nextCost) / max(cost, 1e-300)
            params = candidate
            current = next
            cost = nextCost
            if improvement < 1e-10 { break }
        }
        return (cost, (Vector3(params[0], params[1], params[2]), Vector3(params[3], params[4], params[5])))
    }
}
