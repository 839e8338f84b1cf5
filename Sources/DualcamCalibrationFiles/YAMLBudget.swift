import CYaml
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
        try preflight(text, file: file)
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

    /// The budget checked on libyaml's events, before Yams composes the
    /// document: composing hashes mapping keys to find duplicates, and a key
    /// built from aliases (`[*a9, *a9]: x`) hashes its full expansion, so a
    /// bomb in a key took seconds to minutes inside Yams (found by fuzzing).
    /// Each anchor's expanded size is counted as its node closes; an alias
    /// adds that size. Syntax errors are left to Yams, which reports them.
    static func preflight(_ text: String, file: String) throws {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var anchors: [String: Int] = [:]
            var open: [(anchor: String?, count: Int)] = []  // collections being read, with their expanded sizes
            var total = 0
            func add(_ count: Int) throws {
                total += count
                if !open.isEmpty { open[open.count - 1].count += count }
                guard total <= InputLimits.maxYAMLNodes else {
                    throw DualcamError.format(
                        path: file, reason: "YAML expands to more than \(InputLimits.maxYAMLNodes) nodes, aliases counted in full (InputLimits.maxYAMLNodes)")
                }
            }
            func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return }  // Yams reports the syntax error
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_SCALAR_EVENT:
                    try add(1)
                    if let anchor = name(event.data.scalar.anchor) { anchors[anchor] = 1 }
                    let scalar = event.data.scalar
                    if let value = scalar.value, scalar.length < 256,
                       case let text = String(decoding: UnsafeBufferPointer(start: value, count: scalar.length), as: UTF8.self),
                       sexagesimalOutOfRange(text) {
                        throw DualcamError.format(
                            path: file, reason: "line \(event.start_mark.line + 1): the base-60 number '\(PrintableText.escaped(text, limit: 40))' is out of range")
                    }
                case YAML_ALIAS_EVENT:
                    try add(name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let anchor = event.type == YAML_SEQUENCE_START_EVENT ? name(event.data.sequence_start.anchor)
                                                                         : name(event.data.mapping_start.anchor)
                    try add(1)
                    open.append((anchor, 1))
                    guard open.count <= InputLimits.maxYAMLDepth else {
                        throw DualcamError.format(
                            path: file, reason: "YAML nests deeper than \(InputLimits.maxYAMLDepth) levels (InputLimits.maxYAMLDepth)")
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { return }
                    if let anchor = closed.anchor { anchors[anchor] = closed.count }
                    if !open.isEmpty { open[open.count - 1].count += closed.count - 1 }
                default:
                    continue
                }
            }
        }
    }

    /// True for YAML 1.1 base-60 integers (`190:20:30`) beyond Int64:
    /// Yams reads any scalar of digit groups joined by ':' as one when an
    /// integer is asked for, and traps on overflow (found by fuzzing the
    /// batch manifest: `8888880088884408085:0`), so they are refused first.
    static func sexagesimalOutOfRange(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let groups = body.split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count >= 2, groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        // Yams computes the value and the next power of 60 as it goes: both must stay in range.
        var value = 0.0, base = 1.0
        for group in groups.reversed() {
            value += (Double(group) ?? .infinity) * base
            base *= 60
        }
        return value >= 9.0e18 || base >= 9.0e18
    }

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
