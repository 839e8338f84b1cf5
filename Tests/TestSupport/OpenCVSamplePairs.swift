import Foundation

/// OpenCV's sample stereo pairs in opencv-doc (`left01..right14.jpg`: 13
/// pairs, 640x480, a 9x6 chessboard of 25 mm squares) and the repository's
/// calibration of that rig.
public enum OpenCVSamplePairs {
    public static let directory = URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data")
    /// The pair numbers (there is no pair 10).
    public static let names = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]
    public static func left(_ name: String) -> URL { directory.appendingPathComponent("left\(name).jpg") }
    public static func right(_ name: String) -> URL { directory.appendingPathComponent("right\(name).jpg") }
    /// `Calibration/datasets/opencv-stereo-sample.yaml` in this repository.
    public static let calibration = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Calibration/datasets/opencv-stereo-sample.yaml")
}
