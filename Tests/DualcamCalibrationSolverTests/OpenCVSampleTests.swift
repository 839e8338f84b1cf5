import DualcamCalibrationSolver
import DualcamCalibrationFiles
import Foundation
import XCTest

/// Acceptance on OpenCV's sample stereo set (Debian's opencv-doc:
/// left01..right14, 13 pairs, 9x6 inner corners, one square = 1 mm).
final class OpenCVSampleTests: XCTestCase {
    static let list = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data/stereo_calib.xml")

    static let result: Result<RigCalibrationResult, Error> = Result {
        let target = try BoardTarget(parsing: "chessboard:9x6:1mm")
        let observations = try CalibrationSources(list: list).observations(detector: try PatternDetector(target: target))
        return try RigCalibrator().calibrate(observations)
    }

    func testSampleSetCalibration() throws {
        let report = try Self.result.get().report
        XCTAssertEqual(report.pairsGiven, 13)
        XCTAssertEqual(report.pairsUsed, 13, "\(report.dropped)")
        XCTAssertLessThanOrEqual(report.stereoRMS, 0.45)
        XCTAssertEqual(report.baselineMM, 3.34, accuracy: 0.03)
        XCTAssertEqual(report.cameras.map(\.imageWidth), [640, 640])
        XCTAssertLessThan(report.epipolarErrorMean, 0.5)
    }

    func testImageListParsing() throws {
        let pairs = try CalibrationInput.pairs(inList: Self.list)
        XCTAssertEqual(pairs.count, 13)
        XCTAssertEqual(pairs.first?.wide.lastPathComponent, "left01.jpg")
        XCTAssertEqual(pairs.first?.tele.lastPathComponent, "right01.jpg")
        XCTAssertEqual(pairs.first?.wide.deletingLastPathComponent().path, Self.list.deletingLastPathComponent().path)
    }
}
