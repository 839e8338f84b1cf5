import DualcamFuzzing
import Foundation

// Two builds of one source:
// - built with -sanitize=fuzzer -DDUALCAM_FUZZ (scripts/fuzz.sh), libFuzzer
//   supplies main() and calls LLVMFuzzerTestOneInput with each input for the
//   target named by DUALCAM_FUZZ_TARGET;
// - built normally, `dualcam-fuzz TARGET FILE...` replays files through a
//   target (to reproduce a crash under a debugger), `--list` lists the targets.

#if DUALCAM_FUZZ
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let name = ProcessInfo.processInfo.environment["DUALCAM_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("dualcam-fuzz: set DUALCAM_FUZZ_TARGET to one of \(names) (got '\(name)')\n".utf8))
        exit(64)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    selected?.run(bytes)
    return 0
}

/// SwiftPM links an executable's entry as `<module>_main` and aliases
/// main to it; here it hands the process to libFuzzer's driver (which
/// calls LLVMFuzzerInitialize above first).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("dualcam_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzzTestOneInput(data, size) }
}
#else
@main
struct FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first, first != "--help" else {
            print("usage: dualcam-fuzz TARGET FILE... | --list  (fuzzing: scripts/fuzz.sh)")
            return
        }
        if first == "--list" {
            for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
            return
        }
        guard let target = FuzzTargets.named(first) else {
            FileHandle.standardError.write(Data("dualcam-fuzz: no target '\(first)' (see --list)\n".utf8))
            exit(64)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("dualcam-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run(data)
            print("\(target.name): \(path): ok")
        }
    }
}
#endif
