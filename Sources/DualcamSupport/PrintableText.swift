/// Text from a file made safe for a one-line error message: printable ASCII
/// kept, every other byte or character written as an escape (\xNN, \u{...}),
/// cut after `limit` characters with "..." so a hostile file cannot flood or
/// garble the terminal.
public enum PrintableText {
    public static func escaped(_ text: Substring, limit: Int = 40) -> String {
        var out = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit { return out + "..." }
            if (0x20..<0x7F).contains(scalar.value) {
                out.unicodeScalars.append(scalar)
            } else if scalar.value < 0x100 {
                out += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    public static func escaped(_ text: String, limit: Int = 40) -> String { escaped(Substring(text), limit: limit) }

    /// `text` with only its control characters (C0, DEL, C1, line and
    /// paragraph separators) escaped; everything else, non-ASCII included, kept.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += scalar.value < 0x100 ? "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
                                            : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `escaped` in single quotes.
    public static func quoted(_ text: String, limit: Int = 40) -> String { "'\(escaped(text, limit: limit))'" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
