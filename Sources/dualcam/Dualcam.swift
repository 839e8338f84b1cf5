import ArgumentParser
import DualcamOpenCV
import DualcamSupport
import Foundation

@main
struct Dualcam: ParsableCommand {
    static let version = "0.1.0"
    /// The version a batch completion record keeps (a unit done by another version runs again).
    static var versionString: String { "dualcam \(version) (OpenCV \(OpenCVInfo.version))" }

    static let configuration = CommandConfiguration(
        commandName: "dualcam",
        abstract: "Stereo wide/tele dual-camera geometry and depth on Linux.",
        discussion: """
            Examples:
              dualcam converge --distance 1.2m
              dualcam converge --wide w.png --tele t.png --calibration rig.yaml --distance auto --at 640,480
              dualcam calibration show Calibration/devices/nominal-phone-wide-tele.yaml
              dualcam calibration convert calib.txt rig.yaml
              dualcam calibrate --pattern chessboard:9x6:25mm --pairs views/ -o rig.yaml
              dualcam homography --distance 1.2m
              dualcam depth --wide w.png --tele t.png -o depth.pfm --mode unfiltered
              dualcam eval depth.pfm --gt aloeGT.png --region 224,0,1282,1110 --wide aloeL.jpg --tele aloeR.jpg --baseline sgbm
              dualcam image info depth.pfm
              dualcam image convert depth.pfm depth.png --depth-png mm
              dualcam synth --scene room --size 1280x960 --out room
              dualcam bench render
              dualcam devices --size 1280x720 --fps 30 --format yuyv
              dualcam capture --wide /dev/video0 --tele /dev/video2 --count 100 --out pairs
              dualcam fuse --wide wide.png --samples lidar.csv --disparity wide.disparity.pfm --calibration rig.yaml -o depth.pfm
              dualcam batch run manifest.yaml --task 0 --of 4

            Distances take a unit: 1.2m, 120cm, 1200mm, 4ft, 48in, inf.
            """,
        version: versionString,
        subcommands: [ConvergeCommand.self, DepthCommand.self, EvalCommand.self, CalibrationCommand.self, CalibrateCommand.self, HomographyCommand.self, ImageCommand.self, SynthCommand.self, FuseCommand.self, BatchCommand.self, BenchCommand.self, DevicesCommand.self, CaptureCommand.self]
    )

    /// ArgumentParser's own errors (unknown option, missing value) print the
    /// usage over several lines; dualcam reports every error as one line on
    /// stderr, so those are shortened here. Help and version output is unchanged.
    static func main() {
        // Ctrl-C / SIGTERM remove the staging files of an unfinished run.
        StagingRegistry.installSignalHandlers()
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }  // --help, --version
            let line = parserErrorLine(Dualcam.message(for: error))
            FileHandle.standardError.write(Data("dualcam: \(line) (see 'dualcam help')\n".utf8))
            Foundation.exit(code.rawValue)
        }
        do {
            var command = command
            try command.run()
        } catch {
            StagingRegistry.parkIfExiting()  // a signal's exit status wins
            exit(withError: error)
        }
        StagingRegistry.parkIfExiting()
    }
}
