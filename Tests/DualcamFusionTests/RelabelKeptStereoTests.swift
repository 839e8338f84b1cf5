@testable import DualcamFusion
import DualcamGeometry
import XCTest

/// `FusionRun.relabelEdges`: the relabelling moves a pixel onto the surface
/// its colour votes for, except pixels of kept precise stereo
/// (`StereoTrust.keepsThroughRelabelling`) and high-confidence pixels.
final class RelabelKeptStereoTests: XCTestCase {
    /// Red left of column 32, blue from it; the depth's step one column
    /// earlier (column 31 far but red): the colour vote moves column 31 to
    /// the near side unless it is kept.
    func testKeptStereoPixelsKeepTheirSide() throws {
        let size = PixelSize(width: 64, height: 24)
        var rgb = [UInt8](), depth = [Float]()
        for _ in 0..<size.height {
            for x in 0..<size.width {
                rgb += x < 32 ? [200, 30, 30] : [30, 30, 200]
                depth.append(x < 31 ? 2 : 4)
            }
        }
        let input = FusionInput(size: size, guideRGB: rgb, samples: [MetricSample(x: 5, y: 5, depthMetres: 2)])
        let run = try FusionRun(input, options: DepthFusion.Options(focalPixels: 100))
        let low = [FusionConfidenceLevel](repeating: .low, count: depth.count)
        let column31 = (0..<depth.count).map { $0 % size.width == 31 }

        let relabelled = try run.relabelEdges(depth, keeping: low, stereo: nil)
        let kept = try run.relabelEdges(depth, keeping: low, stereo: column31)
        for y in 2..<(size.height - 2) {
            XCTAssertEqual(relabelled[y * size.width + 31], 2, accuracy: 1e-4, "row \(y): the vote takes column 31 to the red, near side")
            XCTAssertEqual(kept[y * size.width + 31], 4, "row \(y): kept stereo keeps its side")
        }
        // Everything else is the same either way.
        for p in 0..<depth.count where !column31[p] { XCTAssertEqual(relabelled[p], kept[p]) }
    }
}
