import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Asserts that `body` throws a `DualcamError` whose description is one line
/// containing `path` (and `fragment`, when given); returns the error.
@discardableResult
func assertThrowsDualcamError<T>(
    _ body: @autoclosure () throws -> T, mentioning path: String, _ fragment: String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) -> DualcamError? {
    do {
        _ = try body()
        XCTFail("expected an error mentioning \(path)", file: file, line: line)
        return nil
    } catch let error as DualcamError {
        let text = error.description
        XCTAssertTrue(text.contains(path), "'\(text)' does not name \(path)", file: file, line: line)
        XCTAssertFalse(text.contains("\n"), "'\(text)' spans several lines", file: file, line: line)
        if let fragment {
            XCTAssertTrue(text.contains(fragment), "'\(text)' does not contain '\(fragment)'", file: file, line: line)
        }
        return error
    } catch {
        XCTFail("\(error) is not a DualcamError", file: file, line: line)
        return nil
    }
}

/// Test images filled from a seeded generator.
enum Fixtures {
    /// Random bit patterns: for float types this includes NaNs with payloads,
    /// infinities, subnormals and -0.
    static func randomBits(width: Int, height: Int, channels: Int, element: PixelElement, seed: UInt64) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        let count = width * height * channels * element.byteCount
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return try Image(width: width, height: height, channels: channels, element: element, bytes: bytes)
    }

    /// Float32 values from `values` repeated, plus random finite values.
    static func float32(width: Int, height: Int, channels: Int, specials: [Float] = [], seed: UInt64) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        var values = (0..<(width * height * channels)).map { _ in Float.random(in: -1000...1000, using: &rng) }
        for (i, special) in specials.enumerated() where i < values.count { values[i] = special }
        return try Image(width: width, height: height, channels: channels, pixels: values)
    }

    /// Float32 bit patterns that include NaN payloads and both infinities.
    static let specialFloats: [Float] = [
        .infinity, -.infinity, .nan, Float(bitPattern: 0x7FC0_1234), Float(bitPattern: 0xFFA0_0001),
        Float(bitPattern: 0x7F80_0001), -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ]
}

extension Image {
    /// The bit patterns of a float32 image, for exact comparisons.
    var float32Bits: [UInt32] { ((try? pixels(as: Float.self)) ?? []).map(\.bitPattern) }
}
