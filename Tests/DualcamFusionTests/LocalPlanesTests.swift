import DualcamFusion
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

/// `LocalPlanes` against surfaces with known inverse depth: a slanted plane
/// (recovered to well below the samples' noise), a plane in front of another
/// (each side keeps its own plane up to the edge), and a sphere (curved: no
/// plane fits it, the reference stays).
final class LocalPlanesTests: XCTestCase {
    let size = PixelSize(width: 96, height: 72)

    /// Samples of `inverse` at a random 8 % of the pixels, depth noise `noise` metres.
    func samples(_ inverse: (Double, Double) -> Double, noise: Double, seed: UInt64 = 5) -> [MetricSample] {
        var rng = SeededGenerator(seed: seed)
        var out: [MetricSample] = []
        for y in 0..<size.height {
            for x in 0..<size.width where Double.random(in: 0..<1, using: &rng) < 0.08 {
                let u1 = max(Double.random(in: 0..<1, using: &rng), 1e-12), u2 = Double.random(in: 0..<1, using: &rng)
                let g = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                out.append(MetricSample(x: Double(x), y: Double(y), depthMetres: 1 / inverse(Double(x), Double(y)) + noise * g))
            }
        }
        return out
    }

    func map(_ f: (Double, Double) -> Double) -> [Float] {
        (0..<(size.width * size.height)).map { Float(f(Double($0 % size.width), Double($0 / size.width))) }
    }

    func testSlantedPlaneIsRecoveredBelowTheSampleNoise() {
        // A wall receding from 3 m to about 5.5 m across the image.
        let plane = { (x: Double, y: Double) in 0.33 - 0.0015 * x + 0.0002 * y }
        let s = samples(plane, noise: 0.01)
        // Reference: the plane with a 1.5 % ripple (what a piecewise-smooth fill looks like).
        let reference = map { x, y in plane(x, y) * (1 + 0.015 * sin(x / 5) * cos(y / 7)) }
        let fitted = LocalPlanes().fit(reference: reference, size: size, samples: s, sampleNoiseMetres: 0.01)
        var errors: [Double] = []
        for (p, v) in fitted.enumerated() where v.isFinite {
            let truth = 1 / plane(Double(p % size.width), Double(p / size.width))
            errors.append(1 / Double(v) - truth)
        }
        let coverage = Double(errors.count) / Double(fitted.count)
        let rmse = (errors.map { $0 * $0 }.reduce(0, +) / Double(max(1, errors.count))).squareRoot()
        print(String(format: "local planes, slanted wall: coverage %.1f %%, depth RMSE %.4f m (sample noise 0.01 m)", 100 * coverage, rmse))
        XCTAssertGreaterThan(coverage, 0.6)
        XCTAssertLessThan(rmse, 0.005)
    }

    func testEachSideOfADepthEdgeKeepsItsOwnPlane() {
        // A box at 1 m (x < 40) in front of a wall at 4 m.
        let scene = { (x: Double, _: Double) in x < 40 ? 1.0 : 0.25 }
        let s = samples(scene, noise: 0.005)
        let fitted = LocalPlanes().fit(reference: map(scene), size: size, samples: s, sampleNoiseMetres: 0.005)
        var worst = 0.0
        for (p, v) in fitted.enumerated() where v.isFinite {
            worst = max(worst, abs(Double(v) - scene(Double(p % size.width), 0)) / scene(Double(p % size.width), 0))
        }
        // Pixels next to the edge (x = 39 and 40) are covered too.
        for x in [39, 40] { XCTAssertTrue(fitted[30 * size.width + x].isFinite, "x = \(x)") }
        // A plane across the edge would be 75-300 % off; the 5 mm noise
        // extrapolated to the image corners makes about 1 %.
        XCTAssertLessThan(worst, 0.02, "no plane crosses the edge")
    }

