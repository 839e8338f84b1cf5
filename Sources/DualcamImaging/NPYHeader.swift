import DualcamSupport

/// The header dictionary of a NumPy .npy file, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (480, 640), }`.
///
/// It is a Python literal; this parser accepts exactly what NumPy writes: a
/// dict whose keys are the three strings 'descr', 'fortran_order' and 'shape'
/// (each once, any order), with a string, True/False and a tuple of
/// non-negative integers (Python 2's `480L` included) as values, optional
/// trailing commas, then only whitespace.
struct NPYHeader: Equatable {
    var descr: String
    var fortranOrder: Bool
    var shape: [Int]

    /// The dictionary text NumPy would write (without padding).
    var literal: String {
        let dims = shape.map(String.init).joined(separator: ", ")
        let tuple = shape.count == 1 ? "(\(dims),)" : "(\(dims))"
        return "{'descr': '\(descr)', 'fortran_order': \(fortranOrder ? "True" : "False"), 'shape': \(tuple), }"
    }

    private enum Value {
        case string(String), bool(Bool), tuple([Int])
    }

    static func parse(_ text: String) throws -> NPYHeader {
        var parser = Parser(characters: Array(text.unicodeScalars))
        var values: [String: Value] = [:]
        parser.skipSpaces()
        try parser.expect("{")
        while true {
            parser.skipSpaces()
            if parser.consume("}") { break }
            let key = try parser.string()
            guard ["descr", "fortran_order", "shape"].contains(key) else {
                throw bad("unexpected key '\(key)' in the NPY header (expected descr, fortran_order, shape)")
            }
            guard values[key] == nil else { throw bad("key '\(key)' appears twice in the NPY header") }
            parser.skipSpaces()
            try parser.expect(":")
            parser.skipSpaces()
            values[key] = try parser.value()
            parser.skipSpaces()
            if parser.consume(",") { continue }
            try parser.expect("}")
            break
        }
        parser.skipSpaces()
        guard parser.atEnd else { throw bad("unexpected text after the NPY header dictionary") }
        guard case let .string(descr)? = values["descr"] else { throw bad("NPY header lacks a string 'descr'") }
        guard case let .bool(fortran)? = values["fortran_order"] else {
            throw bad("NPY header lacks a True/False 'fortran_order'")
        }
        guard case let .tuple(shape)? = values["shape"] else { throw bad("NPY header lacks a tuple 'shape'") }
        return NPYHeader(descr: descr, fortranOrder: fortran, shape: shape)
    }

    fileprivate static func bad(_ reason: String) -> DualcamError { .invalidValue(name: "NPY", reason: reason) }

    private struct Parser {
        let characters: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool { index >= characters.count }

        mutating func skipSpaces() {
            while !atEnd, characters[index].properties.isWhitespace { index += 1 }
        }

        mutating func consume(_ c: Unicode.Scalar) -> Bool {
            guard !atEnd, characters[index] == c else { return false }
            index += 1
            return true
        }

        mutating func expect(_ c: Unicode.Scalar) throws {
            guard consume(c) else {
                let found = atEnd ? "the end" : "'\(characters[index])'"
                throw bad("malformed NPY header: expected '\(c)' at character \(index), found \(found)")
            }
        }

        mutating func string() throws -> String {
            guard !atEnd, characters[index] == "'" || characters[index] == "\"" else {
                throw bad("malformed NPY header: expected a quoted string at character \(index)")
            }
            let quote = characters[index]
            index += 1
            var result = String.UnicodeScalarView()
            while !atEnd, characters[index] != quote {
                guard characters[index] != "\\" else { throw bad("escape sequences are not supported in NPY headers") }
                result.append(characters[index])
                index += 1
            }
            try expect(quote)
            return String(result)
        }

        mutating func word() -> String {
            var result = ""
            while !atEnd, characters[index].properties.isAlphabetic || ("0"..."9").contains(characters[index]) {
                result.unicodeScalars.append(characters[index])
                index += 1
            }
            return result
        }

        mutating func value() throws -> Value {
            guard !atEnd else { throw bad("malformed NPY header: a value is missing") }
            switch characters[index] {
            case "'", "\"":
                return .string(try string())
            case "(":
                index += 1
                var dims: [Int] = []
                while true {
                    skipSpaces()
                    if consume(")") { break }
                    var token = word()
                    if token.hasSuffix("L") { token.removeLast() }
                    guard let dim = Int(token), dim >= 0 else {
                        throw bad("NPY shape holds '\(token)', expected a non-negative integer")
                    }
                    dims.append(dim)
                    skipSpaces()
                    if consume(",") { continue }
                    try expect(")")
                    break
                }
                return .tuple(dims)
            default:
                let token = word()
                if token == "True" { return .bool(true) }
                if token == "False" { return .bool(false) }
                throw bad("malformed NPY header: unexpected value '\(token)' at character \(index)")
            }
        }
    }
}
