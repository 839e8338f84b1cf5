import DualcamOpenCV
import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import Foundation
import TestSupport
import XCTest

/// OpenCV's sample stereo pairs (opencv-doc: left01..right14, 13 pairs,
/// 640x480, a 9x6 chessboard held at 0.3-0.6 m): tap-to-converge on the
/// board, the regular pattern that made the plane sweep lock onto a false
/// peak. Truth: the board's pose in the wide (left) camera from its corners
/// (solvePnP), intersected with the tapped tele ray.
final class RealChessboardPairsTests: XCTestCase {

    struct Case {
        var name: String
        var wide: Image
        var tele: Image
        /// The board centre in the tele (right) image, sensor pixels.
        var teleTap: Vector2
        /// The board's Z in the wide frame along the tapped tele ray, metres.
        var truthMetres: Double
    }

    static func calibration() throws -> CalibrationFile { try CalibrationFile.read(OpenCVSamplePairs.calibration) }

    static func cases() throws -> [Case] {
        let rig = try calibration().rig
        let target = try BoardTarget(parsing: "chessboard:9x6:25mm")
        let detector = try PatternDetector(target: target)
        let wideModel = try rig.camera(.wide).model, teleModel = try rig.camera(.tele).model
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        let r = teleFromWide.rotation.matrix, t = teleFromWide.translation
        func parameters(_ m: CameraModel) -> CVCameraParameters {
            let k = m.intrinsics
            guard case let .brownConrady(b) = m.distortion else { fatalError() }
            return CVCameraParameters(cameraMatrix: [k.fx, k.skew, k.cx, 0, k.fy, k.cy, 0, 0, 1],
                                      distortion: [b.k1, b.k2, b.p1, b.p2, b.k3])
        }
        return try OpenCVSamplePairs.names.map { n in
            let wide = try ImageIO.read(OpenCVSamplePairs.left(n))
            let tele = try ImageIO.read(OpenCVSamplePairs.right(n))
            let w = try XCTUnwrap(try detector.detect(in: wide)), te = try XCTUnwrap(try detector.detect(in: tele))
            let object = w.cornerIndices.map { i -> [Double] in
                [Double(i % 9) * 0.025, Double(i / 9) * 0.025, 0] }
            let pose = try CVCalibrate.solvePnP(objectXYZ: object.flatMap { $0 }, imageXY: w.pixels.flatMap { [$0.x, $0.y] },
                                                camera: parameters(wideModel))
            let rotation = Rotation(rotationVector: Vector3(pose.rotationVector)).matrix
            let normal = rotation * Vector3(0, 0, 1), origin = Vector3(pose.translation)
            let c = normal.dot(origin)
            let tap = te.pixels.reduce(Vector2(0, 0), +) / Double(te.pixels.count)
            let ideal = try teleModel.distortion.undistortPixel(tap, intrinsics: teleModel.intrinsics)
            let ray = teleModel.intrinsics.inverseMatrix * Vector3(ideal.x, ideal.y, 1)
            // X_w = R^T (lambda ray - t) on the plane n . X_w = c.
            let rt = r.transposed
            let lambda = (c + normal.dot(rt * t)) / normal.dot(rt * ray)
            let point = rt * (ray * lambda - t)
            return Case(name: "left/right\(n)", wide: wide, tele: tele, teleTap: tap, truthMetres: point.z)
        }
    }

    static func peaks(_ curve: [ConvergenceScore]) -> [(q: Double, s: Double)] {
        var out: [(q: Double, s: Double)] = []
        for i in curve.indices {
            let l = i > 0 ? curve[i - 1].score : -2, r = i + 1 < curve.count ? curve[i + 1].score : -2
            if curve[i].score > l && curve[i].score >= r { out.append((curve[i].inverseDistance, curve[i].score)) }
        }
        return out.sorted { $0.s > $1.s }
    }

    /// Every pair: the answer within 1 % and not flagged, or flagged
    /// `ambiguous` with the truth (within 1 %) among the candidates; never a
    /// wrong distance without the flag. Before the ambiguity-aware search,
    /// pairs 01, 04 and 12 came out 128-144 % too far with a higher NCC
    /// (0.91-0.98) than most right answers.
    func testTapOnTheBoardIsRightOrFlagged() throws {
        let warp = try ConvergenceWarp(rig: try Self.calibration().rig)
        var flagged = 0
        for c in try Self.cases() {
            let result = try warp.autoDistance(wide: c.wide, tele: c.tele,
                                               options: AutoConvergenceOptions(tap: TapPoint(.tele, c.teleTap)))
            func error(_ d: Distance) -> Double { (d.metres - c.truthMetres) / c.truthMetres }
            let line = String(format: "%@: tele tap (%.0f, %.0f), truth %.4f m -> %.4f m (%+.2f %%), NCC %.3f, peak ratio %.3f, %@",
                              c.name, c.teleTap.x, c.teleTap.y, c.truthMetres, result.distance.metres,
                              100 * error(result.distance), result.score, result.peakRatio ?? .nan, result.confidence.rawValue)
                + (result.ambiguous ? ", candidates " + result.candidates.map { String(format: "%.4f m (%.3f)", $0.distance.metres, $0.score) }
                    .joined(separator: ", ") + String(format: ", period %.1f px", result.patternPeriodPixels ?? .nan) : "")
            print(line)
            XCTAssertEqual(result.tap?.camera, .tele)
            if result.ambiguous {
                flagged += 1
                XCTAssertTrue(result.candidates.contains { abs(error($0.distance)) <= 0.01 }, line)
                XCTAssertEqual(result.confidence, .low)
            } else {
                XCTAssertLessThanOrEqual(abs(error(result.distance)), 0.01, line)
            }
        }
        XCTAssertLessThanOrEqual(flagged, 7, "only the board views whose window's centre registers at a repeat are flagged (7 of 13)")
    }
}
