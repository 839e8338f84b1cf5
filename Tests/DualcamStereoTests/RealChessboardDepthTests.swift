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
    static let square = 0.025

    /// The board's truth at the output pixels of one pair.
    struct BoardTruth {
        /// Depth along the reference axis, metres; NaN off the board.
        var depth: [Float]
        /// On the board, in the middle 60 % of a square's side (36 % of its
        /// area: a uniform patch).
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

    static func truth(for result: StereoDepthResult, image: Image, model: CameraModel) throws -> BoardTruth {
        let target = try BoardTarget(parsing: "chessboard:9x6:25mm")
        XCTAssertEqual(target.squareSize, square, accuracy: 1e-12)
        let observation = try XCTUnwrap(try PatternDetector(target: target).detect(in: image))
        let corners = target.cornerPoints
        let object = observation.cornerIndices.flatMap { i -> [Double] in [corners[i].x, corners[i].y, corners[i].z] }
        let k = model.intrinsics
        guard case let .brownConrady(b) = model.distortion else {
            struct UnexpectedModel: Error {}
            XCTFail("the sample rig's calibration is Brown-Conrady")
            throw UnexpectedModel()
        }
        let camera = CVCameraParameters(cameraMatrix: [k.fx, k.skew, k.cx, 0, k.fy, k.cy, 0, 0, 1], distortion: b.coefficients)
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
        let rig = try CalibrationFile.read(OpenCVSamplePairs.calibration).rig
        var out: [PairRun] = []
        for n in OpenCVSamplePairs.names {
            let wide = try ImageIO.read(OpenCVSamplePairs.left(n))
            let tele = try ImageIO.read(OpenCVSamplePairs.right(n))
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
        cached = out
        return out
    }

    /// Board figures of one pair, or summed over all.
    struct Scores {
        var board = 0, measured = 0, gross = 0, off5 = 0
        var patchHoles = 0, patchHolesOff = 0, patchHolesRelSum = 0.0
        var centreHoles = 0, centreHolesOff = 0
        var highConfidence = 0, moved = 0
        /// Sum over the board of the filtered depth's relative error (1 where it has none).
        var boardRelSum = 0.0

        static func + (a: Scores, b: Scores) -> Scores {
            Scores(board: a.board + b.board, measured: a.measured + b.measured, gross: a.gross + b.gross, off5: a.off5 + b.off5,
                   patchHoles: a.patchHoles + b.patchHoles, patchHolesOff: a.patchHolesOff + b.patchHolesOff,
                   patchHolesRelSum: a.patchHolesRelSum + b.patchHolesRelSum, centreHoles: a.centreHoles + b.centreHoles,
                   centreHolesOff: a.centreHolesOff + b.centreHolesOff, highConfidence: a.highConfidence + b.highConfidence,
                   moved: a.moved + b.moved, boardRelSum: a.boardRelSum + b.boardRelSum)
        }
        var coverage: Double { Double(measured) / Double(max(1, board)) }
        var grossShare: Double { Double(gross) / Double(max(1, measured)) }
        var off5Share: Double { Double(off5) / Double(max(1, measured)) }
        var patchHolesOffShare: Double { Double(patchHolesOff) / Double(max(1, patchHoles)) }
        var patchHolesAbsRel: Double { patchHolesRelSum / Double(max(1, patchHoles)) }
        /// The filtered map's AbsRel over the whole board (docs/real-data.md quotes it).
        var boardAbsRel: Double { boardRelSum / Double(max(1, board)) }
        var movedShare: Double { Double(moved) / Double(max(1, highConfidence)) }
        var line: String {
            String(format: "board %d px, unfiltered coverage %.3f, > 5 %% off %.2f %%, > 50 %% off %.2f %%; "
                   + "patch holes %d: filled > 5 %% off %.1f %%, AbsRel %.1f %%; square centres left empty %d, filled > 5 %% off %d; "
                   + "board filtered AbsRel %.2f %%; high-confidence moved > 1 %%: %d of %d",
                   board, coverage, 100 * off5Share, 100 * grossShare, patchHoles, 100 * patchHolesOffShare,
                   100 * patchHolesAbsRel, centreHoles, centreHolesOff, 100 * boardAbsRel, moved, highConfidence)
        }
    }

    static func scores(_ r: PairRun) -> Scores {
        var s = Scores()
        for i in r.truth.depth.indices where r.truth.depth[i].isFinite {
            let z = r.truth.depth[i], u = r.unfiltered[i]
            let filledError = abs(r.filtered[i] - z) / z
            s.board += 1
            s.boardRelSum += Double(filledError.isFinite ? filledError : 1)
            if u.isFinite {
                s.measured += 1
                let e = abs(u - z) / z
                if e > 0.05 { s.off5 += 1 }
                if e > 0.5 { s.gross += 1 }
            } else if r.truth.patch[i] {
                s.patchHoles += 1
                s.patchHolesRelSum += Double(filledError.isFinite ? filledError : 1)
                if !(filledError <= 0.05) { s.patchHolesOff += 1 }
            }
        }
        for i in r.truth.centres where i >= 0 && !r.unfiltered[i].isFinite {
            s.centreHoles += 1
            if !(abs(r.filtered[i] - r.truth.depth[i]) / r.truth.depth[i] <= 0.05) { s.centreHolesOff += 1 }
        }
        let contract = filteredContractViolations(filtered: r.filteredDisparity, unfiltered: r.measuredDisparity,
                                                  confidence: r.confidence)
        s.highConfidence = contract.count
        s.moved = Int((contract.fraction * Double(contract.count)).rounded())
        return s
    }

    /// Issue 17's faults on the real pairs, guarded where they stand (they may
    /// only improve; figures in docs/real-data.md, "OpenCV's 13 chessboard
    /// pairs"): a measured value a pattern period off (> 50 %) is at most
    /// 2.0 % of the board's measurements; at most 20 % of the uniform
    /// patches' holes are filled more than 5 % off; the filtered map's AbsRel
    /// over the whole board is at most 18 %.
    func testRepeatingPatternAndUniformPatches() throws {
        let runs = try Self.runs()
        var total = Scores()
        for r in runs {
            let s = Self.scores(r)
            print("chessboard pair \(r.name): \(s.line)")
            total = total + s
        }
        print("chessboard pairs, all 13: \(total.line)")
        XCTAssertGreaterThan(total.board, 1_000_000)
        XCTAssertLessThanOrEqual(total.grossShare, 0.016, total.line)
        XCTAssertLessThanOrEqual(total.patchHolesOffShare, 0.19, total.line)
        XCTAssertLessThanOrEqual(total.boardAbsRel, 0.16, total.line)
        XCTAssertGreaterThanOrEqual(total.coverage, 0.30, total.line)
    }

    /// Filtered keeps what was measured on every real pair: at most 0.5 % of
    /// the high-confidence measurements move by more than 1 %.
    func testFilteredKeepsTheMeasurements() throws {
        for r in try Self.runs() {
            let s = Self.scores(r)
            XCTAssertGreaterThan(s.highConfidence, 1000, "pair \(r.name)")
            XCTAssertLessThanOrEqual(s.movedShare, 0.005, "pair \(r.name): \(s.line)")
        }
    }
}
