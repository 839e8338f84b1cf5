import ArgumentParser
import DualcamCV

@main
struct Dualcam: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "dualcam",
        abstract: "Stereo wide/tele dual-camera geometry and depth on Linux.",
        discussion: """
            Examples:
              dualcam calibration show Calibration/devices/nominal-phone-wide-tele.yaml
              dualcam calibration convert calib.txt rig.yaml
              dualcam homography --distance 1.2m
              dualcam image info depth.pfm
              dualcam image convert depth.pfm depth.png --depth-png mm

            Distances take a unit: 1.2m, 120cm, 1200mm, 4ft, 48in, inf.
            """,
        version: "dualcam \(version) (OpenCV \(OpenCVInfo.version))",
        subcommands: [CalibrationCommand.self, HomographyCommand.self, ImageCommand.self]
    )
}
