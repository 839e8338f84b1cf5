import DualcamGeometry
import Foundation
import TestSupport
import XCTest

// Shared helpers for the geometry tests: comparisons of vectors and matrices,
// seeded random geometry, and an independent pinhole projection.

func XCTAssertClose(
    _ a: Vector2, _ b: Vector2, absolute: Double, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertClose([a.x, a.y], [b.x, b.y], absolute: absolute, message(), file: file, line: line)
}

func XCTAssertClose(
    _ a: Vector3, _ b: Vector3, absolute: Double, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertClose([a.x, a.y, a.z], [b.x, b.y, b.z], absolute: absolute, message(), file: file, line: line)
}

func XCTAssertClose(
    _ a: Matrix3, _ b: Matrix3, absolute: Double = 0, relative: Double = 0,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertClose(a.rowMajor, b.rowMajor, absolute: absolute, relative: relative, message(), file: file, line: line)
}

/// Asserts that `body` throws a `GeometryError` and returns it (nil, after failing, otherwise).
@discardableResult
func assertGeometryError<T>(
    _ body: @autoclosure () throws -> T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) -> GeometryError? {
    do {
        let value = try body()
        XCTFail("expected a GeometryError, got \(value). \(message)", file: file, line: line)
        return nil
    } catch let error as GeometryError {
        return error
    } catch {
        XCTFail("expected a GeometryError, got \(type(of: error)): \(error). \(message)", file: file, line: line)
        return nil
    }
}

extension RandomNumberGenerator {
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// A uniformly distributed unit vector.
    mutating func unitVector() -> Vector3 {
        while true {
            let v = Vector3(uniform(-1...1), uniform(-1...1), uniform(-1...1))
            let n = v.norm
            if n > 0.1, n <= 1 { return v / n }
        }
    }

    /// A rotation about a random axis by an angle uniform in `degrees`.
    mutating func rotation(degrees: ClosedRange<Double>) -> Rotation {
        Rotation(axis: unitVector(), angle: Angle.radians(uniform(degrees)))
    }
}

/// The skew-symmetric cross-product matrix [k]x, built independently of the library.
func crossMatrix(_ k: Vector3) -> Matrix3 {
    Matrix3(rows: Vector3(0, -k.z, k.y), Vector3(k.z, 0, -k.x), Vector3(-k.y, k.x, 0))
}

/// Independent pinhole projection u = K X / Z written out by hand (no library projection code).
func pinholeProject(_ x: Vector3, fx: Double, fy: Double, skew: Double, cx: Double, cy: Double) -> Vector2 {
    Vector2(fx * x.x / x.z + skew * x.y / x.z + cx, fy * x.y / x.z + cy)
}

func pinholeProject(_ x: Vector3, _ k: Intrinsics) -> Vector2 {
    pinholeProject(x, fx: k.fx, fy: k.fy, skew: k.skew, cx: k.cx, cy: k.cy)
}

/// A typical 12 MP wide camera (4032x3024, ~69 deg horizontal FOV).
func wideIntrinsics() throws -> Intrinsics {
    try Intrinsics(fx: 2900, fy: 2900, skew: 0, cx: 2016.5, cy: 1511.25,
                   referenceSize: PixelSize(width: 4032, height: 3024))
}

/// A typical 2x tele camera at the same size.
func teleIntrinsics() throws -> Intrinsics {
    try Intrinsics(fx: 5800, fy: 5805, skew: 0.3, cx: 2010.0, cy: 1520.5,
                   referenceSize: PixelSize(width: 4032, height: 3024))
}
