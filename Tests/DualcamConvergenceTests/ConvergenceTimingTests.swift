import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// A timing check run by hand, skipped otherwise:
///
///     DUALCAM_CONVERGE_TIMING=1 swift test -c release --filter ConvergenceTimingTests
///
/// At 1920x1440 (nominal rig, wide with distortion, tele canvas): building
/// the tables, registering a pair with cached tables, composing each view,
/// the automatic distance, and one plain OpenCV warpPerspective of the same
/// image for comparison.
final class ConvergenceTimingTests: XCTestCase {
    func testTimeAt1920x1440() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DUALCAM_CONVERGE_TIMING"] != nil,
                          "set DUALCAM_CONVERGE_TIMING=1 (and use -c release) to time convergence")
        let size = PixelSize(width: 1920, height: 1440)
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: size)
        var g = SeededGenerator(seed: 7)
        let count = size.width * size.height * 3
        let wide = try Image(width: size.width, height: size.height, channels: 3,
                             pixels: (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) })
        let tele = try Image(width: size.width, height: size.height, channels: 3,
                             pixels: (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) })
        func ms(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        let d = try Distance(metres: 1.2)
        for canvas in ConvergenceCanvas.allCases {
            let warp = try ConvergenceWarp(rig: rig, canvas: canvas)
            let geometry = try warp.geometry(wideSize: size, teleSize: size)
            let build = try ms { _ = try warp.maps(geometry, distance: d) }
            var pair: ConvergedPair!
            let runs = 10
            let register = try ms { for _ in 0..<runs { pair = try warp.register(wide: wide, tele: tele, distance: d) } } / Double(runs)
            var line = String(format: "%@ canvas: tables %.1f ms, register %.1f ms", canvas.rawValue, build, register)
            for view in ConvergenceView.allCases {
                let t = try ms { for _ in 0..<runs { _ = try ConvergenceViews.compose(view, pair) } } / Double(runs)
                line += String(format: ", %@ %.1f ms", view.rawValue, t)
            }
            print(line)
        }
        let h = try rig.homography(from: .wide, to: .tele, plane: .frontoParallel(distance: d, in: .wide))
        let warpMs = try ms { for _ in 0..<10 { _ = try ImageOps.warpPerspective(wide, homography: h.rowMajor, width: 1920, height: 1440) } } / 10
        print(String(format: "plain warpPerspective 1920x1440 RGB: %.1f ms", warpMs))
        let warp = try ConvergenceWarp(rig: rig)
        let auto = try ms { _ = try warp.autoDistance(wide: wide, tele: tele) }
        let tap = try ms { _ = try warp.autoDistance(wide: wide, tele: tele, options: AutoConvergenceOptions(at: Vector2(960, 720))) }
        print(String(format: "auto distance: whole overlap %.0f ms, window %.0f ms", auto, tap))
    }
}
