import DualcamCalibrationFiles
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Middlebury's Aloe pair with ground truth as Debian's `opencv-doc` ships
/// it (`aloeL.jpg`, `aloeR.jpg`, `aloeGT.png`: 1282x1110, a rectified
/// same-lens pair, 8-bit GT disparity = value, 0 unknown): dualcam's
/// standing real-data check. Aloe comes without a calib.txt; the scores in
/// pixels do not depend on one, so the calibration below gives equal
/// cameras, doffs 0 and a made-up focal length and baseline (the same text
/// as `Calibration/datasets/middlebury-aloe-calib.txt`, which a test
/// compares). Scored over columns x >= 224 (where a 224-disparity search
/// can match) and known ground truth.
public enum MiddleburyAloe {
    public static let directory = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")
    public static var left: URL { directory.appendingPathComponent("aloeL.jpg") }
    public static var right: URL { directory.appendingPathComponent("aloeR.jpg") }
    public static var groundTruth: URL { directory.appendingPathComponent("aloeGT.png") }
    public static let size = PixelSize(width: 1282, height: 1110)
    /// The disparity search of the baselines (ndisp).
    public static let numDisparities = 224
    /// The scored region: x >= ndisp.
    public static let region = PixelRect(x: 224, y: 0, width: 1282 - 224, height: 1110)

    public static let calibrationText = """
        cam0=[3740 0 641; 0 3740 555; 0 0 1]
        cam1=[3740 0 641; 0 3740 555; 0 0 1]
        doffs=0
        baseline=160
        width=1282
        height=1110
        ndisp=224

        """

    public static func calibration() throws -> CalibrationFile {
        try CalibrationImport.middlebury(text: calibrationText, name: "Aloe calib.txt")
    }

    /// The nearest depth of the 224-disparity search: f B / ndisp.
    public static var minimumDepthMetres: Double { 3740 * 0.160 / Double(numDisparities) }

    /// Whether opencv-doc's copy is installed (scripts/setup.sh installs it).
    public static var isAvailable: Bool {
        [left, right, groundTruth].allSatisfy { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Errors unless the pair is there, naming the package to install.
    public static func requireAvailable() throws {
        guard isAvailable else {
            throw DualcamError.io(path: groundTruth.path, reason: "Middlebury Aloe is missing; install Debian's opencv-doc (scripts/setup.sh does)")
        }
    }
}
