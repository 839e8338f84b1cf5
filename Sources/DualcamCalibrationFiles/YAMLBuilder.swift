import Yams

/// Builds Yams nodes for writing, with exact number formatting.
enum YAMLBuilder {
    /// Swift's shortest representation that reads back to the same Double
    /// (`"\(x)"`), with `.0` inserted before an exponent that has no decimal
    /// point (`1e-05` becomes `1.0e-05`) so that YAML 1.1 readers such as
    /// PyYAML also see a float. Only finite values are ever written.
    static func number(_ x: Double) -> String {
        precondition(x.isFinite, "only finite numbers are written")
        var text = "\(x)"
        if !text.contains("."), let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            text.insert(contentsOf: ".0", at: e)
        }
        return text
    }

    static func double(_ x: Double) -> Node { .scalar(.init(number(x), .implicit, .plain)) }

    static func int(_ x: Int) -> Node { .scalar(.init(String(x), .implicit, .plain)) }

    /// A string scalar, quoted when a YAML reader would otherwise take it for
    /// a number, boolean, null or timestamp (or when it is empty).
    static func string(_ s: String) -> Node {
        let plain = Node.scalar(.init(s, .implicit, .plain))
        let looksLikeString = !s.isEmpty && Resolver.default.resolveTag(of: plain) == .str
        return .scalar(.init(s, .implicit, looksLikeString ? .any : .doubleQuoted))
    }

    /// A plain scalar written as is (numbers, booleans of free-form fields).
    static func plain(_ s: String) -> Node { .scalar(.init(s, .implicit, .plain)) }

    static func numbers(_ xs: [Double]) -> Node {
        .sequence(.init(xs.map(double), .implicit, .flow))
    }

    static func map(_ pairs: [(String, Node)], flow: Bool = false) -> Node {
        .mapping(.init(pairs.map { (Node.scalar(.init($0.0, .implicit, .plain)), $0.1) }, .implicit,
                       flow ? .flow : .block))
    }

    static func list(_ nodes: [Node]) -> Node { .sequence(.init(nodes, .implicit, .block)) }

    /// Serializes a document; `comment` lines are prepended as `# ...`.
    static func document(_ root: Node, comment: String?) throws -> String {
        let body = try Yams.serialize(node: root, indent: 2, width: -1, allowUnicode: true)
        guard let comment, !comment.isEmpty else { return body }
        let header = comment.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "#" : "# \($0)" }.joined(separator: "\n")
        return header + "\n" + body
    }
}
