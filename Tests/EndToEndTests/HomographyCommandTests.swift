import DualcamCalibrationFiles
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

/// Plain 3x3 arithmetic on row-major [[Double]], independent of DualcamGeometry's
/// Matrix3 and PlaneHomography, for checking the command's output.
enum Plain {
    typealias M = [[Double]]

    static func mul(_ a: M, _ b: M) -> M {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0.0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func rows(_ rowMajor: [Double]) -> M { [Array(rowMajor[0..<3]), Array(rowMajor[3..<6]), Array(rowMajor[6..<9])] }

    static func flat(_ m: M) -> [Double] { m.flatMap { $0 } }

    /// Scaled so that m[2][2] = 1.
    static func normalized(_ m: M) -> M { m.map { $0.map { $0 / m[2][2] } } }

    /// K = [fx s cx; 0 fy cy; 0 0 1].
    static func k(fx: Double, fy: Double, skew: Double, cx: Double, cy: Double) -> M {
        [[fx, skew, cx], [0, fy, cy], [0, 0, 1]]
    }

    /// The closed-form inverse of an upper-triangular K.
    static func kInverse(fx: Double, fy: Double, skew: Double, cx: Double, cy: Double) -> M {
        [[1 / fx, -skew / (fx * fy), (skew * cy - cx * fy) / (fx * fy)],
         [0, 1 / fy, -cy / fy],
         [0, 0, 1]]
    }

    /// The general inverse by cofactors.
    static func inverse(_ m: M) -> M {
        let c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1]
        let c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2]
        let c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0]
        let det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02
        let adj: M = [
            [c00, m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][1] * m[1][2] - m[0][2] * m[1][1]],
            [c01, m[0][0] * m[2][2] - m[0][2] * m[2][0], m[0][2] * m[1][0] - m[0][0] * m[1][2]],
            [c02, m[0][1] * m[2][0] - m[0][0] * m[2][1], m[0][0] * m[1][1] - m[0][1] * m[1][0]],
        ]
        return adj.map { $0.map { $0 / det } }
    }
}

final class HomographyCommandTests: XCTestCase {
    struct Output {
        let json: [String: Any]
        let h: [Double]
        let inverse: [Double]
    }

