import DualcamOpenCV
import DualcamSupport
import XCTest

/// Stereo matching on pairs too small for the search or the block: OpenCV's
/// SGBM aborted (an exception thrown while cleaning up a buffer) or wrote
/// out of bounds on them; the shim refuses them with an error instead.
final class CVStereoTinyTests: XCTestCase {
    func grey(_ w: Int, _ h: Int) throws -> CVMat {
        try CVMat(rows: h, cols: w, channels: 1, depth: .uint8, bytes: (0..<(w * h)).map { UInt8(($0 * 37) % 251) })
    }

    func testTinyPairsAreRefusedNotCrashed() throws {
        let params = CVStereoParameters(minDisparity: 0, numDisparities: 16)
        for (w, h) in [(1, 1), (2, 1), (2, 2), (16, 2), (20, 4)] {
            let left = try grey(w, h), right = try grey(w, h)
            XCTAssertThrowsError(try CVStereo.match(left: left, right: right, leftValid: nil, rightValid: nil, parameters: params,
                                                    referenceIsRight: false, refineMask: nil), "\(w)x\(h)") { error in
                XCTAssertTrue("\(error)".contains("too small"), "\(error)")
            }
            XCTAssertThrowsError(try CVStereo.sgbmWLS(left: left, right: right, parameters: params, referenceIsRight: false), "\(w)x\(h)")
        }
    }

    func testSmallestAcceptedPairMatches() throws {
        var params = CVStereoParameters(minDisparity: 0, numDisparities: 16)
        params.blockSize = 5
        let (w, h) = (16 + 5, 5)
        let result = try CVStereo.match(left: try grey(w, h), right: try grey(w, h), leftValid: nil, rightValid: nil, parameters: params,
                                        referenceIsRight: false, refineMask: nil)
        XCTAssertEqual(result.disparity.cols, w)
        XCTAssertEqual(result.disparity.rows, h)
        let reference = try CVStereo.sgbmWLS(left: try grey(w, h), right: try grey(w, h), parameters: params, referenceIsRight: true)
        XCTAssertEqual(reference.cols, w)
    }
}
