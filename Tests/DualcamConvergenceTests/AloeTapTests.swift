import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import Foundation
import XCTest

/// Tap-to-converge on Middlebury Aloe (opencv-doc: aloeL/aloeR, a rectified
/// same-lens pair, 1282x1110; Calibration/datasets/middlebury-aloe-calib.txt,
/// f B = 3740 px x 0.16 m, made up but consistent with the pixels). Taps in
/// the left (wide) image; the truth at a tap is f B / d with d the median
/// ground-truth disparity (aloeGT.png) over the 9x9 pixels around it. The
/// background is a cloth with a regular print, the plant's leaves are
/// smooth and cross at several depths: both hard for a plane sweep. Every
/// answer not flagged ambiguous or low texture is within 3 % (the ground
/// truth's whole-pixel disparities alone leave 1 % at 48 px); figures in
/// docs/convergence.md.
final class AloeTapTests: XCTestCase {
    static let data = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")
    static let taps: [(name: String, x: Int, y: Int)] = [
        ("cloth, top left", 150, 150), ("cloth, top right", 1150, 200), ("cloth, lower left", 200, 750),
        ("cloth, middle", 450, 330),
        ("leaf, centre", 785, 643), ("leaf, upper middle", 709, 327), ("leaf, upper right", 959, 273),
        ("pot", 872, 927), ("leaf, long left", 327, 578),
    ]

    func testTapsAgainstTheGroundTruth() throws {
        var unflagged = 0
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Calibration/datasets/middlebury-aloe-calib.txt")
        let calibration = try CalibrationImport.middlebury(text: try String(contentsOf: url, encoding: .utf8), name: "Aloe calib.txt")
        let warp = try ConvergenceWarp(rig: calibration.rig)
        let left = try ImageIO.read(Self.data.appendingPathComponent("aloeL.jpg"))
        let right = try ImageIO.read(Self.data.appendingPathComponent("aloeR.jpg"))
        let gt = try ImageIO.read(Self.data.appendingPathComponent("aloeGT.png")).doubleValues()
        for tap in Self.taps {
            var ds: [Double] = []
            for y in (tap.y - 4)...(tap.y + 4) { for x in (tap.x - 4)...(tap.x + 4) where gt[y * 1282 + x] > 0 { ds.append(gt[y * 1282 + x]) } }
            ds.sort()
            let d = ds[ds.count / 2], truth = 3740 * 0.16 / d
            let result = try warp.autoDistance(wide: left, tele: right, options: AutoConvergenceOptions(
                tap: TapPoint(.wide, Vector2(Double(tap.x), Double(tap.y))), lowTexture: .accept))
            func e(_ m: Double) -> Double { 100 * (m - truth) / truth }
            print(String(format: "%@ (%d, %d): GT disparity %.0f px -> %.3f m; tapped %.3f m (%+.1f %%), NCC %.3f, peak ratio %.2f, support %.2f, %@%@",
                         tap.name, tap.x, tap.y, d, truth, result.distance.metres, e(result.distance.metres), result.score,
                         result.peakRatio ?? .nan, result.supportFraction ?? .nan, result.confidence.rawValue,
                         result.lowTexture ? ", low texture" : "")
                  + (result.ambiguous ? ", candidates " + result.candidates.map { String(format: "%.3f (%+.1f %%)", $0.distance.metres, e($0.distance.metres)) }.joined(separator: " ") : ""))
            if !result.ambiguous, !result.lowTexture {
                unflagged += 1
                XCTAssertLessThanOrEqual(abs(e(result.distance.metres)), 3, "\(tap.name): a wrong distance without the flag")
            }
        }
        XCTAssertGreaterThanOrEqual(unflagged, 5, "most taps get an answer")
    }
}
