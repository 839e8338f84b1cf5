/// A Double that encodes as JSON `null` when it is NaN or infinite (a score
/// with no pixel to average), since JSON has no NaN and Foundation's encoder
/// refuses one.
@propertyWrapper
public struct NullIfNotFinite: Equatable, Sendable, Encodable {
    public var wrappedValue: Double

    public init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if wrappedValue.isFinite { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
