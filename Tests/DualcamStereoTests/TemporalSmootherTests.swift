import DualcamStereo
import Foundation
import TestSupport
import XCTest

/// The temporal smoother's memory is its last `memoryFrames` frames: a
/// sequence cut into chunks, each fed the `warmUpFrames` frames before it
/// first, gives the uncut run's results bit for bit (what `dualcam batch`
/// relies on); without the warm-up it does not.
final class TemporalSmootherTests: XCTestCase {
    /// 60 frames of 500 values: a surface with noise (1-3 %, so the 5 %
    /// tolerance sometimes holds and sometimes not), jumps, holes.
    static func frames(seed: UInt64 = 5) -> [[Float]] {
        var rng = SeededGenerator(seed: seed)
        let base = (0..<500).map { _ in Float.random(in: 1...40, using: &rng) }
        return (0..<60).map { t in
            base.enumerated().map { i, v in
                if (i + t) % 97 == 0 { return .nan }
                if (i * 7 + t) % 53 == 0 { return v * 1.5 }  // motion
                return v * (1 + Float.random(in: -0.03...0.03, using: &rng))
            }
        }
    }

    static func bits(_ frames: [[Float]]) -> [[UInt32]] { frames.map { $0.map(\.bitPattern) } }

    func testChunksWithWarmUpEqualTheUncutRun() {
        let frames = Self.frames()
        let whole = TemporalSmoother()
        let expected = Self.bits(frames.map { whole.smooth($0) })
        XCTAssertEqual(whole.warmUpFrames, 3)
        // The smoothing does something: results differ from the inputs.
        XCTAssertNotEqual(expected, Self.bits(frames))
        for chunk in [1, 4, 7, 13, 60] {
            var joined: [[Float]] = []
            var first = 0
            while first < frames.count {
                let end = min(first + chunk, frames.count)
                let smoother = TemporalSmoother()
                let start = max(0, first - smoother.warmUpFrames)
                for k in start..<end {
                    let out = smoother.smooth(frames[k])
                    if k >= first { joined.append(out) }
                }
                first = end
            }
            XCTAssertEqual(Self.bits(joined), expected, "chunks of \(chunk)")
        }
    }

    func testChunksWithoutWarmUpDiffer() {
        let frames = Self.frames()
        let whole = TemporalSmoother()
        let expected = Self.bits(frames.map { whole.smooth($0) })
        var joined: [[Float]] = []
        for first in stride(from: 0, to: frames.count, by: 10) {
            let smoother = TemporalSmoother()
            for k in first..<min(first + 10, frames.count) { joined.append(smoother.smooth(frames[k])) }
        }
        XCTAssertNotEqual(Self.bits(joined), expected)
    }

    /// A frame's result depends on its last 4 frames only: what came before does not matter.
    func testMemoryIsTheLastFourFrames() {
        let a = Self.frames(seed: 5), b = Self.frames(seed: 6)
        let s1 = TemporalSmoother(), s2 = TemporalSmoother()
        for f in a[0..<20] { _ = s1.smooth(f) }
        for f in b[0..<9] { _ = s2.smooth(f) }
        var last: ([Float], [Float]) = ([], [])
        for f in a[20..<24] { last = (s1.smooth(f), s2.smooth(f)) }
        XCTAssertEqual(last.0.map(\.bitPattern), last.1.map(\.bitPattern))
        // A size change starts afresh.
        XCTAssertEqual(s1.smooth([1, 2]), [1, 2])
    }
}
