import Foundation

/// Wall-clock milliseconds per named step, summed over repeats (for `--json` reports).
final class Timings {
    private(set) var milliseconds: [String: Double] = [:]

    func measure<T>(_ key: String, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer { milliseconds[key, default: 0] += Date().timeIntervalSince(start) * 1000 }
        return try body()
    }
}
