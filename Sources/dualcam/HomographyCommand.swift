import ArgumentParser
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation

struct HomographyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "homography",
        abstract: "Print the plane-induced homography between two cameras of a rig and its inverse.",
        discussion: """
            H_to<-from = K_to (R + t n^T / d) K_from^-1 for the plane n^T X = d in
            the source camera's coordinates, X_to = R X_from + t. A source pixel of a
            point on the plane maps to H u (homogeneous); H is printed row-major,
            normalised so that H[2][2] = 1.

            Example: dualcam homography --distance 1.2m
            """
    )

    @Option(name: .long, help: "Calibration file (dualcam YAML, OpenCV YAML/XML, Middlebury calib.txt). Default: the nominal phone wide/tele rig.")
    var calibration: String?

    @Option(name: .long, parsing: .unconditional, help: "Distance of the plane from the source camera, with a unit: 1.2m, 120cm, 1200mm, 4ft, 48in, inf.")
    var distance: String

    @Option(name: .long, parsing: .unconditional, help: "Plane normal x,y,z in source camera coordinates (normalised). Default 0,0,1 (fronto-parallel).")
    var normal: String = "0,0,1"

    @Option(name: .long, help: "Source camera name.")
    var from: String = "wide"

    @Option(name: .long, help: "Destination camera name.")
    var to: String = "tele"

    @Option(name: .customLong("from-size"), help: "Buffer size WxH of the source images, if not the calibration's (same aspect ratio).")
    var fromSize: String?

    @Option(name: .customLong("to-size"), help: "Buffer size WxH of the destination images, if not the calibration's.")
    var toSize: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    struct Report: Encodable {
        let calibration: String
        let from: String
        let to: String
        let distanceMetres: Double?
        let normal: [Double]
        let fromSize: [Int]
        let toSize: [Int]
        /// H row-major, normalised so that H[2][2] = 1.
        let homography: [Double]
        let inverse: [Double]
    }

    func run() throws {
        try reportingErrors {
            let d = try parseFlag("--distance", distance) { try Distance(parsing: $0) }
            let n = try parseFlag("--normal", normal, parseVector3)
            let loaded = try loadCalibration(calibration)
            let rig = loaded.file.rig
            let source = FrameName(from), target = FrameName(to)
            let sourceCamera = try parseFlag("--from", from) { _ in try rig.camera(source) }
            let targetCamera = try parseFlag("--to", to) { _ in try rig.camera(target) }
            let sSize = try fromSize.map { try parseFlag("--from-size", $0) { try parseSize($0, for: sourceCamera) } }
                ?? sourceCamera.size
            let tSize = try toSize.map { try parseFlag("--to-size", $0) { try parseSize($0, for: targetCamera) } }
                ?? targetCamera.size
            let plane = try parseFlag("--normal", normal) { _ in
                let plane = try Plane(normal: n, distance: d.metres, unit: .metre, in: source)
                // n^T X = d with d > 0 crosses the optical axis in front of the camera
                // only when n_z > 0; otherwise the plane is behind it or edge-on.
                guard plane.normal.z > 0 else {
                    throw DualcamError.invalidValue(
                        name: "normal", reason: "the plane must lie in front of the camera: the normal needs a positive z component")
                }
                return plane
            }
            let h = try rig.homography(from: source, to: target, plane: plane, sourceSize: sSize, targetSize: tSize)
            guard let inverse = h.inverse?.normalizedHomography else {
                throw DualcamError.invalidGeometry("the homography is singular")
            }
            if json {
                try printJSON(Report(
                    calibration: loaded.label, from: from, to: to,
                    distanceMetres: d.isInfinite ? nil : d.metres, normal: [plane.normal.x, plane.normal.y, plane.normal.z],
                    fromSize: [sSize.width, sSize.height], toSize: [tSize.width, tSize.height],
                    homography: h.rowMajor, inverse: inverse.rowMajor))
            } else {
                print("calibration: \(loaded.label)")
                print("plane: n = (\(plane.normal.x), \(plane.normal.y), \(plane.normal.z)), d = \(d) in \(from) coordinates")
                print("H \(to)<-\(from) (\(sSize) -> \(tSize)):")
                print(formatMatrix(h))
                print("H^-1 \(from)<-\(to):")
                print(formatMatrix(inverse))
            }
        }
    }
}

/// Parses `x,y,z`.
func parseVector3(_ text: String) throws -> Vector3 {
    let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2],
          x.isFinite, y.isFinite, z.isFinite else {
        throw DualcamError.invalidValue(name: "vector", reason: "expected three finite numbers x,y,z, e.g. 0,0,1")
    }
    return Vector3(x, y, z)
}

/// Parses `WxH` for buffers of `camera`: its intrinsics must scale to that
/// size (same aspect ratio), checked here so that the error names the flag.
func parseSize(_ text: String, for camera: RigCamera) throws -> PixelSize {
    let size = try parseSize(text)
    _ = try camera.model.intrinsics.scaled(to: size)
    return size
}

/// Parses `WxH` within the size policy (`InputLimits`).
func parseSize(_ text: String) throws -> PixelSize {
    guard let size = PixelSize(parsing: text) else {
        throw DualcamError.invalidValue(name: "size", reason: "expected WIDTHxHEIGHT with positive integers, e.g. 1920x1440")
    }
    if let problem = InputLimits.imageSizeProblem(width: size.width, height: size.height) {
        throw DualcamError.invalidGeometry(problem)  // parseFlag names the flag
    }
    return size
}