    /// Worst and 95th-percentile relative inverse-depth error of the fitted
    /// pixels against `truth`, and their fraction of the image.
    func check(_ truth: (Double, Double) -> Double, noise: Double) -> (worst: Double, p95: Double, coverage: Double) {
        let fitted = LocalPlanes().fit(reference: map(truth), size: size, samples: samples(truth, noise: noise), sampleNoiseMetres: noise)
        var errors: [Double] = []
        for (p, v) in fitted.enumerated() where v.isFinite {
            let t = truth(Double(p % size.width), Double(p / size.width))
            errors.append(abs(Double(v) - t) / t)
        }
        errors.sort()
        guard let worst = errors.last else { return (0, 0, 0) }
        return (worst, errors[errors.count * 95 / 100], Double(errors.count) / Double(fitted.count))
    }

    func testCreasesAndCurvedSurfacesKeepTheirShape() {
        // A crease (floor meeting wall: v continuous, slope changing sign at x = 48).
        let crease = check({ x, _ in 0.25 + 0.004 * abs(x - 48) }, noise: 0.002)
        // A sphere of radius 0.5 m at 1.2 m seen head-on at f = 80 px, a wall at 3 m around it.
        let sphere = check({ x, y in
            let dx = (x - 48) / 80, dy = (y - 36) / 80
            // Ray (dx, dy, 1) t meets |X - (0, 0, 1.2)| = 0.5.
            let a = dx * dx + dy * dy + 1, b = -2 * 1.2, c = 1.2 * 1.2 - 0.25
            let disc = b * b - 4 * a * c
            return disc > 0 ? 1 / ((-b - disc.squareRoot()) / (2 * a)) : 1 / 3.0
        }, noise: 0.002)
        print(String(format: "local planes: crease worst %.2f %%, 95th percentile %.2f %% (coverage %.0f %%); "
                     + "sphere worst %.2f %%, 95th percentile %.2f %% (coverage %.0f %%)", 100 * crease.worst, 100 * crease.p95,
                     100 * crease.coverage, 100 * sphere.worst, 100 * sphere.p95, 100 * sphere.coverage))
        // A plane bent over the crease would miss by several per cent there (the
        // residual test rejects it); the 2 mm noise is 0.05-0.2 % here.
        XCTAssertLessThan(crease.worst, 0.01)
        XCTAssertGreaterThan(crease.coverage, 0.5)
        // Measured: where the sphere's limb grazes away, planes fitted just
        // inside it extrapolate up to the acceptance tolerance (3 %) off; the
        // bulk of the surface is within a fraction of a per cent.
        XCTAssertLessThan(sphere.worst, LocalPlanes().acceptTolerance + 0.005)
        XCTAssertLessThan(sphere.p95, 0.015) // measured 0.99 %
    }

    func testNoSamplesOrNoReferenceGivesNothing() {
        let reference = [Float](repeating: 0.5, count: size.width * size.height)
        XCTAssertTrue(LocalPlanes().fit(reference: reference, size: size, samples: [], sampleNoiseMetres: 0.01).allSatisfy(\.isNaN))
        let s = samples({ _, _ in 0.5 }, noise: 0.01)
        let unknown = [Float](repeating: .nan, count: size.width * size.height)
        XCTAssertTrue(LocalPlanes().fit(reference: unknown, size: size, samples: s, sampleNoiseMetres: 0.01).allSatisfy(\.isNaN))
    }
}

extension LocalPlanesTests {
    /// On a grid twice as fine the disc's radius bounds double (output pixels
    /// -> fusion-grid pixels); nothing else changes.
    func testScaledForAFinerGridDoublesTheRadiusBoundsOnly() {
        let planes = LocalPlanes()
        let scaled = planes.scaled(by: 2)
        XCTAssertEqual(scaled.radiusRange.lowerBound, 2 * planes.radiusRange.lowerBound)
        XCTAssertEqual(scaled.radiusRange.upperBound, 2 * planes.radiusRange.upperBound)
        var back = scaled
        back.radiusRange = planes.radiusRange
        XCTAssertEqual(back, planes)
    }
}
