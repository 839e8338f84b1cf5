import DualcamBatch
import DualcamCapture
import DualcamDepthMap
import DualcamSupport
import Foundation

extension BatchJobs {
    /// Extensions a samples file may have (those `dualcam fuse --samples` reads).
    static let samplesExtensions: Set<String> = ["csv", "ply", "png", "pfm", "xyz"]

    /// fuse: `fused_NNNN.FORMAT` + sidecars, one `dualcam fuse --wide F --tele F
    /// --samples S -o OUT` per pair (the command itself, run as a child process,
    /// so a batch pair is exactly a plain fuse run), the samples file of a pair
    /// named after its wide frame (`frame_000012.png` -> `samples/frame_000012.csv`).
    static func fuse(_ r: BatchManifest.Recording, _ pairs: PairPlan) throws -> BatchJob {
        guard let list = pairs.pairs else {
            throw DualcamError.invalidValue(name: "wide/tele", reason: "fuse takes image directories (a video frame has no file to hand to fuse)")
        }
        var flags = r.options.filter { $0.name != "format" }
        let format = r.options.first { $0.name == "format" }?.value ?? "pfm"
        guard (try? DepthFileFormat.of(URL(fileURLWithPath: "f.\(format)")))?.isWritable == true else {
            throw DualcamError.invalidValue(name: "format \(format)", reason: "expected pfm, npy, png or exr (one this OpenCV build writes)")
        }
        for o in flags where o.value == nil { throw DualcamError.invalidValue(name: o.name, reason: "expected a value") }
        flags.sort { $0.name < $1.name }
        let flagList = flags.flatMap { ["--\($0.name)"] + ($0.value.map { [$0] } ?? []) }
        // The values, checked before any unit runs by fuse's own parser (each fuse run checks them again).
        let command = try parse(FuseCommand.self, ["--wide", "wide.png", "--samples", "samples.csv", "--calibration", r.calibration.path,
                                                   "-o", "fused.pfm"] + flagList)
        if command.completion == .morphology {
            throw DualcamError.invalidValue(name: "completion morphology", reason: "expected guided (the batch passes --tele, which morphology cannot use)")
        }
        _ = try DepthOutputSize(parsing: command.size, flag: "size")
        let samples = try samplesFiles(in: r.samples!)
        let samplesDir = r.samples!
        func samplesFile(_ wide: FrameRef) throws -> URL {
            let stem = stemOf(wide.file!.lastPathComponent)
            guard let file = samples[stem] else {
                throw DualcamError.io(path: samplesDir.appendingPathComponent(stem).path,
                                      reason: "no samples file (.csv, .ply, .png, .pfm or .xyz) for the wide frame \(wide.file!.lastPathComponent)")
            }
            return file
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return BatchJob(policy: .independent, flags: r.flags, extraInputs: { unit in
            try list[unit.first..<min(unit.end ?? list.count, list.count)].map { try samplesFile($0.wide) }
        }) { unit, staging in
            var names: [String] = []
            let end = min(unit.end ?? list.count, list.count)
            for k in unit.first..<end {
                let (w, t) = list[k]
                let name = String(format: "fused_%04d.%@", k, format)
                let arguments = ["fuse", "--wide", w.file!.path, "--tele", t.file!.path, "--samples", try samplesFile(w).path,
                                 "--calibration", r.calibration.path] + flagList + ["-o", staging.appendingPathComponent(name).path]
                let (status, stderr) = try runChild(executable, arguments)
                guard status == 0 else {
                    let line = stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? "exit status \(status)"
                    let reason = line.hasPrefix("dualcam: ") ? String(line.dropFirst(9)) : line
                    throw DualcamError.invalidValue(name: "fuse of pair \(k) (\(w.file!.lastPathComponent))", reason: reason)
                }
                names += [name, name + ".json"]
            }
            return UnitOutcome(outputs: names, endPair: end)
        }
    }

    /// File name without its last extension.
    static func stemOf(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// stem -> samples file of a directory; two files of one stem are an error.
    static func samplesFiles(in dir: URL) throws -> [String: URL] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: dir.path) } catch {
            throw DualcamError.io(path: dir.path, reason: "cannot list the samples directory: \(error.localizedDescription)")
        }
        var result: [String: URL] = [:]
        for name in names.sorted() where !name.hasPrefix(".") && samplesExtensions.contains((name as NSString).pathExtension.lowercased()) {
            let stem = stemOf(name)
            if let other = result.updateValue(dir.appendingPathComponent(name), forKey: stem) {
                throw DualcamError.format(path: dir.path, reason: "\(other.lastPathComponent) and \(name) are both samples for the frame \(stem); keep one")
            }
        }
        return result
    }

    /// Runs `executable` with `arguments` (no stdin, stdout discarded); returns its status and stderr.
    static func runChild(_ executable: URL, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        do { try process.run() } catch {
            throw DualcamError.io(path: executable.path, reason: "cannot start: \(error.localizedDescription)")
        }
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
