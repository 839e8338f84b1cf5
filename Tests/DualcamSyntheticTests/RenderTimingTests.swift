import DualcamSynthetic
import Foundation
import XCTest

/// A timing check run by hand, skipped otherwise:
///
///     DUALCAM_RENDER_TIMING=1 swift test -c release --filter RenderTimingTests
///
/// Renders the room scene with the nominal rig at 1920x1440, wide and tele,
/// 4 samples per pixel, and prints the wall-clock time (target: < 2 s for the
/// pair on 2 cores).
final class RenderTimingTests: XCTestCase {
    func testTimeWideAndTeleAt1920x1440() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DUALCAM_RENDER_TIMING"] != nil,
                          "set DUALCAM_RENDER_TIMING=1 (and use -c release) to time the renderer")
        let rig = try RenderFixtures.nominalRig(width: 1920)
        let scene = RenderFixtures.room()
        func cpuSeconds() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        for run in 0..<3 {
            let cpu = cpuSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            let wide = try Renderer.render(scene, camera: .wide, of: rig)
            let middle = DispatchTime.now().uptimeNanoseconds
            let tele = try Renderer.render(scene, camera: .tele, of: rig)
            let end = DispatchTime.now().uptimeNanoseconds
            XCTAssertEqual(wide.size.width, 1920)
            XCTAssertEqual(tele.size.height, 1440)
            print(String(format: "render timing run %d: wide %.3f s, tele %.3f s, pair %.3f s wall, %.3f s CPU", run,
                         Double(middle - start) / 1e9, Double(end - middle) / 1e9, Double(end - start) / 1e9,
                         cpuSeconds() - cpu))
        }
    }
}
