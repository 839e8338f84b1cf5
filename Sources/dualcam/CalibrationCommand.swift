import ArgumentParser
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation

struct CalibrationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibration",
        abstract: "Inspect and convert calibration files (dualcam, OpenCV, Middlebury, ROS).",
        discussion: "Example: dualcam calibration show Calibration/devices/nominal-phone-wide-tele.yaml",
        subcommands: [Show.self, Convert.self]
    )

    /// What the calibration files themselves may not say.
    struct ImportOptions: ParsableArguments {
        @Option(name: .customLong("image-size"), help: "Image size WxH for OpenCV stereo_calib files, which do not record it.")
        var imageSize: String?

        @Option(name: .customLong("pattern-unit"), help: "Unit of an OpenCV stereo_calib T (the pattern's unit): m, cm, mm, ft, in.")
        var patternUnit: String = "mm"

        func options() throws -> CalibrationImport.Options {
            let size = try imageSize.map { try parseFlag("--image-size", $0, parseSize) }
            let unit = try parseFlag("--pattern-unit", patternUnit) { text in
                guard let unit = LengthUnit.parse(text) else {
                    throw DualcamError.invalidValue(name: "unit", reason: "expected one of m, cm, mm, ft, in")
                }
                return unit
            }
            var options = CalibrationImport.Options(imageSize: size, patternUnit: unit)
            options.imageSizeAdvice = "give it with --image-size WxH (e.g. 640x480)"
            return options
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show cameras, baseline (mm), relative rotation (deg), focal ratio and fields of view.",
            discussion: "Example: dualcam calibration show rig.yaml --json"
        )

        @Argument(help: "Calibration file; omit for the nominal phone wide/tele rig.")
        var file: String?

        @OptionGroup var importOptions: ImportOptions

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            try reportingErrors {
                let loaded = try loadCalibration(file, options: try importOptions.options())
                let summary = RigSummary(loaded.file)
                if json {
                    print(try summary.jsonString(), terminator: "")
                } else {
                    print("calibration: \(loaded.label)")
                    print(summary.text, terminator: "")
                }
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a calibration file to dualcam YAML or OpenCV FileStorage YAML/XML.",
            discussion: """
                The output format follows --format, else the extension: .yaml is dualcam
                YAML, .yml and .xml are OpenCV FileStorage (M1 D1 M2 D2 R T, sizes, names).

                Example: dualcam calibration convert calib.txt rig.yaml
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case dualcam, opencv
        }

        @Argument(help: "Input calibration file (any format `calibration show` reads).")
        var input: String

        @Argument(help: "Output file (.yaml: dualcam; .yml/.xml: OpenCV FileStorage).")
        var output: String

        @Option(name: .long, help: "Output format: dualcam or opencv (default: from the extension).")
        var format: Format?

        @OptionGroup var importOptions: ImportOptions

        func run() throws {
            try reportingErrors {
                let outURL = URL(fileURLWithPath: output)
                try StagedOutputs(inputs: [input]).refuseClash(output, flag: "output")
                let chosen: Format
                if let format {
                    chosen = format
                } else {
                    switch outURL.pathExtension.lowercased() {
                    case "yaml": chosen = .dualcam
                    case "yml", "xml": chosen = .opencv
                    default:
                        throw DualcamError.invalidValue(
                            name: output, reason: "cannot tell the output format from the extension; use .yaml (dualcam), .yml/.xml (OpenCV) or --format")
                    }
                }
                let loaded = try loadCalibration(input, options: try importOptions.options())
                switch chosen {
                case .dualcam:
                    try loaded.file.write(to: outURL, comment: "converted by dualcam \(Dualcam.version) from \(input)")
                case .opencv:
                    try OpenCVCalibrationExport.write(loaded.file, to: outURL)
                }
                FileHandle.standardError.write(Data("wrote \(output) (\(chosen.rawValue))\n".utf8))
            }
        }
    }
}

/// A calibration and how to name it in output.
struct LoadedCalibration {
    let file: CalibrationFile
    let label: String
    /// The embedded nominal profile (no calibration file was given).
    var isBuiltIn = false
}

/// Loads a calibration file of any supported format, or the embedded nominal
/// phone wide/tele profile when `path` is nil.
func loadCalibration(_ path: String?, options: CalibrationImport.Options = .init()) throws -> LoadedCalibration {
    guard let path else {
        return LoadedCalibration(file: try NominalDevice.load(),
                                 label: "nominal phone wide/tele rig (built in, \(NominalDevice.fileName))", isBuiltIn: true)
    }
    let url = URL(fileURLWithPath: path)
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw DualcamError.io(path: path, reason: "no such calibration file")
    }
    return LoadedCalibration(file: try CalibrationImport.read(url, options: options), label: path)
}