    func homography(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Output {
        let result = try E2E.succeed(["homography"] + arguments + ["--json"], file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        let json = try E2E.jsonObject(result.stdout, file: file, line: line)
        let h = E2E.doubles(json["homography"], file: file, line: line)
        let inverse = E2E.doubles(json["inverse"], file: file, line: line)
        XCTAssertEqual(h.count, 9, file: file, line: line)
        XCTAssertEqual(inverse.count, 9, file: file, line: line)
        return Output(json: json, h: h, inverse: inverse)
    }

    /// Elementwise |a - b| <= relative * max|b| (a relative error on the matrix).
    func assertMatrixClose(_ a: [Double], _ b: [Double], relative: Double, _ message: String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, 9, file: file, line: line)
        XCTAssertEqual(b.count, 9, file: file, line: line)
        let scale = b.map(abs).max() ?? 0
        for (i, (x, y)) in zip(a, b).enumerated() where !(abs(x - y) <= relative * scale) {
            XCTFail("element \(i): \(x) vs \(y) (tolerance \(relative) x \(scale)). \(message)", file: file, line: line)
            return
        }
    }

    /// Elementwise relative comparison, each element against itself.
    func assertEachClose(_ a: [Double], _ b: [Double], relative: Double, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertClose(a, b, relative: relative, message, file: file, line: line)
    }

    /// K_to (R + t n^T / d) K_from^-1 from the nominal rig, computed by hand.
    /// `d` in metres (nil: the plane at infinity), scale factors for the buffers.
    static func expectedNominal(normal: [Double] = [0, 0, 1], distanceMetres d: Double?,
                                sourceScale: Double = 1, targetScale: Double = 1) throws -> [Double] {
        let rig = try NominalDevice.load().rig
        let wide = try rig.camera(.wide).model.intrinsics
        let tele = try rig.camera(.tele).model.intrinsics
        let teleFromWide = try rig.cameraFromReference(.tele, unit: .metre)
        let r = teleFromWide.rotation.matrix.rowMajor
        let t = [teleFromWide.translation.x, teleFromWide.translation.y, teleFromWide.translation.z]
        let length = (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).squareRoot()
        let n = normal.map { $0 / length }
        var core = Plain.rows(r)
        if let d {
            for i in 0..<3 { for j in 0..<3 { core[i][j] += t[i] * n[j] / d } }
        }
        let s = sourceScale, u = targetScale
        let kTele = Plain.k(fx: tele.fx * u, fy: tele.fy * u, skew: tele.skew * u, cx: tele.cx * u, cy: tele.cy * u)
        let kWideInv = Plain.kInverse(fx: wide.fx * s, fy: wide.fy * s, skew: wide.skew * s,
                                      cx: wide.cx * s, cy: wide.cy * s)
        return Plain.flat(Plain.normalized(Plain.mul(Plain.mul(kTele, core), kWideInv)))
    }

    func testNominalAt1_2mMatchesAnIndependentComputation() throws {
        let out = try homography(["--distance", "1.2m"])
        XCTAssertEqual(out.json["from"] as? String, "wide")
        XCTAssertEqual(out.json["to"] as? String, "tele")
        XCTAssertEqual(E2E.double(out.json["distance_metres"]), 1.2)
        XCTAssertEqual(E2E.doubles(out.json["normal"]), [0, 0, 1])
        XCTAssertEqual(E2E.doubles(out.json["from_size"]), [4032, 3024])
        XCTAssertEqual(E2E.doubles(out.json["to_size"]), [4032, 3024])
        XCTAssertEqual(out.h[8], 1, "normalised so that H[2][2] = 1")
        XCTAssertEqual(out.inverse[8], 1)

        // H * H_inverse ~ I (up to scale, which is 1 here since both are normalised).
        let product = Plain.flat(Plain.normalized(Plain.mul(Plain.rows(out.h), Plain.rows(out.inverse))))
        assertMatrixClose(product, [1, 0, 0, 0, 1, 0, 0, 0, 1], relative: 1e-9, "H * H^-1")

        let expected = try Self.expectedNominal(distanceMetres: 1.2)
        assertEachClose(out.h, expected, relative: 1e-9, "H vs K_t (R + t n^T/d) K_w^-1")
        assertEachClose(out.inverse, Plain.flat(Plain.normalized(Plain.inverse(Plain.rows(expected)))),
                        relative: 1e-9, "H_inverse")

        // Sanity: a 2x tele roughly doubles coordinates about the centre.
        XCTAssertClose(out.h[0], 2, absolute: 0.01)
        XCTAssertClose(out.h[4], 2, absolute: 0.01)
    }

    func testTextOutputShowsBothMatrices() throws {
        let result = try E2E.succeed(["homography", "--distance", "1.2m"])
        XCTAssertEqual(result.stderr, "")
        let text = result.stdout
        XCTAssertTrue(text.contains("H tele<-wide (4032x3024 -> 4032x3024):"), text)
        XCTAssertTrue(text.contains("H^-1 wide<-tele:"), text)
        XCTAssertTrue(text.contains("d = 1.2 m"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 10, text)
    }

    func testEquivalentDistancesGiveTheSameHomography() throws {
        let metres = try homography(["--distance", "1.2m"])
        for spelling in ["120cm", "1200mm", "1.2 m", "1.20m"] {
            let other = try homography(["--distance", spelling])
            assertEachClose(other.h, metres.h, relative: 1e-12, spelling)
            XCTAssertClose(E2E.double(other.json["distance_metres"]), 1.2, relative: 1e-12, spelling)
        }
        let feet = try homography(["--distance", "4ft"])
        let inches = try homography(["--distance", "48in"])
        assertEachClose(feet.h, inches.h, relative: 1e-12, "4ft vs 48in")
        XCTAssertClose(E2E.double(feet.json["distance_metres"]), 1.2192, relative: 1e-12)
        assertEachClose(feet.h, try Self.expectedNominal(distanceMetres: 1.2192), relative: 1e-9)
        // 1.2 m and 4 ft (1.2192 m) really are different planes.
        XCTAssertGreaterThan(abs(feet.h[2] - metres.h[2]), 0.01)
    }

    func testInfiniteDistanceGivesTheInfiniteHomography() throws {
        let out = try homography(["--distance", "inf"])
        XCTAssertNil(out.json["distance_metres"] as? NSNumber, "no finite distance")
        assertEachClose(out.h, try Self.expectedNominal(distanceMetres: nil), relative: 1e-9, "K_t R K_w^-1")
        // Far planes converge to it; near ones do not.
        let far = try homography(["--distance", "1000000m"])
        assertMatrixClose(far.h, out.h, relative: 1e-6)
        let near = try homography(["--distance", "1.2m"])
        XCTAssertGreaterThan(abs(near.h[2] - out.h[2]), 1)
    }

    func testTiltedPlaneNormal() throws {
        let out = try homography(["--distance", "1.2m", "--normal", "0,0.5,1"])
        let length = (1.25).squareRoot()
        XCTAssertClose(E2E.doubles(out.json["normal"]), [0, 0.5 / length, 1 / length], relative: 1e-15)
        assertEachClose(out.h, try Self.expectedNominal(normal: [0, 0.5, 1], distanceMetres: 1.2), relative: 1e-9)
        let fronto = try homography(["--distance", "1.2m"])
        XCTAssertGreaterThan(abs(out.h[1] - fronto.h[1]), 1e-3, "the tilt changes H")
        // The normal is normalised: a scaled normal is the same plane.
        let scaled = try homography(["--distance", "1.2m", "--normal", "0,5,10"])
        assertEachClose(scaled.h, out.h, relative: 1e-12)
    }

    func testTeleToWideIsTheInverseOfWideToTele() throws {
        // At infinity the plane does not depend on the camera it is given in.
        let forward = try homography(["--distance", "inf"])
        let backward = try homography(["--distance", "inf", "--from", "tele", "--to", "wide"])
        XCTAssertEqual(backward.json["from"] as? String, "tele")
        XCTAssertEqual(backward.json["to"] as? String, "wide")
        assertEachClose(backward.h, forward.inverse, relative: 1e-9, "H wide<-tele at infinity")

        // A finite plane n^T X_w = d in wide coordinates is (R n)^T X_t = d + (R n)^T t in tele coordinates.
        let rig = try NominalDevice.load().rig
        let teleFromWide = try rig.cameraFromReference(.tele, unit: .metre)
        let nTele = teleFromWide.rotation.matrix * Vector3(0, 0, 1)
        let dTele = 1.2 + nTele.dot(teleFromWide.translation)
        let wideToTele = try homography(["--distance", "1.2m"])
        let teleToWide = try homography(["--distance", "\(dTele)m", "--normal", "\(nTele.x),\(nTele.y),\(nTele.z)",
                                         "--from", "tele", "--to", "wide"])
        let product = Plain.flat(Plain.normalized(Plain.mul(Plain.rows(teleToWide.h), Plain.rows(wideToTele.h))))
        assertMatrixClose(product, [1, 0, 0, 0, 1, 0, 0, 0, 1], relative: 1e-9, "H_w<-t H_t<-w on the same plane")
        assertEachClose(teleToWide.h, wideToTele.inverse, relative: 1e-9)
        // The same numbers in the tele frame are a different plane.
        let naive = try homography(["--distance", "1.2m", "--from", "tele", "--to", "wide"])
        XCTAssertGreaterThan(abs(naive.h[2] - wideToTele.inverse[2]), 1e-3, "the plane moved by (R n)^T t = \(dTele - 1.2) m")
    }

    func testBufferSizesScaleTheIntrinsics() throws {
        let full = try homography(["--distance", "1.2m"])
        let half = try homography(["--distance", "1.2m", "--from-size", "2016x1512", "--to-size", "2016x1512"])
        XCTAssertEqual(E2E.doubles(half.json["from_size"]), [2016, 1512])
        XCTAssertEqual(E2E.doubles(half.json["to_size"]), [2016, 1512])
        // H_half = S H S^-1 with S = diag(1/2, 1/2, 1).
        let s: Plain.M = [[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1]]
        let sInverse: Plain.M = [[2, 0, 0], [0, 2, 0], [0, 0, 1]]
        let expected = Plain.flat(Plain.normalized(Plain.mul(Plain.mul(s, Plain.rows(full.h)), sInverse)))
        assertEachClose(half.h, expected, relative: 1e-12, "S H S^-1")
        assertEachClose(half.h, try Self.expectedNominal(distanceMetres: 1.2, sourceScale: 0.5, targetScale: 0.5),
                        relative: 1e-9)
        // Only the source scaled.
        let mixed = try homography(["--distance", "1.2m", "--from-size", "1008x756"])
        XCTAssertEqual(E2E.doubles(mixed.json["to_size"]), [4032, 3024])
        assertEachClose(mixed.h, try Self.expectedNominal(distanceMetres: 1.2, sourceScale: 0.25), relative: 1e-9)
    }

    func testOtherCalibrationFiles() throws {
        let dir = try TemporaryDirectory()
        try E2E.adirondackCalib.write(to: dir.path("calib.txt"), atomically: true, encoding: .utf8)
        let out = try homography(["--calibration", "calib.txt", "--distance", "1.2m"], in: dir)
        // Rectified pair, R = I, t = (-0.176252, 0, 0) m: H = [1 0 cx1 - cx0 - f b / d; 0 1 0; 0 0 1].
        let shift = 1654.636 - 1445.577 - 4161.221 * 0.176252 / 1.2
        assertMatrixClose(out.h, [1, 0, shift, 0, 1, 0, 0, 0, 1], relative: 1e-12)
        XCTAssertEqual(out.json["calibration"] as? String, "calib.txt")
        // The nominal file gives what the built-in profile gives.
        let fromFile = try homography(["--calibration", E2E.nominalPath, "--distance", "1.2m"])
        XCTAssertEqual(fromFile.h, try homography(["--distance", "1.2m"]).h)
    }

    func homography(_ arguments: [String], in dir: TemporaryDirectory) throws -> Output {
        let result = try E2E.succeed(["homography"] + arguments + ["--json"], in: dir)
        let json = try E2E.jsonObject(result.stdout)
        return Output(json: json, h: E2E.doubles(json["homography"]), inverse: E2E.doubles(json["inverse"]))
    }
}
