import Foundation
import XCTest

/// Tolerance assertions in the style of swift-numerics' ApproximateEquality:
/// `|a - b| <= max(absolute, relative * max(|a|, |b|))`, NaN equal only to NaN
/// when `nanEqual` is set.
public func isApproximatelyEqual(
    _ a: Double, _ b: Double, absoluteTolerance: Double = 0, relativeTolerance: Double = 0,
    nanEqual: Bool = false
) -> Bool {
    if a.isNaN || b.isNaN { return nanEqual && a.isNaN && b.isNaN }
    if a == b { return true }  // covers equal infinities
    let tolerance = max(absoluteTolerance, relativeTolerance * max(abs(a), abs(b)))
    return abs(a - b) <= tolerance
}

public func XCTAssertClose(
    _ a: Double, _ b: Double, absolute: Double = 0, relative: Double = 0,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertTrue(
        isApproximatelyEqual(a, b, absoluteTolerance: absolute, relativeTolerance: relative),
        "\(a) is not within (abs \(absolute), rel \(relative)) of \(b). \(message())",
        file: file, line: line)
}

public func XCTAssertClose(
    _ a: [Double], _ b: [Double], absolute: Double = 0, relative: Double = 0,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(a.count, b.count, "count differs. \(message())", file: file, line: line)
    for (i, (x, y)) in zip(a, b).enumerated()
    where !isApproximatelyEqual(x, y, absoluteTolerance: absolute, relativeTolerance: relative) {
        XCTFail("element \(i): \(x) is not within (abs \(absolute), rel \(relative)) of \(y). \(message())",
                file: file, line: line)
        return
    }
}

/// A seeded, portable pseudo-random generator (SplitMix64) so that randomized
/// tests are reproducible: a failure message prints the seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
