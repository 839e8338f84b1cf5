import Foundation
import TestSupport
import XCTest

/// Keeps Sources readable in one sitting: no file over 350 lines and no
/// function over 80 lines (Swift `func`/`init`/`deinit`/`subscript` bodies;
/// C and C++ bodies opened at namespace level), as issue 21 set them. The
/// scan is textual: it counts braces outside comments, strings and character
/// literals, which is enough for this codebase's style.
final class SourceLimitsTests: XCTestCase {
    static let maximumFileLines = 350
    static let maximumFunctionLines = 80

    func testNoLongFilesOrFunctions() throws {
        let sources = DualcamBinary.packageRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard ["swift", "c", "cpp", "h", "hpp"].contains(url.pathExtension) else { continue }
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            let name = url.path.replacingOccurrences(of: sources.path + "/", with: "")
            if lines.count > Self.maximumFileLines { offenders.append("\(name): \(lines.count) lines") }
            for body in FunctionBodies.scan(lines, swift: url.pathExtension == "swift")
            where body.lines > Self.maximumFunctionLines {
                offenders.append("\(name):\(body.start): a function of \(body.lines) lines")
            }
        }
        XCTAssertEqual(offenders, [], "over the limits (\(Self.maximumFileLines) lines a file, \(Self.maximumFunctionLines) a function)")
    }

    func testTheScanFindsALongFunction() {
        let body = Array(repeating: "    x += 1 // { not a brace", count: 90)
        let swift = ["struct S {", "    func f() {"] + body + ["    }", "}"]
        XCTAssertEqual(FunctionBodies.scan(swift, swift: true).map(\.lines), [92])
        let cpp = ["namespace a {", "int f(int x) {"] + body + ["}", "}  // namespace a"]
        XCTAssertEqual(FunctionBodies.scan(cpp, swift: false).map(\.lines), [92])
    }
}

/// Function bodies found by brace matching: where each starts (1-based line)
/// and how many lines it spans.
enum FunctionBodies {
    static func scan(_ lines: [String], swift: Bool) -> [(start: Int, lines: Int)] {
        var found: [(start: Int, lines: Int)] = []
        var depth = 0, containers: [Int] = [], open: [(depth: Int, start: Int)] = []
        var pending: Int?
        var inBlockComment = false
        for (index, raw) in lines.enumerated() {
            let code = stripped(raw, inBlockComment: &inBlockComment)
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            let atTop = depth - containers.count == 0
            if swift {
                if pending == nil, isSwiftFunction(trimmed) { pending = index + 1 }
            } else if atTop, !trimmed.hasPrefix("#") {
                if isContainer(trimmed), code.contains("{") {
                    containers.append(depth)
                    pending = nil
                } else if pending == nil, code.contains("(") {
                    pending = index + 1
                }
            }
            for ch in code {
                if ch == "{" {
                    if let start = pending { open.append((depth, start)); pending = nil }
                    depth += 1
                } else if ch == "}" {
                    depth -= 1
                    if let last = open.last, last.depth == depth {
                        open.removeLast()
                        found.append((last.start, index + 1 - last.start + 1))
                    }
                    if containers.last == depth { containers.removeLast() }
                }
            }
            if !swift, code.contains(";"), depth - containers.count == 0 { pending = nil }
        }
        return found
    }

    private static func isSwiftFunction(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "<" }).map(String.init)
        return words.contains("func") || words.contains("init") || words.contains("init?") || words.contains("deinit")
            || words.contains("subscript")
    }

    private static func isContainer(_ line: String) -> Bool {
        ["namespace", "extern \"\"", "struct", "class", "enum", "union", "typedef struct"].contains { line.hasPrefix($0) }
    }

    /// The line without comments, string and character literal contents.
    private static func stripped(_ line: String, inBlockComment: inout Bool) -> String {
        var out = "", chars = Array(line), i = 0
        while i < chars.count {
            if inBlockComment {
                if chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "/" { inBlockComment = false; i += 2 } else { i += 1 }
                continue
            }
            let c = chars[i], next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == "/", next == "/" { break }
            if c == "/", next == "*" { inBlockComment = true; i += 2; continue }
            if c == "\"" || c == "'" {
                var j = i + 1
                while j < chars.count, chars[j] != c { j += chars[j] == "\\" ? 2 : 1 }
                out += "\"\""
                i = j + 1
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }
}
