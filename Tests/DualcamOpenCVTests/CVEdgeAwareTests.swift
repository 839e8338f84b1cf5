import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

final class CVEdgeAwareTests: XCTestCase {
    /// The shared-guide solver reproduces OpenCV's fast global smoother fill
    /// (`smootherFill`, cv::ximgproc) on a random guide with sparse weights,
    /// for 1- and 3-channel guides, several lambdas and iteration counts.
    func testSmootherGuideMatchesOpenCVsFastGlobalSmoother() throws {
        var rng = SeededGenerator(seed: 11)
        let rows = 37, cols = 53
        let values = try MatFixtures.float32(rows: rows, cols: cols) { x, y in Float(x) * 0.02 + sin(Float(y) * 0.3) }
        var w = [Float](repeating: 0, count: rows * cols)
        for i in w.indices where Double.random(in: 0..<1, using: &rng) < 0.1 { w[i] = Float.random(in: 0.1...2, using: &rng) }
        let weights = try MatFixtures.float32(rows: rows, cols: cols) { x, y in w[y * cols + x] }
        for channels in [1, 3] {
            // Two regions split at x = 26 with a little noise inside each.
            var bytes = [UInt8](repeating: 0, count: rows * cols * channels)
            for i in bytes.indices {
                let x = (i / channels) % cols
                bytes[i] = UInt8((x < 26 ? 90 : 170) + Int.random(in: -4...4, using: &rng) + 10 * (i % channels))
            }
            let guide = try CVMat(rows: rows, cols: cols, channels: channels, depth: .uint8, bytes: bytes)
            let solver = try CVEdgeAware.SmootherGuide(guide: guide, sigmaColor: 8)
            for (lambda, iterations) in [(300.0, 1), (60, 2), (8, 3)] {
                let p = CVEdgeAware.SmootherParameters(lambda: lambda, sigmaColor: 8, iterations: iterations)
                let expected = try CVEdgeAware.smootherFill(guide: guide, values: values, weights: weights, parameters: p, minimumWeight: 1e-3)
                let actual = try solver.fill(values: values, weights: weights, parameters: p, minimumWeight: 1e-3)
                let (ev, av) = (MatFixtures.floats(expected.values), MatFixtures.floats(actual.values))
                let (ew, aw) = (MatFixtures.floats(expected.weight), MatFixtures.floats(actual.weight))
                XCTAssertEqual(ev.map(\.isNaN), av.map(\.isNaN), "channels \(channels) lambda \(lambda)")
                let worstValue = zip(ev, av).filter { !$0.0.isNaN }.map { abs($0.0 - $0.1) }.max() ?? 0
                let worstWeight = zip(ew, aw).map { abs($0.0 - $0.1) / max(1e-3, abs($0.0)) }.max() ?? 0
                XCTAssertLessThan(worstValue, 1e-4, "channels \(channels) lambda \(lambda) iterations \(iterations)")
                XCTAssertLessThan(worstWeight, 1e-3, "channels \(channels) lambda \(lambda) iterations \(iterations)")
                XCTAssertGreaterThan(ev.filter { !$0.isNaN }.count, rows * cols / 2, "the fill spreads the sparse weights")
            }
        }
    }

    /// The log-domain fill is exp(fill(log v)) (a weighted geometric mean);
    /// non-positive values do not count.
    func testLogDomainFillIsTheGeometricMean() throws {
        let rows = 20, cols = 30
        let guide = try MatFixtures.randomUInt8(rows: rows, cols: cols, channels: 3, seed: 4)
        let solver = try CVEdgeAware.SmootherGuide(guide: guide, sigmaColor: 30)
        let positive = try MatFixtures.float32(rows: rows, cols: cols) { x, y in 0.2 + Float((x * 7 + y * 3) % 11) * 0.3 }
        let weights = try MatFixtures.float32(rows: rows, cols: cols) { x, y in (x + y) % 3 == 0 ? 1 : 0 }
        let logs = try MatFixtures.float32(rows: rows, cols: cols) { x, y in log(0.2 + Float((x * 7 + y * 3) % 11) * 0.3) }
        let p = CVEdgeAware.SmootherParameters(lambda: 50, sigmaColor: 30, iterations: 2)
        let direct = MatFixtures.floats(try solver.fill(values: positive, weights: weights, parameters: p, logDomain: true).values)
        let viaLogs = MatFixtures.floats(try solver.fill(values: logs, weights: weights, parameters: p).values).map { exp($0) }
        for (a, b) in zip(direct, viaLogs) { XCTAssertEqual(a, b, accuracy: 1e-5 * b) }
        // No support: NaN, also in the log domain.
        let none = try MatFixtures.float32(rows: rows, cols: cols) { _, _ in 0 }
        XCTAssertTrue(MatFixtures.floats(try solver.fill(values: positive, weights: none, parameters: p, logDomain: true).values)
            .allSatisfy(\.isNaN))
        // A zero value with weight contributes nothing: same result as weight 0 there.
        let withZero = try MatFixtures.float32(rows: rows, cols: cols) { x, y in x == 3 && y == 0 ? 0 : 0.2 + Float((x * 7 + y * 3) % 11) * 0.3 }
        let zeroWeight = try MatFixtures.float32(rows: rows, cols: cols) { x, y in x == 3 && y == 0 ? 0 : ((x + y) % 3 == 0 ? 1 : 0) }
        XCTAssertEqual(MatFixtures.floats(try solver.fill(values: withZero, weights: weights, parameters: p, logDomain: true).values),
                       MatFixtures.floats(try solver.fill(values: positive, weights: zeroWeight, parameters: p, logDomain: true).values))
    }

    func testSmootherGuideRefusesMismatches() throws {
        let guide = try MatFixtures.randomUInt8(rows: 8, cols: 9, channels: 3, seed: 1)
        let solver = try CVEdgeAware.SmootherGuide(guide: guide, sigmaColor: 8)
        let small = try MatFixtures.float32(rows: 7, cols: 9) { _, _ in 1 }
        let p = CVEdgeAware.SmootherParameters(lambda: 10, sigmaColor: 8)
        assertOpenCVError(try solver.fill(values: small, weights: small, parameters: p), "edge solver fill", "9x8")
        let ok = try MatFixtures.float32(rows: 8, cols: 9) { _, _ in 1 }
        XCTAssertThrowsError(try solver.fill(values: ok, weights: ok, parameters: .init(lambda: 10, sigmaColor: 9)))
        let float = try MatFixtures.float32(rows: 8, cols: 9) { _, _ in 1 }
        assertOpenCVError(try CVEdgeAware.SmootherGuide(guide: float, sigmaColor: 8), "edge solver", "8-bit")
        assertOpenCVError(try CVEdgeAware.SmootherGuide(guide: guide, sigmaColor: 0), "edge solver", "sigma")
    }
}
