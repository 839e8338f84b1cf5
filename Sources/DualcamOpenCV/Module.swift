// module DualcamOpenCV: the Swift owners of the OpenCV shim's handles (CVMat,
// CVFileStorage), the codec entry points, image operations (CVImgproc,
// CVRegistration) and calibration patterns (CVCalibrationPatterns).
// Nothing here includes OpenCV.
import COpenCVShim

/// Facts about the OpenCV build the shim links against.
public enum OpenCVInfo {
    /// OpenCV's version string, e.g. "4.6.0".
    public static var version: String { String(cString: dc_opencv_version()) }
}
