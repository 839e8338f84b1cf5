import ArgumentParser
import DualcamBench
import DualcamSupport
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run benchmarks: median and spread in ms, against plain OpenCV doing the same job.",
        discussion: """
            Build in release mode for meaningful figures (swift run -c release dualcam bench).

            Example: dualcam bench render --runs 5

            Benchmarks: \(Benchmarks.all.map { "\n  \($0.name): \($0.summary)" }.joined())
            """
    )

    @Argument(help: "Benchmark names (default: all).")
    var names: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Timed runs per benchmark (after one warm-up run).")
    var runs: Int = 5

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingErrors {
            guard (1...100).contains(runs) else {
                throw DualcamError.invalidValue(name: "--runs", reason: "expected 1 to 100")
            }
            let unknown = names.filter { !Benchmarks.names.contains($0) }
            if let name = unknown.first {
                throw DualcamError.invalidValue(
                    name: "benchmark '\(name)'", reason: "unknown; expected one of \(Benchmarks.names.joined(separator: ", "))")
            }
            #if DEBUG
            FileHandle.standardError.write(Data("warning: debug build; use `swift run -c release dualcam bench` for real figures\n".utf8))
            #endif
            let results = try Benchmarks.run(names, runs: runs)
            if json {
                try printJSON(results)
            } else {
                print(results.map(\.text).joined(separator: "\n\n"))
            }
        }
    }
}
