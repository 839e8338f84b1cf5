import DualcamImaging
import Foundation
import TestSupport
import XCTest

final class ConversionAndStatisticsTests: XCTestCase {
    // MARK: init(width:height:channels:element:values:)

    func testUInt8RoundsToNearestAndSaturates() throws {
        let input: [Double] = [-1, -0.4, 0.4, 0.5, 1.49, 1.5, 2.5, 127.5, 254.5, 255, 255.4, 300, .infinity, -.infinity,
                               .nan, -.nan, 1e300]
        let expected: [UInt8] = [0, 0, 0, 1, 1, 2, 3, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255]
        let image = try Image(width: input.count, height: 1, channels: 1, element: .uint8, values: input)
        XCTAssertEqual(image.element, .uint8)
        XCTAssertEqual(try image.pixels(as: UInt8.self), expected)
    }

    func testUInt16RoundsToNearestAndSaturates() throws {
        let input: [Double] = [-70000, -0.5, 0.49, 0.5, 1234.49, 1234.5, 65534.4, 65534.5, 65535, 65535.6, 70000,
                               .infinity, -.infinity, .nan]
        let expected: [UInt16] = [0, 0, 0, 1, 1234, 1235, 65534, 65535, 65535, 65535, 65535, 65535, 0, 0]
        let image = try Image(width: 7, height: 2, channels: 1, element: .uint16, values: input)
        XCTAssertEqual(try image.pixels(as: UInt16.self), expected)
    }

    func testFloat16RoundsToNearestEvenOnceFromDouble() throws {
        let ulp = 0x1p-10  // spacing of float16 in [1, 2)
        let input: [Double] = [
            1 + ulp / 2,            // tie: to even, 1
            1 + 3 * ulp / 2,        // tie: to even, 1 + 2 ulp
            1 + ulp / 2 + 0x1p-40,  // just above the tie: up (double rounding through Float would give 1)
            1 + ulp / 2 - 0x1p-40,  // just below: down
            65504, 65519.99, 65520, // largest finite; below the overflow threshold; the threshold rounds to inf
            -65520, 1e-8, -1e-8, 0x1p-24, 0.1, .nan, .infinity,
        ]
        let image = try Image(width: input.count, height: 1, channels: 1, element: .float16, values: input)
        let values = try image.pixels(as: Float16.self)
        let expected: [Float16] = [
            1, Float16(1 + 2 * ulp), Float16(1 + ulp), 1,
            65504, 65504, .infinity,
            -.infinity, 0, -0.0, .leastNonzeroMagnitude, Float16(0.1), .nan, .infinity,
        ]
        XCTAssertEqual(values.count, expected.count)
        for (i, (v, e)) in zip(values, expected).enumerated() {
            if e.isNaN {
                XCTAssertTrue(v.isNaN, "value \(i): \(input[i]) -> \(v)")
            } else {
                XCTAssertEqual(v.bitPattern, e.bitPattern, "value \(i): \(input[i]) -> \(v), expected \(e)")
            }
        }
        XCTAssertEqual(Double(values[11]), 0.0999755859375, "0.1 rounds to the nearest float16")
    }

    func testFloat32RoundsToNearestFloat() throws {
        let input: [Double] = [0.1, 1 / 3, 1e40, -1e-50, .pi, -0.0]
        let image = try Image(width: 3, height: 2, channels: 1, element: .float32, values: input)
        let values = try image.pixels(as: Float.self)
        XCTAssertEqual(values.map(\.bitPattern), [Float(0.1), Float(1.0 / 3), .infinity, -0.0, Float(Double.pi), -0.0].map(\.bitPattern))
    }

    func testInitChecksTheValueCountAndSize() {
        XCTAssertThrowsError(try Image(width: 2, height: 2, channels: 1, element: .uint8, values: [1, 2, 3]))
        XCTAssertThrowsError(try Image(width: 2, height: 2, channels: 1, element: .float32, values: [1, 2, 3, 4, 5]))
        XCTAssertThrowsError(try Image(width: 1, height: 1, channels: 2, element: .uint16, values: [1, 2]))
        XCTAssertThrowsError(try Image(width: 0, height: 1, channels: 1, element: .float16, values: []))
    }

    // MARK: doubleValues()

