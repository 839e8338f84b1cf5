import ArgumentParser
import DualcamCalibrationSolver
import DualcamConvergence
import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamStereo
import DualcamSynthetic

/// An option whose value is one of a fixed set. ArgumentParser parses it,
/// lists the values in `--help`, and a wrong value fails before the command
/// runs with a message naming the flag and the values (one line, see
/// `parserErrorLine`). Values match ignoring case.
public protocol OptionChoice: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension OptionChoice {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--mode` of depth and fuse.
enum FilterMode: String, OptionChoice {
    case filtered, unfiltered

    var isFiltered: Bool { self == .filtered }
}

/// `--reference` of depth.
enum ReferenceCamera: String, OptionChoice {
    case wide, tele

    var frame: FrameName { FrameName(rawValue) }
}

/// `--type` of fuse: fused depth has no stereo pixel disparity.
enum FusedDataType: String, OptionChoice {
    case depth, disparity

    var dataType: DepthDataType { self == .depth ? .depth : .disparity }
}

extension ConvergenceView: OptionChoice {}
extension ConvergenceCanvas: OptionChoice {}
extension DepthDataType: OptionChoice {}
extension DepthFileFormat: OptionChoice {}
extension GroundTruthFormat: OptionChoice {}
extension EvaluationSpace: OptionChoice {}
extension EvaluationMasks.MaskSelection: OptionChoice {}
extension OpenCVStereoBaseline: OptionChoice {}
extension DepthFusion.SamplesOnlyCompletion: OptionChoice {}
extension RigCalibrator.Distortion: OptionChoice {}
extension DepthPrecision: ExpressibleByArgument {}

/// ArgumentParser's message for a command-line error as the one line
/// dualcam prints: the first line, with a bulleted list of accepted values
/// (it bullets six or more) joined onto it.
func parserErrorLine(_ message: String) -> String {
    let lines = message.trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: \.isNewline).map(String.init)
    guard var first = lines.first else { return message }
    if first.hasSuffix(" one of the following:") {
        let values = lines.dropFirst().prefix { $0.hasPrefix("  - ") }.map { $0.dropFirst(4) }
        first = String(first.dropLast(" the following:".count)) + " " + values.map { "'\($0)'" }.joined(separator: ", ") + "."
    }
    return first
}

/// The names a library keeps in a list (scenes, condition presets).
protocol NameList {
    static var names: [String] { get }
}

/// An option whose value is one of a library's `NameList`: parsed, listed
/// in `--help` and refused like an `OptionChoice` (names match exactly).
struct ListedName<List: NameList>: ExpressibleByArgument {
    let name: String

    init(_ name: String) { self.name = name }

    init?(argument: String) {
        guard List.names.contains(argument) else { return nil }
        name = argument
    }

    static var allValueStrings: [String] { List.names }
    var defaultValueDescription: String { name }
}

/// `synth --scene`.
enum SceneNames: NameList {
    static var names: [String] { SceneLibrary.names }
}

/// `synth --conditions`.
enum ConditionPresetNames: NameList {
    static var names: [String] { CaptureConditions.presets.map(\.name) }
}
