import XCTest
import DualcamOpenCV
@testable import DualcamStereo

/// The fill guide's grey levels (`StereoDepthEstimator.FillGuide`), which
/// the half-occluded strips' gates compare.
final class FillGuideTests: XCTestCase {
    func testGreyIsTheMeanOfEachPixelsChannels() throws {
        let rows = 3, cols = 5
        let bytes = (0..<(rows * cols * 3)).map { UInt8(($0 * 37 + 11) % 256) }
        let colour = try CVMat(rows: rows, cols: cols, channels: 3, depth: .uint8, bytes: bytes)
        let grey = StereoDepthEstimator.FillGuide(mat: colour, channels: 3).grey()
        XCTAssertEqual(grey.count, rows * cols)
        for i in 0..<(rows * cols) {
            let sum = Int(bytes[3 * i]) + Int(bytes[3 * i + 1]) + Int(bytes[3 * i + 2])
            XCTAssertEqual(grey[i], Float(sum) / 3, "pixel \(i)")
        }
        let single = try CVMat(rows: rows, cols: cols, channels: 1, depth: .uint8, bytes: Array(bytes.prefix(rows * cols)))
        XCTAssertEqual(StereoDepthEstimator.FillGuide(mat: single, channels: 1).grey(), bytes.prefix(rows * cols).map { Float($0) })
        let pairs = try CVMat(rows: rows, cols: cols, channels: 2, depth: .uint8, bytes: Array(bytes.prefix(rows * cols * 2)))
        let two = StereoDepthEstimator.FillGuide(mat: pairs, channels: 2).grey()
        XCTAssertEqual(two, (0..<(rows * cols)).map { (Float(bytes[2 * $0]) + Float(bytes[2 * $0 + 1])) / 2 })
    }
}