    func testDoubleValuesAreExactForEveryElement() throws {
        let u8: [UInt8] = [0, 1, 128, 255, 7, 9]
        XCTAssertEqual(try Image(width: 1, height: 2, channels: 3, pixels: u8).doubleValues(), u8.map(Double.init))
        let u16: [UInt16] = [0, 1, 256, 65535]
        XCTAssertEqual(try Image(width: 2, height: 2, channels: 1, pixels: u16).doubleValues(), [0, 1, 256, 65535])
        let f16: [Float16] = [0.1, -2.5, .infinity, 65504]
        XCTAssertEqual(try Image(width: 4, height: 1, channels: 1, pixels: f16).doubleValues(),
                       [0.0999755859375, -2.5, .infinity, 65504])
        let f32: [Float] = [0.1, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        let doubles = try Image(width: 1, height: 1, channels: 4, pixels: f32).doubleValues()
        XCTAssertEqual(doubles.map(\.bitPattern), f32.map { Double($0).bitPattern })
        let nan = try Image(width: 1, height: 1, channels: 1, pixels: [Float.nan]).doubleValues()
        XCTAssertTrue(nan[0].isNaN)
    }

    // MARK: converted(to:)

    func testConvertedKeepsValuesAndShape() throws {
        let u8: [UInt8] = [0, 3, 128, 255, 17, 200]
        let image = try Image(width: 2, height: 1, channels: 3, pixels: u8)
        for element in PixelElement.allCases {
            let converted = image.converted(to: element)
            XCTAssertEqual(converted.element, element)
            XCTAssertEqual(converted.width, 2)
            XCTAssertEqual(converted.height, 1)
            XCTAssertEqual(converted.channels, 3)
            XCTAssertEqual(converted.doubleValues(), u8.map(Double.init), "uint8 -> \(element) keeps values, no rescale")
            XCTAssertEqual(converted.converted(to: .uint8), image, "and back")
        }
        XCTAssertEqual(image.converted(to: .uint8), image)
    }

    func testConvertedToNarrowerTypesRoundsAndSaturates() throws {
        let floats: [Float] = [.nan, -3, 0.5, 1.5, 254.6, 255.5, 1000, .infinity]
        let image = try Image(width: 4, height: 2, channels: 1, pixels: floats)
        XCTAssertEqual(try image.converted(to: .uint8).pixels(as: UInt8.self), [0, 0, 1, 2, 255, 255, 255, 255])
        XCTAssertEqual(try image.converted(to: .uint16).pixels(as: UInt16.self), [0, 0, 1, 2, 255, 256, 1000, 65535])
        let half = try image.converted(to: .float16).pixels(as: Float16.self)
        XCTAssertTrue(half[0].isNaN, "NaN stays NaN in float16")
        XCTAssertEqual(Array(half[1...]), [-3, 0.5, 1.5, Float16(254.6), 255.5, 1000, .infinity])

        let wide: [UInt16] = [0, 255, 256, 65535]
        XCTAssertEqual(try Image(width: 2, height: 2, channels: 1, pixels: wide).converted(to: .uint8).pixels(as: UInt8.self),
                       [0, 255, 255, 255])
        let big: [Float] = [70000, 65519, 65520, 1e-9]
        XCTAssertEqual(try Image(width: 4, height: 1, channels: 1, pixels: big).converted(to: .float16).pixels(as: Float16.self),
                       [.infinity, 65504, .infinity, 0])
    }

    func testFloat32ThroughFloat16IsIdempotent() throws {
        var rng = SeededGenerator(seed: 5)
        let values = (0..<64).map { _ in Float.random(in: -70000...70000, using: &rng) }
        let once = try Image(width: 8, height: 8, channels: 1, pixels: values).converted(to: .float16)
        XCTAssertEqual(once.converted(to: .float32).converted(to: .float16), once)
    }

    // MARK: ImageStatistics

    func testStatisticsCountNaNAndInfinitySeparately() throws {
        let values: [Float] = [1, .nan, -2, .infinity, 4, -.infinity, .nan, 0.5, Float(bitPattern: 0x7FC0_1234)]
        let stats = ImageStatistics(try Image(width: 3, height: 1, channels: 3, pixels: values))
        XCTAssertEqual(stats.finiteCount, 4)
        XCTAssertEqual(stats.nanCount, 3)
        XCTAssertEqual(stats.infiniteCount, 2)
        XCTAssertEqual(stats.minimum, -2)
        XCTAssertEqual(stats.maximum, 4)
        XCTAssertEqual(stats.mean, 3.5 / 4)
    }

    func testStatisticsWithoutFiniteValuesHaveNoRange() throws {
        let stats = ImageStatistics(try Image(width: 2, height: 2, channels: 1, pixels: [Float.nan, .nan, .infinity, .nan]))
        XCTAssertEqual(stats.finiteCount, 0)
        XCTAssertEqual(stats.nanCount, 3)
        XCTAssertEqual(stats.infiniteCount, 1)
        XCTAssertNil(stats.minimum)
        XCTAssertNil(stats.maximum)
        XCTAssertNil(stats.mean)
        // Encodable even so (no NaN reaches the JSON encoder).
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(stats)) as? [String: Any]
        XCTAssertEqual(json?["nanCount"] as? Int, 3)
        XCTAssertNil(json?["minimum"] as? Double)
    }

    func testStatisticsOfIntegerAndHalfImages() throws {
        let u16: [UInt16] = [0, 65535, 1000, 1]
        let s16 = ImageStatistics(try Image(width: 4, height: 1, channels: 1, pixels: u16))
        XCTAssertEqual(s16.finiteCount, 4)
        XCTAssertEqual(s16.nanCount, 0)
        XCTAssertEqual(s16.infiniteCount, 0)
        XCTAssertEqual(s16.minimum, 0)
        XCTAssertEqual(s16.maximum, 65535)
        XCTAssertEqual(s16.mean, 66536.0 / 4)

        let u8 = ImageStatistics(try Image(width: 1, height: 1, channels: 3, pixels: [UInt8]([3, 3, 3])))
        XCTAssertEqual(u8.minimum, 3)
        XCTAssertEqual(u8.maximum, 3)
        XCTAssertEqual(u8.mean, 3)

        let f16: [Float16] = [.nan, -.infinity, 2, -0.5]
        let sHalf = ImageStatistics(try Image(width: 2, height: 2, channels: 1, pixels: f16))
        XCTAssertEqual(sHalf.finiteCount, 2)
        XCTAssertEqual(sHalf.nanCount, 1)
        XCTAssertEqual(sHalf.infiniteCount, 1)
        XCTAssertEqual(sHalf.minimum, -0.5)
        XCTAssertEqual(sHalf.maximum, 2)
        XCTAssertEqual(sHalf.mean, 0.75)
    }

    func testStatisticsOfExtremeFloatsDoNotOverflow() throws {
        let values: [Float] = [.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        let stats = ImageStatistics(try Image(width: 3, height: 1, channels: 1, pixels: values))
        XCTAssertEqual(stats.finiteCount, 3)
        XCTAssertEqual(stats.infiniteCount, 0)
        XCTAssertEqual(stats.mean, Double(Float.greatestFiniteMagnitude) / 3)
    }
}
