// module DualcamCV: the Swift owners of the OpenCV shim's handles (CVMat,
// CVFileStorage) and the codec entry points. Nothing here includes OpenCV.
import CDualcamOpenCV

/// Facts about the OpenCV build the shim links against.
public enum OpenCVInfo {
    /// OpenCV's version string, e.g. "4.6.0".
    public static var version: String { String(cString: dc_opencv_version()) }
}
