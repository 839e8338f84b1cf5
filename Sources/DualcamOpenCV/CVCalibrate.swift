import COpenCVShim
import DualcamSupport

/// Corner observations of a planar target for calibration, view after view.
/// Object points are in the target's unit (translations come out in it);
/// pixels have their centres at integer coordinates (OpenCV).
public struct CVCalibrationViews: Sendable {
    /// Points per view (each >= 4).
    public var pointCounts: [Int]
    /// x, y, z per point, all views concatenated.
    public var objectXYZ: [Double]
    /// x, y per point in the first camera.
    public var imageXY: [Double]
    /// x, y per point in the second camera (stereo only).
    public var image2XY: [Double]?

    public init(pointCounts: [Int], objectXYZ: [Double], imageXY: [Double], image2XY: [Double]? = nil) {
        self.pointCounts = pointCounts
        self.objectXYZ = objectXYZ
        self.imageXY = imageXY
        self.image2XY = image2XY
    }

    public var viewCount: Int { pointCounts.count }

    func withC<R>(_ operation: String, _ body: (UnsafePointer<dc_calib_views>) throws -> R) throws -> R {
        let total = pointCounts.reduce(0, +)
        guard objectXYZ.count == 3 * total, imageXY.count == 2 * total, image2XY.map({ $0.count == 2 * total }) ?? true,
              let n = Int32(exactly: pointCounts.count) else {
            throw DualcamError.openCV(operation: operation, message: "inconsistent calibration view arrays")
        }
        let counts = pointCounts.map { Int32(clamping: $0) }
        return try counts.withUnsafeBufferPointer { c in
            try objectXYZ.withUnsafeBufferPointer { o in
                try imageXY.withUnsafeBufferPointer { a in
                    try (image2XY ?? []).withUnsafeBufferPointer { b in
                        var views = dc_calib_views(view_count: n, point_counts: c.baseAddress, object_xyz: o.baseAddress,
                                                   image_xy: a.baseAddress,
                                                   image2_xy: image2XY == nil ? nil : b.baseAddress)
                        return try body(&views)
                    }
                }
            }
        }
    }
}

/// A pinhole camera with OpenCV's 5-coefficient Brown-Conrady distortion:
/// K row-major (9 values), dist = k1 k2 p1 p2 k3.
public struct CVCameraParameters: Sendable, Equatable {
    public var cameraMatrix: [Double]
    public var distortion: [Double]
    public init(cameraMatrix: [Double], distortion: [Double]) {
        self.cameraMatrix = cameraMatrix
        self.distortion = distortion
    }
}

/// Which distortion coefficients a calibration estimates (OpenCV flags).
public struct CVDistortionModel: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// p1 = p2 = 0 (CALIB_ZERO_TANGENT_DIST).
    public static let zeroTangential = CVDistortionModel(rawValue: Int32(DC_CALIB_ZERO_TANGENT))
    /// k3 kept at its starting value, 0 when there is none (CALIB_FIX_K3).
    public static let fixK3 = CVDistortionModel(rawValue: Int32(DC_CALIB_FIX_K3))
}

/// OpenCV's calib3d solvers (calibrateCamera, stereoCalibrate, stereoRectify,
/// undistortPoints, solvePnP).
public enum CVCalibrate {
    /// Result of `calibrateCamera`.
    public struct CameraResult: Sendable {
        public var camera: CVCameraParameters
        /// Per view: board-to-camera rotation vector and translation.
        public var rotationVectors: [[Double]]
        public var translations: [[Double]]
        /// OpenCV's standard deviations of fx, fy, cx, cy, k1, k2, p1, p2, k3.
        public var intrinsicStandardDeviations: [Double]
        /// RMS reprojection error per view, px.
        public var perViewRMS: [Double]
        public var rms: Double
    }

    /// cv::calibrateCamera (Extended overload) for images of `width` x `height`;
    /// `guess` starts from given intrinsics (CALIB_USE_INTRINSIC_GUESS).
    public static func calibrateCamera(_ views: CVCalibrationViews, width: Int, height: Int,
                                       model: CVDistortionModel = [], guess: CVCameraParameters? = nil) throws -> CameraResult {
        let n = views.viewCount
        var k = guess?.cameraMatrix ?? [Double](repeating: 0, count: 9)
        var d = guess?.distortion ?? [Double](repeating: 0, count: 5)
        var rv = [Double](repeating: 0, count: 3 * max(n, 1)), tv = rv
        var std = [Double](repeating: 0, count: 9), perView = [Double](repeating: 0, count: max(n, 1))
        var rms = 0.0
        guard k.count == 9, d.count == 5 else { throw DualcamError.openCV(operation: "calibrateCamera", message: "bad guess") }
        try views.withC("calibrateCamera") { v in
            try Shim.call("calibrateCamera") {
                dc_calibrate_camera(v, Int32(clamping: width), Int32(clamping: height), model.rawValue, guess == nil ? 0 : 1, &k, &d,
                                    &rv, &tv, &std, &perView, &rms, $0)
            }
        }
        return CameraResult(camera: CVCameraParameters(cameraMatrix: k, distortion: d),
                            rotationVectors: (0..<n).map { Array(rv[3 * $0..<3 * $0 + 3]) },
                            translations: (0..<n).map { Array(tv[3 * $0..<3 * $0 + 3]) },
                            intrinsicStandardDeviations: std, perViewRMS: Array(perView.prefix(n)), rms: rms)
    }

