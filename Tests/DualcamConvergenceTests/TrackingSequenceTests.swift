import DualcamConvergence
import DualcamGeometry
import DualcamSynthetic
import Foundation
import XCTest

/// Acceptance: tap-to-converge on a sequence. A plane with stripes (42 mm
/// period, turned 3 degrees) moves from 0.5 m to 2 m over 60 frames (linear
/// in distance), `real` camera conditions with fresh noise every frame,
/// nominal rig at 320x240 (render small: the conditions cost most of the
/// time in debug builds), one sample per pixel, tap fixed at the tele pixel
/// where the plane's centre is seen in the first frame. From about 1.04 m
/// on, the stripes' repeat (at 5.2 x the true inverse distance) is inside the
/// sweep, so single frames can be ambiguous or pick the repeat.
final class TrackingSequenceTests: XCTestCase {
    func testTrackingFollowsTheSubjectWithoutJumps() throws {
        let size = PixelSize(width: 320, height: 240)
        let warp = try ConvergenceWarp(rig: try Fixtures.nominalRig(size: size))
        let periodMetres = 0.042
        var tracker = DistanceTracker()
        var tap: Vector2?
        var lines: [String] = []
        var worstAfter5 = 0.0, worstJump = 0.0, previous: Double?
        var singleFrameWrong = 0, ambiguousFrames = 0
        let frames = 60
        for k in 0..<frames {
            let distance = 0.5 + 1.5 * Double(k) / Double(frames - 1)
            var subject = PatternFixtures.subject(.plane, .stripesAlongU(dutyCycle: 0.5), pixels: 0, distance: distance, orientation: 3)
            subject.periodMetres = periodMetres
            let rendered = try PatternFixtures.render(subject.scene, key: "moving stripes \(k)",
                                                      centre: Vector3(0, 0, distance), truthMetres: distance,
                                                      seed: UInt64(100 + k), samplesPerAxis: 1, tapOverride: tap, size: size)
            if tap == nil { tap = rendered.tap }
            let result = try warp.autoDistance(wide: rendered.pair.wide.image, tele: rendered.pair.tele.image,
                                               options: AutoConvergenceOptions(tap: TapPoint(.tele, tap!), lowTexture: .accept))
            let step = tracker.update(DistanceTracker.Measurement(result))
            let error = (step.distance.metres - distance) / distance
            let single = (result.distance.metres - distance) / distance
            if abs(single) > 0.02 { singleFrameWrong += 1 }
            if result.ambiguous { ambiguousFrames += 1 }
            if k >= 5 { worstAfter5 = max(worstAfter5, abs(error)) }
            if let previous { worstJump = max(worstJump, abs(step.distance.metres - previous) / previous) }
            previous = step.distance.metres
            lines.append(String(format: "frame %2d: truth %.4f m, tracked %.4f m (%+.2f %%, %@), frame's own %.4f m (%+.1f %%)%@",
                                k, distance, step.distance.metres, 100 * error, step.decision.rawValue, result.distance.metres,
                                100 * single, result.ambiguous ? ", ambiguous" : ""))
        }
        print(lines.joined(separator: "\n"))
        print(String(format: "tracking 0.5 -> 2 m over %d frames: worst error after frame 5 %.2f %%, largest step %.2f %%; "
                        + "single frames off by more than 2 %%: %d, ambiguous: %d", frames, 100 * worstAfter5, 100 * worstJump,
                     singleFrameWrong, ambiguousFrames))
        XCTAssertLessThanOrEqual(worstAfter5, 0.02)
        XCTAssertLessThanOrEqual(worstJump, 0.10)
    }
}
