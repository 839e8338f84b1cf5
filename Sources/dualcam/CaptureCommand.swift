import ArgumentParser
import DualcamCapture
import DualcamSupport
import DualcamV4L2
import Foundation

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Capture synchronized wide/tele pairs from two V4L2 cameras or one side-by-side device.",
        discussion: """
            Writes DIR/wide/frame_NNNNNN.png, DIR/tele/frame_NNNNNN.png, DIR/pairs.csv (timestamps,
            skew, driver drops, synchronizer drops per pair) and DIR/{wide,tele}/timestamps.csv.
            Two free-running cameras are paired by timestamp (each frame at most once, never crossing,
            tightest pairs, at most --max-skew apart). If a camera is unplugged, capture stops; the
            pairs already written are complete. Without --count or --duration it runs until Ctrl-C,
            which also stops cleanly.

            Example: dualcam capture --wide /dev/video0 --tele /dev/video2 --size 1280x720 --fps 30 --count 100 --out pairs
            """
    )

    @Option(name: .long, help: "Wide camera device (e.g. /dev/video0).")
    var wide: String?

    @Option(name: .long, help: "Tele camera device (e.g. /dev/video2).")
    var tele: String?

    @Option(name: .long, parsing: .unconditional, help: "Camera frame rate (default: the highest both cameras offer at the size).")
    var fps: Double?

    @OptionGroup var device: DeviceOptions

    @OptionGroup var camera: CameraModeOptions

    @Option(name: .long, help: "Output directory (new or empty).")
    var out: String

    func run() throws {
        try reportingErrors { try execute() }
    }

    func execute() throws {
        let options = try device.liveOptions(wide: wide, tele: tele, fps: fps, size: camera.size, format: camera.format)
        let limit = try device.limit()
        let outURL = URL(fileURLWithPath: out)
        // Validate the destination before opening cameras.
        let parent = outURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: out, reason: "parent directory \(parent.path) does not exist")
        }
        let source = try LivePairSource(options: options)
        for note in source.notes { FileHandle.standardError.write(Data("capture: \(note)\n".utf8)) }
        FileHandle.standardError.write(Data("capture: \(source.label): \(source.modes.map(\.description).joined(separator: " + ")), max skew \(formatMs(source.maxSkewNs))\n".utf8))
        let recorder = try CaptureRecorder(directory: outURL)
        let progress = Progress(label: "capture: pair", total: limit.pairs)
        captureInterrupted = 0
        // Ctrl-C stops after the current pair (StagingRegistry delivers SIGINT here, not as an exit).
        StagingRegistry.setInterruptHandler { captureInterrupted = 1 }
        defer { StagingRegistry.setInterruptHandler(nil) }
        let pairs = try recordPairs(from: source, to: recorder, limit: limit, shouldStop: { captureInterrupted != 0 }) { n, _ in
            progress.update(n)
        }
        progress.end()
        let s = source.statistics
        print("capture: \(pairs) pairs -> \(out); unpaired wide \(s.unpairedWide), tele \(s.unpairedTele); dropped by the drivers wide \(s.droppedByDeviceWide), tele \(s.droppedByDeviceTele); skew median \(formatMs(s.medianSkewNs)), max \(formatMs(s.maxSkewNs))")
        if let reason = source.stopReason { throw reason }
    }
}

/// Set on SIGINT while capturing (Ctrl-C stops after the current pair).
nonisolated(unsafe) var captureInterrupted: sig_atomic_t = 0
