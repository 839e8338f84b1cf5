import DualcamCalibrationFiles
import DualcamFusion
import DualcamGeometry
import DualcamSynthetic
import Foundation

/// The output pixels whose colour cannot tell which surface their centre
/// ray hits.
///
/// Each 320x240 guide pixel is the mean of 4x4 rays: the 640x480 render
/// averages 2x2 rays per pixel at offsets ±1/4 px ((i + 0.5) / n - 0.5), and
/// the area resize averages 2x2 of those pixels. Those 16 rays are exactly
/// the centre rays of a 1280x960 render with the wide K resampled to that
/// size (x_1280 = 2 x_640 + 1/2 ± 1/2). The ground truth is the 320x240
/// pixel's centre ray, which falls between those rays.
///
/// An exact tie: 8 of the 16 rays hit the centre ray's surface and 8 another.
/// The guide pixel is then the same half-and-half mixture whichever side of
/// the centre the edge passes, so nothing in the pixel's colour beats a coin
/// flip there. Where the rays split into whole rows or columns, the edge
/// runs along an image axis between two rows (columns) of rays and can lie
/// anywhere in that 1/4 px gap: if the edge is straight, the whole image is
/// the same either way. A hard assignment (one surface per pixel, no blended
/// depth) is wrong on half of the ties in expectation: expected squared
/// error sum(delta^2) / 2, delta the distance between the two surfaces at
/// the pixel.
struct ColourTies {
    /// Per output pixel: an exact tie.
    let isTie: [Bool]
    /// Per output pixel: (other surface - centre ray surface)^2 in m^2 (0 where no tie).
    let squaredGap: [Float]
    /// Per output pixel: a tie whose 4x4 rays split into whole rows or whole columns (an edge along an image axis).
    let isAxisAligned: [Bool]

    var count: Int { isTie.lazy.filter { $0 }.count }
    var axisAlignedCount: Int { isAxisAligned.lazy.filter { $0 }.count }

    /// The expected RMSE over `pixelCount` pixels of a hard assignment that
    /// is exact everywhere except the ties (coin flips there), or only
    /// except the axis-aligned ones.
    func expectedFloorRMSE(pixelCount: Int, axisAlignedOnly: Bool = false) -> Double {
        let sum = squaredGap.indices.reduce(0.0) { s, p in axisAlignedOnly && !isAxisAligned[p] ? s : s + Double(squaredGap[p]) }
        return (sum / 2 / Double(pixelCount)).squareRoot()
    }

    /// From the scene's rays at four times the output resolution and the centre-ray truth.
    static func find(_ scenario: FusionScenario) throws -> ColourTies {
        let out = FusionScenario.size
        let rays = PixelSize(width: out.width * 4, height: out.height * 4)
        let depth = try FusionScenario.centreRayDepth(
            try SceneLibrary.scene(named: scenario.name, options: SceneLibrary.Options()),
            wide: try Synthesizer.scaledRig(try NominalDevice.load().rig, to: FusionScenario.wideSize), grid: rays)
        var isTie = [Bool](repeating: false, count: out.width * out.height)
        var gap = [Float](repeating: 0, count: isTie.count)
        var axisAligned = isTie
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = y * out.width + x
                let truth = scenario.truth[p]
                guard truth.isFinite else { continue }
                // Same surface as the centre ray: within 5 % (the test's discontinuity criterion).
                var same = [[Bool]](repeating: [Bool](repeating: false, count: 4), count: 4)
                var sameCount = 0
                var other = 0.0, otherCount = 0
                for j in 0..<4 {
                    for i in 0..<4 {
                        let z = depth[(4 * y + j) * rays.width + 4 * x + i]
                        if z.isFinite && abs(z - truth) <= 0.05 * truth {
                            same[j][i] = true
                            sameCount += 1
                        } else if z.isFinite {
                            other += Double(z)
                            otherCount += 1
                        }
                    }
                }
                guard sameCount == 8, otherCount == 8 else { continue }
                isTie[p] = true
                gap[p] = Float((other / 8 - Double(truth)) * (other / 8 - Double(truth)))
                let rowsUniform = same.allSatisfy { row in row.allSatisfy { $0 == row[0] } }
                let columnsUniform = (0..<4).allSatisfy { i in (0..<4).allSatisfy { same[$0][i] == same[0][i] } }
                axisAligned[p] = rowsUniform || columnsUniform
            }
        }
        return ColourTies(isTie: isTie, squaredGap: gap, isAxisAligned: axisAligned)
    }
}
