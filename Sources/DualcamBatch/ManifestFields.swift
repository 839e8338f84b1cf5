import DualcamSupport
import Foundation

/// Typed access to the fields of a parsed manifest (plain values from
/// `YAMLBudget.load`), every refusal one line naming the file and the field.
struct FieldReader {
    let file: String
    let base: URL

    func fail(_ field: String, _ reason: String) -> DualcamError { .format(path: file, reason: "\(field): \(reason)") }

    func mapping(_ value: Any, _ field: String) throws -> [String: Any] {
        guard let map = value as? [String: Any] else { throw fail(field, "expected a mapping of keys to values") }
        return map
    }

    /// Refuses keys outside `allowed` (a misspelt key must not be ignored).
    func onlyKeys(_ map: [String: Any], _ allowed: [String], in field: String) throws {
        if let unknown = map.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw fail(field, "unknown key '\(PrintableText.escaped(unknown, limit: 60))'; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    /// A text value (a number or boolean written without quotes is taken as its text); nil when absent.
    func string(_ value: Any?, _ field: String) throws -> String? {
        guard let value, !(value is NSNull) else { return nil }
        let text: String
        switch value {
        case let s as String: text = s
        case let i as Int: text = String(i)
        case let d as Double: text = d.isFinite ? "\(d)" : ""
        default: throw fail(field, "expected text")
        }
        guard !text.isEmpty, text.count <= 4096 else { throw fail(field, "expected non-empty text of at most 4096 characters") }
        guard !text.contains(where: { $0.isNewline || $0 == "\0" }) else { throw fail(field, "expected one line of text") }
        return text
    }

    func integer(_ value: Any?, _ field: String, in range: ClosedRange<Int>) throws -> Int {
        let number: Double
        switch value {
        case let i as Int: number = Double(i)
        case let d as Double: number = d
        case nil: throw fail(field, "missing; expected an integer from \(range.lowerBound) to \(range.upperBound)")
        default: throw fail(field, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        do { return try InputLimits.integer(number, name: field, in: range) } catch let DualcamError.invalidValue(_, reason) {
            throw fail(field, reason)
        }
    }

    func job(_ value: Any, _ field: String) throws -> BatchManifest.Job {
        guard let text = value as? String, let job = BatchManifest.Job(rawValue: text) else {
            throw fail(field, "expected depth, fuse or converge")
        }
        return job
    }

    /// `{name: value}`: text or number values become `--name value`, true
    /// `--name`, false leaves the flag out. Names are lower-case words with dashes.
    func options(_ value: Any?, _ field: String) throws -> [BatchManifest.Option] {
        guard let value, !(value is NSNull) else { return [] }
        let map = try mapping(value, field)
        guard map.count <= 100 else { throw fail(field, "more than 100 options") }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        var result: [BatchManifest.Option] = []
        for key in map.keys.sorted() {
            guard (1...40).contains(key.count), key.allSatisfy(allowed.contains), key.first!.isLetter else {
                throw fail(field, "'\(PrintableText.escaped(key, limit: 60))' is not an option name; expected the command's flag without '--' (e.g. size)")
            }
            switch map[key] {
            case let flag as Bool: if flag { result.append(.init(name: key, value: nil)) }
            default:
                guard let text = try string(map[key], "\(field).\(key)") else { throw fail("\(field).\(key)", "missing value") }
                result.append(.init(name: key, value: text))
            }
        }
        return result
    }

    /// A path from the manifest, relative to its directory unless absolute.
    func path(_ text: String) -> URL {
        (text.hasPrefix("/") ? URL(fileURLWithPath: text) : base.appendingPathComponent(text)).standardizedFileURL
    }
}
