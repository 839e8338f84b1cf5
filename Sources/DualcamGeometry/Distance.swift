/// A positive distance, stored in metres (infinity allowed: the plane at infinity).
///
/// Parses a number immediately followed (optionally after spaces) by a unit:
/// `1.2m`, `120cm`, `1200mm`, `4ft`, `48in`, or `inf`. Zero, negative, NaN,
/// a missing unit or an unknown unit is an error whose message lists what is
/// accepted.
public struct Distance: Equatable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let metres: Double

    public static let accepted = "a positive number with a unit (m, cm, mm, ft, in), e.g. 1.2m, 120cm, 1200mm, 4ft, 48in, or inf"

    public init(metres: Double) throws {
        guard !metres.isNaN, metres > 0 else {
            throw GeometryError.invalidDistance("distance must be positive, got \(metres) m; expected \(Distance.accepted)")
        }
        self.metres = metres
    }

    public static let infinity = try! Distance(metres: .infinity)

    public init(parsing raw: String) throws {
        let text = raw.trimmingSpaces()
        let lower = text.lowercased()
        if ["inf", "infinity", "+inf"].contains(lower) { self = .infinity; return }
        guard !text.isEmpty else {
            throw GeometryError.invalidDistance("distance is empty; expected \(Distance.accepted)")
        }
        // Split into the longest numeric prefix and the unit that follows.
        let numberChars = Set("+-0123456789.eE")
        var split = lower.startIndex
        while split < lower.endIndex, numberChars.contains(lower[split]) {
            // An 'e' only belongs to the number if a digit or sign follows (so "1e3m" parses but not "1em").
            if lower[split] == "e" {
                let next = lower.index(after: split)
                guard next < lower.endIndex, "+-0123456789".contains(lower[next]) else { break }
            }
            split = lower.index(after: split)
        }
        let numberText = String(lower[..<split])
        let unitText = String(lower[split...]).trimmingSpaces()
        guard let value = Double(numberText) else {
            if lower.hasPrefix("nan") || lower.hasPrefix("-nan") {
                throw GeometryError.invalidDistance("distance '\(raw)' is not a number; expected \(Distance.accepted)")
            }
            throw GeometryError.invalidDistance("cannot read '\(raw)' as a distance; expected \(Distance.accepted)")
        }
        guard value.isNaN || value > 0 else {
            throw GeometryError.invalidDistance("distance '\(raw)' must be greater than zero; expected \(Distance.accepted)")
        }
        guard !unitText.isEmpty else {
            throw GeometryError.invalidDistance("distance '\(raw)' has no unit; expected \(Distance.accepted)")
        }
        guard let unit = LengthUnit.parse(unitText) else {
            throw GeometryError.invalidDistance("distance '\(raw)' has unknown unit '\(unitText)'; expected \(Distance.accepted)")
        }
        guard value.isFinite else {
            throw GeometryError.invalidDistance("distance '\(raw)' is not finite (write inf for infinity); expected \(Distance.accepted)")
        }
        guard value > 0 else {
            throw GeometryError.invalidDistance("distance '\(raw)' must be greater than zero; expected \(Distance.accepted)")
        }
        try self.init(metres: value * unit.metres)
    }

    /// The value in `unit`.
    public func value(in unit: LengthUnit) -> Double { metres / unit.metres }

    public var isInfinite: Bool { metres.isInfinite }

    public static func < (a: Distance, b: Distance) -> Bool { a.metres < b.metres }

    /// Metres with a unit, e.g. `1.2 m` or `inf`.
    public var description: String { isInfinite ? "inf" : "\(metres) m" }
}

extension LengthUnit {
    /// A unit from its symbol or name (`m`, `metre(s)`, `meter(s)`, `cm`, `mm`, `ft`, `feet`, `in`, `inch(es)`).
    public static func parse(_ text: String) -> LengthUnit? {
        switch text.lowercased() {
        case "m", "metre", "metres", "meter", "meters": return .metre
        case "cm", "centimetre", "centimetres", "centimeter", "centimeters": return .centimetre
        case "mm", "millimetre", "millimetres", "millimeter", "millimeters": return .millimetre
        case "ft", "foot", "feet": return .foot
        case "in", "inch", "inches": return .inch
        default: return nil
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
