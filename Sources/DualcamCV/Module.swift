import CDualcamOpenCV
public enum OpenCVInfo { public static var version: String { String(cString: dc_opencv_version()) } }
