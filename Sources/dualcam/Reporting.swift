import ArgumentParser
import DualcamGeometry
import DualcamSupport
import Foundation

/// Runs a command body and turns any error into the one-line message users
/// see on stderr (`dualcam: <what and where>`) and exit status 1. Errors
/// already meant for ArgumentParser (validation, exit codes) pass through.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch let error as CleanExit {
        throw error
    } catch {
        FileHandle.standardError.write(Data("dualcam: \(oneLine(error))\n".utf8))
        throw ExitCode.failure
    }
}

/// The one-line description of an error (the first line, if it had several).
func oneLine(_ error: Error) -> String {
    let text = String(describing: error)
    return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
}

/// Prints an Encodable as pretty JSON on stdout: sorted snake_case keys
/// (Swift's camelCase property names are converted), slashes unescaped.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Parses a flag value with a throwing initialiser, naming the flag in the
/// error. Values are parsed in `run()` rather than by ArgumentParser so that a
/// bad value gets dualcam's one-line message (which lists what is accepted)
/// instead of a generic multi-line usage error.
func parseFlag<T>(_ flag: String, _ value: String, _ parse: (String) throws -> T) throws -> T {
    do {
        return try parse(value)
    } catch {
        throw DualcamError.invalidValue(name: "\(flag) '\(value)'", reason: oneLine(error))
    }
}

/// Matrix rows for humans: fixed columns, 10 significant digits.
func formatMatrix(_ m: Matrix3, indent: String = "  ") -> String {
    [m.row0, m.row1, m.row2].map { row in
        indent + [row.x, row.y, row.z].map { String(format: "%17.10g", $0) }.joined(separator: " ")
    }.joined(separator: "\n")
}