    /// Result of `stereoCalibrate`: X_2 = R X_1 + T (T in the target's unit).
    public struct StereoResult: Sendable {
        public var camera1: CVCameraParameters
        public var camera2: CVCameraParameters
        public var rotation: [Double]
        public var translation: [Double]
        /// Per view: RMS in camera 1 and camera 2, px.
        public var perViewRMS: [(first: Double, second: Double)]
        public var rms: Double
    }

    /// cv::stereoCalibrate (Extended overload). `fixIntrinsics`:
    /// CALIB_FIX_INTRINSIC (R, T only); otherwise a joint refinement of
    /// everything from the given intrinsics and (`rotation`, `translation`).
    public static func stereoCalibrate(
        _ views: CVCalibrationViews, width: Int, height: Int, camera1: CVCameraParameters,
        camera2: CVCameraParameters, rotation: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1],
        translation: [Double] = [0, 0, 0], model: CVDistortionModel = [], fixIntrinsics: Bool
    ) throws -> StereoResult {
        var k1 = camera1.cameraMatrix, d1 = camera1.distortion, k2 = camera2.cameraMatrix, d2 = camera2.distortion
        var r = rotation, t = translation
        guard k1.count == 9, k2.count == 9, d1.count == 5, d2.count == 5, r.count == 9, t.count == 3,
              views.image2XY != nil else {
            throw DualcamError.openCV(operation: "stereoCalibrate", message: "bad parameter sizes or no second camera")
        }
        let n = views.viewCount
        var perView = [Double](repeating: 0, count: 2 * max(n, 1))
        var rms = 0.0
        try views.withC("stereoCalibrate") { v in
            try Shim.call("stereoCalibrate") {
                dc_stereo_calibrate(v, Int32(clamping: width), Int32(clamping: height), model.rawValue, fixIntrinsics ? 1 : 0,
                                    &k1, &d1, &k2, &d2, &r, &t, &perView, &rms, $0)
            }
        }
        return StereoResult(camera1: CVCameraParameters(cameraMatrix: k1, distortion: d1),
                            camera2: CVCameraParameters(cameraMatrix: k2, distortion: d2), rotation: r, translation: t,
                            perViewRMS: (0..<n).map { (perView[2 * $0], perView[2 * $0 + 1]) }, rms: rms)
    }

    /// Rectification of a stereo pair (cv::stereoRectify, CALIB_ZERO_DISPARITY, alpha -1).
    public struct Rectification: Sendable {
        public var rotation1: [Double], rotation2: [Double]
        /// 3x4 projections, row-major.
        public var projection1: [Double], projection2: [Double]
    }

    public static func stereoRectify(camera1: CVCameraParameters, camera2: CVCameraParameters, width: Int, height: Int,
                                     rotation: [Double], translation: [Double]) throws -> Rectification {
        var r1 = [Double](repeating: 0, count: 9), r2 = r1
        var p1 = [Double](repeating: 0, count: 12), p2 = p1
        try Shim.call("stereoRectify") {
            dc_stereo_rectify(camera1.cameraMatrix, camera1.distortion, camera2.cameraMatrix, camera2.distortion,
                              Int32(clamping: width), Int32(clamping: height), rotation, translation, &r1, &r2, &p1, &p2, $0)
        }
        return Rectification(rotation1: r1, rotation2: r2, projection1: p1, projection2: p2)
    }

    /// cv::undistortPoints: pixels `xy` (x, y pairs) -> rotated by `rotation`
    /// (9 values, optional) and projected by `projection` (12, optional; else
    /// normalised coordinates).
    public static func undistortPoints(_ xy: [Double], camera: CVCameraParameters, rotation: [Double]? = nil,
                                       projection: [Double]? = nil) throws -> [Double] {
        var out = [Double](repeating: 0, count: max(xy.count, 1))
        try Shim.call("undistortPoints") {
            dc_undistort_points(camera.cameraMatrix, camera.distortion, rotation, projection,
                                Int32(clamping: xy.count / 2), xy, &out, $0)
        }
        return Array(out.prefix(xy.count))
    }

    /// cv::solvePnP (iterative): the object-to-camera rotation vector and translation.
    public static func solvePnP(objectXYZ: [Double], imageXY: [Double],
                                camera: CVCameraParameters) throws -> (rotationVector: [Double], translation: [Double]) {
        var rv = [Double](repeating: 0, count: 3), tv = rv
        guard objectXYZ.count / 3 == imageXY.count / 2 else {
            throw DualcamError.openCV(operation: "solvePnP", message: "object and image point counts differ")
        }
        try Shim.call("solvePnP") {
            dc_solve_pnp(Int32(clamping: imageXY.count / 2), objectXYZ, imageXY, camera.cameraMatrix, camera.distortion,
                         &rv, &tv, $0)
        }
        return (rv, tv)
    }

    /// The image names of an OpenCV image list (XML/YAML/JSON FileStorage with
    /// a sequence `imagelist`, like OpenCV's stereo_calib.xml), as written.
    public static func readImageList(path: String) throws -> [String] {
        let joined = try Shim.string("image list", .file(path)) { buffer, capacity, length, error in
            dc_read_image_list(path, buffer, capacity, length, error)
        }
        return joined.isEmpty ? [] : joined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
