import Yams

/// A free-form value kept verbatim from (and written back to) the `extra`
/// section of a dualcam calibration file, so tools can attach their own
/// fields without dualcam understanding them.
///
/// `.scalar` is a plain YAML scalar whose type a YAML reader infers (a number,
/// `true`, `null`); `.string` is text and is quoted on output whenever it
/// would otherwise read as another type.
public indirect enum FreeFormValue: Equatable, Hashable, Sendable {
    case scalar(String)
    case string(String)
    case list([FreeFormValue])
    case mapping([FreeFormEntry])

    /// A number, written exactly (shortest round-trip representation).
    public static func number(_ x: Double) -> FreeFormValue { .scalar(YAMLBuilder.number(x)) }

    /// `.scalar` when a YAML reader would take `text` for a number, boolean or
    /// null, `.string` otherwise.
    public static func inferred(_ text: String) -> FreeFormValue {
        let plain = Node.scalar(.init(text, .implicit, .plain))
        return !text.isEmpty && Resolver.default.resolveTag(of: plain) != .str ? .scalar(text) : .string(text)
    }

    /// The text of a scalar or string, nil for lists and mappings.
    public var text: String? {
        switch self {
        case let .scalar(s), let .string(s): return s
        default: return nil
        }
    }

    /// The value as a number when it is a scalar that parses as one.
    public var number: Double? { text.flatMap { Double($0) } }
}

/// One key/value pair of a free-form mapping (order is kept).
public struct FreeFormEntry: Equatable, Hashable, Sendable {
    public var key: String
    public var value: FreeFormValue
    public init(_ key: String, _ value: FreeFormValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == FreeFormEntry {
    /// The value of the first entry named `key`.
    public subscript(key: String) -> FreeFormValue? {
        first(where: { $0.key == key })?.value
    }
}
