import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

final class CVRemapTableTests: XCTestCase {
    func testPreparedTableEqualsFloatMapRemap() throws {
        let mapX = try MatFixtures.float32(rows: 30, cols: 40) { x, y in Float(x) * 0.9 + Float(y) * 0.13 + 2.37 }
        let mapY = try MatFixtures.float32(rows: 30, cols: 40) { x, y in Float(y) * 1.07 - Float(x) * 0.05 + 1.61 }
        let table = try CVRemapTable(mapX: mapX, mapY: mapY)
        XCTAssertEqual([table.rows, table.cols], [30, 40])
        let src = try MatFixtures.randomUInt8(rows: 36, cols: 44, channels: 3, seed: 5)
        for interpolation in [CVInterpolation.linear, .cubic, .lanczos4] {
            for border in [CVBorder.zero, .replicate] {
                let expected = try CVImgproc.remap(src, mapX: mapX, mapY: mapY, interpolation: interpolation, border: border)
                let actual = try table.apply(src, interpolation: interpolation, border: border)
                XCTAssertEqual([actual.rows, actual.cols, actual.channels], [30, 40, 3])
                let worst = zip(actual.packedBytes(), expected.packedBytes()).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 1, "\(interpolation) \(border)")
            }
        }
    }

    func testInvalidArgumentsThrow() throws {
        let mapX = try MatFixtures.float32(rows: 4, cols: 5) { x, _ in Float(x) }
        let small = try MatFixtures.float32(rows: 3, cols: 5) { _, y in Float(y) }
        assertOpenCVError(try CVRemapTable(mapX: mapX, mapY: small), "convertMaps", "y map")
        let bytes = try MatFixtures.randomUInt8(rows: 4, cols: 5, channels: 1, seed: 1)
        assertOpenCVError(try CVRemapTable(mapX: mapX, mapY: bytes), "convertMaps", "float32")
        let table = try CVRemapTable(mapX: mapX, mapY: mapX)
        assertOpenCVError(try table.apply(bytes, interpolation: .nearest), "remap", "nearest")
        assertOpenCVError(try table.apply(bytes, border: .constant(value: .nan)), "remap", "float image")
    }
}
