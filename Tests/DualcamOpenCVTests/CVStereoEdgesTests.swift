import DualcamOpenCV
import DualcamSupport
import XCTest

/// `CVStereo.edgeSnap` on a two-plane disparity map with known truth: a near
/// plane (left) over a far plane (right) seen from the right view, so the
/// far plane is half-occluded right of the edge for (jump x scale) pixels.
final class CVStereoEdgesTests: XCTestCase {
    static let (w, h) = (80, 60)
    static func near(_ x: Int, _ y: Int) -> Float { 20 + 0.005 * Float(y) }
    static func far(_ x: Int, _ y: Int) -> Float { 4 + 0.005 * Float(x) }
    /// Truth: near up to x = 39, far from x = 40.
    static func truth(_ x: Int, _ y: Int) -> Float { x < 40 ? near(x, y) : far(x, y) }
    /// Small deterministic noise (RMS ~0.02 px).
    static func noise(_ x: Int, _ y: Int) -> Float { 0.03 * Float(((x * 7 + y * 13) % 5) - 2) / 2 }

    /// Measured: the near plane's two rim pixels failed, the 8 half-occluded
    /// pixels (16 px jump x 0.5) are holes, and the window-straddling bias pulls
    /// the three pixels on each side towards the other surface.
    static func measured(_ x: Int, _ y: Int) -> Float {
        switch x {
        case 38..<48: return .nan
        case 35..<38: return truth(x, y) - 0.2 + noise(x, y)
        case 48..<51: return truth(x, y) + 0.2 + noise(x, y)
        default: return truth(x, y) + noise(x, y)
        }
    }

    static func mat(_ value: (Int, Int) -> Float) throws -> CVMat {
        var values = [Float]()
        for y in 0..<h { for x in 0..<w { values.append(value(x, y)) } }
        return try CVMat(rows: h, cols: w, channels: 1, depth: .float32, bytes: values.withUnsafeBytes { Array($0) })
    }

    static func values(_ m: CVMat) -> [Float] { m.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }

    func testHalfOcclusionTakesTheFarSurfaceAndTheRimsTheirOwn() throws {
        var parameters = CVEdgeSnapParameters()
        parameters.occlusionRight = true
        parameters.disparityScale = 0.5
        // A smoother's blend across the edge: the mean of both planes where nothing was measured.
        let filled = try Self.mat { x, y in
            let m = Self.measured(x, y)
            return m.isNaN ? (Self.near(x, y) + Self.far(x, y)) / 2 : m
        }
        let out = Self.values(try CVStereo.edgeSnap(measured: try Self.mat(Self.measured), filled: filled,
                                                    covered: nil, parameters: parameters))
        let input = Self.values(filled)
        var worst: Float = 0
        for y in 10..<50 {
            for x in 30..<58 {
                // Half-occluded pixels more than `radius` from the anchor (margin + 1
                // beyond the run's last hole, x = 47) take its plane flat from there.
                let start = 48 + parameters.margin + 1 - parameters.radius
                let flat = x >= 40 && x < start ? Self.far(start, y) - Self.far(x, y) : 0
                worst = max(worst, abs(out[y * Self.w + x] - Self.truth(x, y) - flat))
            }
            // Far from the edge the filled values stay.
            for x in [5, 20, 70] { XCTAssertEqual(out[y * Self.w + x], input[y * Self.w + x]) }
        }
        XCTAssertLessThan(worst, 0.05, "worst error near the edge \(worst) px")
    }

    func testUncoveredPixelsAndParametersAreRespected() throws {
        let measured = try Self.mat(Self.measured)
        let filled = try Self.mat { _, _ in 13 }
        var parameters = CVEdgeSnapParameters()
        parameters.disparityScale = 0.5
        let covered = try CVMat(rows: Self.h, cols: Self.w, channels: 1, depth: .uint8,
                                bytes: [UInt8](repeating: 0, count: Self.w * Self.h))
        let out = Self.values(try CVStereo.edgeSnap(measured: measured, filled: filled, covered: covered, parameters: parameters))
        XCTAssertTrue(out.allSatisfy { $0 == 13 })
        parameters.margin = 40
        assertOpenCVError(try CVStereo.edgeSnap(measured: measured, filled: filled, covered: nil, parameters: parameters),
                          "disparity edge snap", "margin 0 to 32")
        let bytes = try CVMat(rows: Self.h, cols: Self.w, channels: 1, depth: .uint8, bytes: [UInt8](repeating: 1, count: Self.w * Self.h))
        assertOpenCVError(try CVStereo.edgeSnap(measured: bytes, filled: filled, covered: nil), "disparity edge snap", "float32")
    }

    /// Edges found once give the same zone and the same snap as the two calls that each find them.
    func testEdgesFoundOnceMatchTheZoneAndTheSnap() throws {
        let measured = try Self.mat(Self.measured)
        let filled = try Self.mat { x, y in Self.measured(x, y).isNaN ? 12 : Self.measured(x, y) }
        let confidence = try Self.mat { x, _ in x % 3 == 0 ? 0.5 : 1 }
        var parameters = CVEdgeSnapParameters()
        parameters.disparityScale = 0.5
        let edges = try CVEdgeZone(measured: measured, parameters: parameters)
        XCTAssertEqual(edges.zone.packedBytes(), try CVStereo.edgeZone(measured: measured, parameters: parameters).packedBytes())
        XCTAssertEqual(try edges.snap(confidence: confidence, filled: filled, covered: nil).packedBytes(),
                       try CVStereo.edgeSnap(measured: measured, confidence: confidence, filled: filled, covered: nil,
                                             parameters: parameters).packedBytes())
        let small = try CVMat(rows: 10, cols: 10, channels: 1, depth: .float32,
                              bytes: [Float](repeating: 1, count: 100).withUnsafeBytes { Array($0) })
        assertOpenCVError(try edges.snap(filled: small, covered: nil), "disparity edge snap", "one size")
    }
}
