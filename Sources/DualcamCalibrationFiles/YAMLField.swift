import DualcamSupport
import Foundation
import Yams

/// A node of a parsed YAML document together with where it sits (file and
/// dotted field path, e.g. `cameras[1].intrinsics.fx`), so that every
/// validation error is one line naming the file, the line and the field.
struct YAMLField {
    let node: Node
    /// Dotted path of the field from the document root ("" for the root).
    let path: String
    /// The file the document came from (for messages).
    let file: String

    /// A `DualcamError.format` naming the file, line and field.
    func error(_ reason: String) -> DualcamError {
        var prefix = ""
        if let line = node.mark?.line { prefix += "line \(line): " }
        if !path.isEmpty { prefix += "\(path): " }
        return .format(path: file, reason: prefix + reason)
    }

    func child(_ node: Node, _ component: String) -> YAMLField {
        YAMLField(node: node, path: path.isEmpty ? component : "\(path).\(component)", file: file)
    }

    /// A short rendering of the value for error messages.
    var shortDescription: String {
        switch node {
        case let .scalar(s): return s.string.count > 40 ? "'\(s.string.prefix(40))...'" : "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    var isNull: Bool {
        guard case let .scalar(s) = node, s.style == .plain || s.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    func mapping() throws -> YAMLMapping {
        guard case let .mapping(m) = node else { throw error("expected a mapping, got \(shortDescription)") }
        var pairs: [(String, YAMLField)] = []
        for (key, value) in m {
            guard case let .scalar(k) = key else { throw error("mapping keys must be plain strings") }
            pairs.append((k.string, child(value, k.string)))
        }
        return YAMLMapping(field: self, pairs: pairs)
    }

    func sequence() throws -> [YAMLField] {
        guard case let .sequence(s) = node else { throw error("expected a list, got \(shortDescription)") }
        return s.enumerated().map { i, n in
            YAMLField(node: n, path: "\(path)[\(i)]", file: file)
        }
    }

    /// A plain (unquoted) scalar's text; quoted scalars are strings, not numbers.
    private func plainScalar(expecting what: String) throws -> String {
        guard case let .scalar(s) = node else { throw error("expected \(what), got \(shortDescription)") }
        guard s.style == .plain || s.style == .any else {
            throw error("expected \(what), got the quoted string \(shortDescription)")
        }
        return s.string
    }

    /// A finite number, parsed from the scalar's text with Swift's correctly
    /// rounded `Double(String)`, so shortest-representation output round-trips exactly.
    func double() throws -> Double {
        let text = try plainScalar(expecting: "a number")
        let lower = text.lowercased()
        if [".nan", "nan", "-nan", ".inf", "+.inf", "-.inf", "inf", "-inf", "+inf", "infinity", "-infinity"]
            .contains(lower) {
            throw error("expected a finite number, got \(text)")
        }
        guard let value = Double(text.replacingOccurrences(of: "_", with: "")), !lower.hasPrefix("0x") else {
            throw error("expected a number, got \(shortDescription)")
        }
        guard value.isFinite else { throw error("expected a finite number, got \(text)") }
        return value
    }

    func int() throws -> Int {
        let text = try plainScalar(expecting: "an integer")
        guard let value = Int(text) else { throw error("expected an integer, got \(shortDescription)") }
        return value
    }

    func positiveInt() throws -> Int {
        let value = try int()
        guard value > 0 else { throw error("expected a positive integer, got \(value)") }
        return value
    }

    /// Any scalar's text (plain scalars such as `123` are accepted as strings).
    func string() throws -> String {
        guard case let .scalar(s) = node else { throw error("expected a string, got \(shortDescription)") }
        return s.string
    }

    /// A list of exactly `count` numbers (any count when nil).
    func doubles(count: Int? = nil) throws -> [Double] {
        let items = try sequence()
        if let count, items.count != count {
            throw error("expected a list of \(count) numbers, got \(items.count)")
        }
        return try items.map { try $0.double() }
    }
}

/// A YAML mapping's entries in document order, with required/optional lookups
/// and a check against unknown keys (which catches typos in hand-written files).
struct YAMLMapping {
    let field: YAMLField
    let pairs: [(String, YAMLField)]

    var keys: [String] { pairs.map(\.0) }

    func optional(_ key: String) -> YAMLField? {
        guard let f = pairs.first(where: { $0.0 == key })?.1, !f.isNull else { return nil }
        return f
    }

    func required(_ key: String) throws -> YAMLField {
        guard let f = pairs.first(where: { $0.0 == key })?.1 else {
            let full = field.path.isEmpty ? key : "\(field.path).\(key)"
            let line = field.node.mark.map { "line \($0.line): " } ?? ""
            throw DualcamError.format(path: field.file, reason: "\(line)missing field '\(full)'")
        }
        guard !f.isNull else { throw f.error("field '\(key)' is empty") }
        return f
    }

    /// Throws for keys outside `allowed`, listing what is accepted.
    func rejectUnknownKeys(_ allowed: [String], hint: String = "") throws {
        for (key, f) in pairs where !allowed.contains(key) {
            throw f.error("unknown field '\(key)'; expected one of \(allowed.joined(separator: ", "))\(hint)")
        }
    }
}

enum YAMLDocument {
    /// Parses `text` into its root node; syntax errors become one line with
    /// the position, a document beyond `YAMLBudget` an error naming the limit.
    static func root(_ text: String, file: String) throws -> YAMLField {
        let node = try YAMLBudget.compose(text, file: file)
        guard let node else { throw DualcamError.format(path: file, reason: "the file is empty") }
        return YAMLField(node: node, path: "", file: file)
    }

    static func oneLine(_ error: YamlError) -> String {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            let ctx = context.map { "\($0.text) " } ?? ""
            return "line \(mark.line) column \(mark.column): \(PrintableText.escaped(ctx + problem, limit: 200))"
        default:
            return PrintableText.escaped("\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)", limit: 200)
        }
    }

    /// Reads a UTF-8 text file; a missing or unreadable file is a `DualcamError.io`.
    static func readText(_ url: URL) throws -> String {
        guard let text = String(data: try FileContents.read(url), encoding: .utf8) else {
            throw DualcamError.format(path: url.path, reason: "not UTF-8 text")
        }
        return text
    }
}
