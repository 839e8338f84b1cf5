import DualcamOpenCV
import DualcamSupport
import XCTest

final class CVMatTests: XCTestCase {
    func testVersionLooksLikeOpenCV4() {
        XCTAssertTrue(OpenCVInfo.version.hasPrefix("4."), OpenCVInfo.version)
    }

    func testCreateFromPackedBytesAndReadBack() throws {
        let bytes: [UInt8] = (0..<36).map { (i: Int) -> UInt8 in UInt8(i * 7 % 256) }
        let mat = try CVMat(rows: 2, cols: 3, channels: 3, depth: .uint16, bytes: bytes)
        XCTAssertEqual(mat.rows, 2)
        XCTAssertEqual(mat.cols, 3)
        XCTAssertEqual(mat.channels, 3)
        XCTAssertEqual(mat.depth, CVMat.Depth.uint16)
        XCTAssertEqual(mat.elementSize, 6)
        XCTAssertGreaterThanOrEqual(mat.step, 18)
        XCTAssertEqual(mat.packedBytes(), bytes)
    }

    func testCreateFromPaddedRowsDropsThePadding() throws {
        // 2 rows of 3 float32, 16 bytes apart (4 bytes of padding per row).
        let rows: [[Float]] = [[1, 2, 3, -1], [4, 5, 6, -1]]
        let padded = rows.flatMap { $0 }
        let mat = try padded.withUnsafeBytes {
            try CVMat(rows: 2, cols: 3, channels: 1, depth: .float32, data: $0.baseAddress, rowStride: 16)
        }
        let values = mat.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertEqual(values, [1, 2, 3, 4, 5, 6])
    }

    func testZeroFilledAndMutable() throws {
        let mat = try CVMat(rows: 4, cols: 5, channels: 1, depth: .float64)
        XCTAssertEqual(mat.packedBytes(), [UInt8](repeating: 0, count: 4 * 5 * 8))
        mat.withUnsafeMutableBytes { $0.storeBytes(of: 2.5, toByteOffset: 0, as: Double.self) }
        XCTAssertEqual(mat.withUnsafeBytes { $0.load(as: Double.self) }, 2.5)
    }

    func testInvalidArgumentsThrowInsteadOfCrashing() {
        XCTAssertThrowsError(try CVMat(rows: 0, cols: 3, channels: 1, depth: .uint8)) { error in
            guard case .openCV(_, let message)? = error as? DualcamError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("at least 1x1"), message)
        }
        XCTAssertThrowsError(try CVMat(rows: 2, cols: 2, channels: 1, depth: .uint8, bytes: [1, 2, 3]))
        XCTAssertThrowsError(try CVMat(rows: 2, cols: 2, channels: 600, depth: .uint8))
        let bytes = [UInt8](repeating: 0, count: 8)
        XCTAssertThrowsError(try bytes.withUnsafeBytes {
            try CVMat(rows: 2, cols: 4, channels: 1, depth: .uint8, data: $0.baseAddress, rowStride: 3)
        })
    }

    func testManyMatsCanBeCreatedAndFreed() throws {
        let bytes = [UInt8](repeating: 7, count: 64 * 48 * 3)
        for i in 0..<5_000 {
            let mat = try CVMat(rows: 48, cols: 64, channels: 3, depth: .uint8, bytes: bytes)
            if i % 1000 == 0 { XCTAssertEqual(mat.packedBytes().count, bytes.count) }
        }
    }
}
