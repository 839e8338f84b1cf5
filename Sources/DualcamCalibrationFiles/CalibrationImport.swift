import DualcamOpenCV
import DualcamGeometry
import DualcamSupport
import Foundation
import Yams

/// One entry point for every calibration format dualcam reads; the format is
/// detected from the content (see `detect`). Every import returns a
/// `CalibrationFile` whose provenance says where it came from.
public enum CalibrationImport {
    /// The formats `read` understands.
    public enum Format: String, CaseIterable, Sendable {
        /// dualcam's own YAML (`dualcam_calibration: 1`).
        case dualcam
        /// dualcam's OpenCV FileStorage export (`dualcam_opencv: 1`, see `OpenCVCalibrationExport`).
        case dualcamOpenCV = "dualcam-opencv"
        /// OpenCV stereo_calib `intrinsics.yml` (M1 D1 M2 D2) + `extrinsics.yml` (R T ...).
        case openCVStereo = "opencv-stereo"
        /// OpenCV single-camera calibration sample output (camera_matrix, distortion_coefficients, ...).
        case openCVCamera = "opencv-camera"
        /// Middlebury `calib.txt`.
        case middlebury
        /// ROS `camera_info` YAML.
        case rosCameraInfo = "ros-camera-info"
    }

    /// What the files themselves do not say.
    public struct Options: Sendable {
        /// Image size for stereo_calib files (they do not record it), and for
        /// Middlebury / single-camera files that lack it.
        public var imageSize: PixelSize?
        /// The unit of stereo_calib's T (the calibration pattern's unit).
        public var patternUnit: LengthUnit
        /// Name of the first (reference) camera: stereo_calib's camera 1,
        /// Middlebury's cam0, the camera of single-camera formats.
        public var firstCamera: FrameName
        /// Name of the second camera: stereo_calib's camera 2, Middlebury's cam1.
        public var secondCamera: FrameName
        /// The stereo_calib companion file (extrinsics.yml when reading
        /// intrinsics.yml, or the reverse); default: found next to the file.
        public var companionFile: URL?
        /// What an error about a missing image size tells the user to do
        /// (the command that can take it names its flag).
        public var imageSizeAdvice = "convert it once with dualcam calibration convert FILE rig.yaml --image-size WxH"

        public init(imageSize: PixelSize? = nil, patternUnit: LengthUnit = .millimetre,
                    firstCamera: FrameName = .wide, secondCamera: FrameName = .tele, companionFile: URL? = nil) {
            self.imageSize = imageSize
            self.patternUnit = patternUnit
            self.firstCamera = firstCamera
            self.secondCamera = secondCamera
            self.companionFile = companionFile
        }
    }

    static let accepted = "dualcam YAML (dualcam_calibration: 1), dualcam's OpenCV export, OpenCV stereo_calib intrinsics.yml/extrinsics.yml, OpenCV camera calibration (camera_matrix), Middlebury calib.txt or ROS camera_info YAML"

    /// The format of `url`, from its content: an OpenCV FileStorage header
    /// (`%YAML:1.0`, `<opencv_storage>`) then its keys; `cam0=[` lines for
    /// Middlebury; otherwise YAML keys (`dualcam_calibration`, or
    /// `camera_matrix` + `image_width` for ROS).
    public static func detect(_ url: URL) throws -> Format {
        let text = try YAMLDocument.readText(url)
        let head = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if head.hasPrefix("%YAML:1.") || head.hasPrefix("<?xml") || head.hasPrefix("<opencv_storage") {
            return try detectOpenCV(url)
        }
        if MiddleburyImport.looksLikeMiddlebury(text) { return .middlebury }
        // Beyond the YAML budget (an alias bomb) a file is refused here, with the limit named.
        try YAMLBudget.preflight(text, file: url.path)
        if let node = try? Yams.compose(yaml: text) {
            try YAMLBudget.check(node, file: url.path)
            if let m = try? YAMLField(node: node, path: "", file: url.path).mapping() {
                if m.keys.contains(CalibrationFile.versionKey) { return .dualcam }
                if ROSCameraInfoImport.matches(m) { return .rosCameraInfo }
            }
        }
        if (try? CVFileStorage(path: url.path, mode: .read)) != nil, let format = try? detectOpenCV(url) {
            return format
        }
        throw DualcamError.format(path: url.path, reason: "unknown calibration format; expected \(accepted)")
    }

    static func detectOpenCV(_ url: URL) throws -> Format {
        let keys = Set(try OpenCVDocument(url: url).keys)
        if keys.contains(OpenCVCalibrationExport.versionKey) { return .dualcamOpenCV }
        if keys.contains("M1") || keys.contains("R") || keys.contains("T") { return .openCVStereo }
        if keys.contains("camera_matrix") { return .openCVCamera }
        throw DualcamError.format(path: url.path, reason: "OpenCV FileStorage file with none of the known keys (dualcam_opencv, M1 D1 M2 D2, R T, camera_matrix); expected \(accepted)")
    }

    /// Reads a calibration in any supported format (see `Format`).
    public static func read(_ url: URL, options: Options = Options()) throws -> CalibrationFile {
        switch try detect(url) {
        case .dualcam: return try CalibrationFile.read(url)
        case .dualcamOpenCV: return try OpenCVCalibrationExport.read(url)
        case .openCVCamera: return try OpenCVSampleImport.readCamera(url, options: options)
        case .middlebury: return try MiddleburyImport.read(url, options: options)
        case .rosCameraInfo: return try ROSCameraInfoImport.read(url, options: options)
        case .openCVStereo:
            let isIntrinsics = try OpenCVDocument(url: url).has("M1")
            let base = isIntrinsics ? "extrinsics" : "intrinsics"
            guard let other = options.companionFile ?? OpenCVSampleImport.companion(of: url, named: base) else {
                throw DualcamError.format(path: url.path, reason: "OpenCV stereo_calib \(isIntrinsics ? "intrinsics (M1 D1 M2 D2)" : "extrinsics (R T)") need the \(base) file too; none given and no \(base).yml next to it")
            }
            return try OpenCVSampleImport.readStereo(intrinsics: isIntrinsics ? url : other,
                                                     extrinsics: isIntrinsics ? other : url, options: options)
        }
    }

    /// Parses the text of a Middlebury `calib.txt` (see `MiddleburyImport`);
    /// `name` stands for the file in errors.
    public static func middlebury(text: String, name: String, options: Options = Options()) throws -> CalibrationFile {
        try MiddleburyImport.parse(text, path: name, options: options)
    }

    /// Loads the nominal device profile (embedded in the binary).
    public static func nominalDevice() throws -> CalibrationFile { try NominalDevice.load() }
}
