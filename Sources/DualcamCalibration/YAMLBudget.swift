import DualcamSupport
import Foundation
import Yams

/// YAML documents under the size policy (`InputLimits`): a document may
/// expand to at most `maxYAMLNodes` nodes, counting each alias as a full
/// copy of what it names, and nest at most `maxYAMLDepth` levels.
///
/// Yams composes aliases by sharing (cheaply), but every reader afterwards
/// walks the expanded tree: 1.5 kB of nested aliases ("billion laughs")
/// expands to 10^9 nodes. The walk here stops at the budget, so it costs at
/// most `maxYAMLNodes` steps whatever the file holds.
public enum YAMLBudget {
    /// Parses `text` (named `file` in errors) into its root node, or nil for
    /// an empty document; syntax errors and documents over the budget are
    /// `.format` errors naming the file and the limit.
    public static func compose(_ text: String, file: String) throws -> Node? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw DualcamError.format(path: file, reason: "not valid YAML: \(YAMLDocument.oneLine(error))")
        } catch {
            throw DualcamError.format(path: file, reason: "not valid YAML: \(PrintableText.escaped("\(error)", limit: 200))")
        }
        if let node { try check(node, file: file) }
        return node
    }

    /// `compose`, then plain values: `[String: Any]`, `[Any]` and scalars
    /// (as Yams' constructor types them). A mapping key that is not a scalar
    /// (`{a: 1}: x`) is a `.format` error; `Yams.load` trapped on it.
    public static func load(_ text: String, file: String) throws -> Any? {
        func plain(_ node: Node) throws -> Any {
            switch node {
            case .scalar, .alias: return node.any
            case let .sequence(sequence): return try sequence.map(plain)
            case let .mapping(mapping):
                var result: [String: Any] = [:]
                for (key, value) in mapping {
                    guard case let .scalar(scalar) = key else {
                        let line = key.mark.map { "line \($0.line): " } ?? ""
                        throw DualcamError.format(path: file, reason: "\(line)a mapping key must be plain text, not a list or mapping")
                    }
                    result[scalar.string] = try plain(value)
                }
                return result
            }
        }
        return try compose(text, file: file).map(plain)
    }

    /// The UTF-8 text of a regular file; a missing, unreadable or special file
    /// (a directory, a device) is a one-line `.io` error naming it.
    public static func readText(_ url: URL) throws -> String { try YAMLDocument.readText(url) }

    /// Throws when `node` expands beyond the budget.
    public static func check(_ node: Node, file: String) throws {
        var remaining = InputLimits.maxYAMLNodes
        func visit(_ node: Node, depth: Int) throws {
            guard depth <= InputLimits.maxYAMLDepth else {
                throw DualcamError.format(
                    path: file, reason: "YAML nests deeper than \(InputLimits.maxYAMLDepth) levels (InputLimits.maxYAMLDepth)")
            }
            remaining -= 1
            guard remaining >= 0 else {
                throw DualcamError.format(
                    path: file, reason: "YAML expands to more than \(InputLimits.maxYAMLNodes) nodes, aliases counted in full (InputLimits.maxYAMLNodes)")
            }
            switch node {
            case .scalar, .alias: return
            case let .sequence(sequence): for child in sequence { try visit(child, depth: depth + 1) }
            case let .mapping(mapping):
                for (key, value) in mapping {
                    try visit(key, depth: depth + 1)
                    try visit(value, depth: depth + 1)
                }
            }
        }
        try visit(node, depth: 0)
    }
}
