import DualcamCalibrationFiles
import DualcamCalibrationSolver
import DualcamGeometry
import DualcamImaging
import DualcamOpenCV
import Foundation
import TestSupport
import XCTest
@testable import DualcamStereo

/// Depth on OpenCV's 13 sample stereo pairs (opencv-doc `left01..right14.jpg`:
/// a real 640x480 same-lens rig, 83 mm baseline, a 9x6 chessboard of 25 mm
/// squares held 0.27-0.40 m away in front of a room): the real pairs behind
/// issue 17's first two faults (uniform patches filled with gross errors,
/// the regular pattern matched a period off). Truth: the board's plane, posed
/// by solvePnP on its corners in the reference image, intersected with each
/// output pixel's ray; scored over the board's 10x7 squares.
final class RealChessboardDepthTests: XCTestCase {
    static let data = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")
    static let names = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]
    static let square = 0.025

    /// The board's truth at the output pixels of one pair.
    struct BoardTruth {
        /// Depth along the reference axis, metres; NaN off the board.
        var depth: [Float]
        /// On the board, in the middle 60 % of a square (a uniform patch).
        var patch: [Bool]
        /// The output pixel nearest each square's centre (70 squares), -1 if none.
        var centres: [Int]
    }

    struct PairRun {
        var name: String
        var truth: BoardTruth
        var unfiltered: [Float]
        var filtered: [Float]
        var confidence: [Float]
        var filteredDisparity: [Float]
        var measuredDisparity: [Float]
    }

    static func calibration() throws -> CalibrationFile {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Calibration/datasets/opencv-stereo-sample.yaml")
        return try CalibrationFile.read(url)
    }

    static func truth(for result: StereoDepthResult, image: Image, model: CameraModel) throws -> BoardTruth {
        let target = try BoardTarget(parsing: "chessboard:9x6:25mm")
        let observation = try XCTUnwrap(try PatternDetector(target: target).detect(in: image))
        let object = observation.cornerIndices.flatMap { i -> [Double] in [Double(i % 9) * square, Double(i / 9) * square, 0] }
        let k = model.intrinsics
        guard case let .brownConrady(b) = model.distortion else { throw XCTSkip("expected Brown-Conrady") }
        let camera = CVCameraParameters(cameraMatrix: [k.fx, k.skew, k.cx, 0, k.fy, k.cy, 0, 0, 1],
                                        distortion: [b.k1, b.k2, b.p1, b.p2, b.k3])
        let pose = try CVCalibrate.solvePnP(objectXYZ: object, imageXY: observation.pixels.flatMap { [$0.x, $0.y] },
                                            camera: camera)
        let rotation = Rotation(rotationVector: Vector3(pose.rotationVector)).matrix
        let origin = Vector3(pose.translation), normal = rotation * Vector3(0, 0, 1)
        let c = normal.dot(origin)
        let out = result.intrinsics
        let (w, h) = (result.size.width, result.size.height)
        var depth = [Float](repeating: .nan, count: w * h), patch = [Bool](repeating: false, count: w * h)
        var centres = [Int](repeating: -1, count: 70), best = [Double](repeating: .infinity, count: 70)
        let rt = rotation.transposed
        for y in 0..<h {
            for x in 0..<w {
                let ideal = try model.distortion.undistortPixel(Vector2(Double(x), Double(y)), intrinsics: out)
                let ray = out.inverseMatrix * Vector3(ideal.x, ideal.y, 1)
                let lambda = c / normal.dot(ray)
                guard lambda > 0 else { continue }
                let onBoard = rt * (ray * lambda - origin)
                let u = onBoard.x / square, v = onBoard.y / square
                guard u > -1, u < 9, v > -1, v < 6 else { continue }
                let i = y * w + x
                depth[i] = Float(ray.z * lambda)
                let fu = u - u.rounded(.down), fv = v - v.rounded(.down)
                patch[i] = fu > 0.2 && fu < 0.8 && fv > 0.2 && fv < 0.8
                let sq = (Int(v.rounded(.down)) + 1) * 10 + Int(u.rounded(.down)) + 1
                let d = (fu - 0.5) * (fu - 0.5) + (fv - 0.5) * (fv - 0.5)
                if d < best[sq] { best[sq] = d; centres[sq] = i }
            }
        }
        return BoardTruth(depth: depth, patch: patch, centres: centres)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: [PairRun]?

    static func runs() throws -> [PairRun] {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let rig = try calibration().rig
        var out: [PairRun] = []
        for n in names {
            let wide = try ImageIO.read(data.appendingPathComponent("left\(n).jpg"))
            let tele = try ImageIO.read(data.appendingPathComponent("right\(n).jpg"))
            var options = StereoDepthOptions()
            options.minDepthMetres = 0.2
            options.filtered = false
            let size = PixelSize(width: wide.width, height: wide.height)
            let unfilteredEstimator = try StereoDepthEstimator(rig: rig, wideSize: size, teleSize: size, options: options)
            let unfiltered = try unfilteredEstimator.estimate(wide: wide, tele: tele)
            options.filtered = true
            let filtered = try StereoDepthEstimator(rig: rig, wideSize: size, teleSize: size, options: options)
                .estimate(wide: wide, tele: tele)
            let ref = unfiltered.reference
            let model = try rig.camera(ref).model.scaled(to: size)
            let truth = try truth(for: unfiltered, image: ref == .wide ? wide : tele, model: model)
            out.append(PairRun(name: n, truth: truth, unfiltered: unfiltered.depthMetres, filtered: filtered.depthMetres,
                               confidence: filtered.confidence, filteredDisparity: filtered.disparityPixels,
                               measuredDisparity: filtered.unfilteredDisparityPixels))
        }
        if let dir = ProcessInfo.processInfo.environment["DC_DUMP"] {
            for r in out {
                for (tag, map) in [("truth", r.truth.depth), ("unf", r.unfiltered), ("filt", r.filtered)] {
                    try ImageIO.write(try Image(width: 640, height: 480, channels: 1, pixels: map),
                                      to: URL(fileURLWithPath: "\(dir)/\(r.name)-\(tag).pfm"))
                }
            }
        }
        cached = out
        return out
    }

    func testReport() throws {
        let runs = try Self.runs()
        var tot = [Int](repeating: 0, count: 12)
        print("pair | board px | unf valid | unf >5% | unf >50% | patch px | patch unf valid | patch holes filt >5% | filt AbsRel board | centres unf valid/>5% | centre holes filt >5%")
        for r in runs {
            var board = 0, valid = 0, off5 = 0, off50 = 0, patch = 0, patchValid = 0, holes = 0, holesOff = 0
            var absRel = 0.0
            for i in r.truth.depth.indices where r.truth.depth[i].isFinite {
                let z = r.truth.depth[i]
                board += 1
                let fe = abs(r.filtered[i] - z) / z
                absRel += Double(fe.isFinite ? fe : 1)
                let u = r.unfiltered[i]
                if u.isFinite {
                    valid += 1
                    let e = abs(u - z) / z
                    if e > 0.05 { off5 += 1 }
                    if e > 0.5 { off50 += 1 }
                }
                if r.truth.patch[i] {
                    patch += 1
                    if u.isFinite { patchValid += 1 } else {
                        holes += 1
                        if !(fe <= 0.05) { holesOff += 1 }
                    }
                }
            }
            var cValid = 0, cOff = 0, cHoles = 0, cHolesOff = 0
            for i in r.truth.centres where i >= 0 {
                let z = r.truth.depth[i], u = r.unfiltered[i]
                if u.isFinite { cValid += 1; if abs(u - z) / z > 0.05 { cOff += 1 } } else {
                    cHoles += 1; if !(abs(r.filtered[i] - z) / z <= 0.05) { cHolesOff += 1 }
                }
            }
            let row = [board, valid, off5, off50, patch, patchValid, holes, holesOff, cValid, cOff, cHoles, cHolesOff]
            for j in row.indices { tot[j] += row[j] }
            print(String(format: "%@ | %d | %.3f | %.2f%% | %.2f%% | %d | %.3f | %d / %d | %.2f%% | %d / %d | %d of %d",
                         r.name, board, Double(valid) / Double(board), 100 * Double(off5) / Double(max(1, valid)),
                         100 * Double(off50) / Double(max(1, valid)), patch, Double(patchValid) / Double(max(1, patch)),
                         holesOff, holes, 100 * absRel / Double(board), cValid, cOff, cHolesOff, cHoles))
        }
        print("total", tot)
    }
}
