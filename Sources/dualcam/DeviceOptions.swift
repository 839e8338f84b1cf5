import ArgumentParser
import DualcamCapture
import DualcamSupport
import DualcamV4L2
import Foundation

/// Options for V4L2 cameras shared by capture and converge (--wide/--tele are
/// the commands' own options; for these commands they may name devices).
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: "One side-by-side stereo V4L2 device (left half wide, right half tele), instead of --wide/--tele; converge also takes a side-by-side image or video.")
    var stereo: String?

    @Option(name: .long, help: "Camera frame size WxH (default: the largest both cameras offer).")
    var size: String?

    @Option(name: .long, help: "Camera pixel format: mjpeg or yuyv (default: mjpeg when both offer it).")
    var format: String?

    @Option(name: .customLong("max-skew"), help: "Largest time between the two frames of a pair, e.g. 10ms (default: half a frame interval).")
    var maxSkew: String?

    @Flag(name: .long, help: "When the USB bus has no bandwidth (ENOSPC), lower format, rate and size step by step until the pair runs.")
    var fit = false

    @Option(name: .long, help: "Stop after N pairs.")
    var count: Int?

    @Option(name: .long, help: "Stop after this much capture time, e.g. 10s, 500ms, 2min.")
    var duration: String?

    /// True when these options (or a device path in --wide/--tele) ask for live cameras.
    func isLive(wide: String?, tele: String?) -> Bool {
        stereo != nil || [wide, tele].contains { $0.map(isCharacterDevice) ?? false }
    }

    /// Validated live options for `--wide/--tele` or `--stereo`.
    func liveOptions(wide: String?, tele: String?, fps: Double?) throws -> LiveCaptureOptions {
        let layout: LiveCaptureOptions.Layout
        switch (wide, tele, stereo) {
        case let (w?, t?, nil): layout = .pair(wide: w, tele: t)
        case let (nil, nil, s?): layout = .stereo(s)
        case (_, _, _?):
            throw DualcamError.invalidValue(name: "--stereo", reason: "not used with --wide/--tele (one side-by-side device, or two devices)")
        default:
            throw DualcamError.invalidValue(name: wide == nil ? "--wide" : "--tele", reason: "give both --wide and --tele devices, or --stereo DEVICE")
        }
        let parsedSize = try size.map { text in
            try parseFlag("--size", text) { guard let s = FrameSize(parsing: $0) else { throw DualcamError.invalidValue(name: "size", reason: "expected WxH, e.g. 1280x720") }; return s }
        }
        let parsedFormat = try format.map { text in
            try parseFlag("--format", text) { guard let f = PixelFormat(name: $0), FrameDecoding.supported.contains(f) else { throw DualcamError.invalidValue(name: "format", reason: "expected mjpeg or yuyv") }; return f }
        }
        if let fps, !(fps > 0 && fps <= 1000) {
            throw DualcamError.invalidValue(name: "--fps \(fps)", reason: "expected a frame rate above 0 and at most 1000")
        }
        let skew = try maxSkew.map { text in try parseFlag("--max-skew", text) { try parseDurationNs($0, bareUnit: 1_000_000) } }
        var options = LiveCaptureOptions(layout: layout, size: parsedSize, framesPerSecond: fps, format: parsedFormat, maxSkewNs: skew, fit: fit)
        options.bufferCount = 4
        return options
    }

    /// --count / --duration.
    func limit() throws -> CaptureLimit {
        if let count, count < 1 { throw DualcamError.invalidValue(name: "--count \(count)", reason: "expected at least 1 pair") }
        let d = try duration.map { text in try parseFlag("--duration", text) { try parseDurationNs($0, bareUnit: 1_000_000_000) } }
        if let d, d <= 0 { throw DualcamError.invalidValue(name: "--duration", reason: "expected a positive time") }
        return CaptureLimit(pairs: count, durationNs: d)
    }
}

/// True for a character device (a /dev/video node, or /dev/null).
func isCharacterDevice(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
}

/// Parses a time such as 10ms, 0.5s, 250us, 2min; a bare number is in `bareUnit` ns.
func parseDurationNs(_ text: String, bareUnit: Double) throws -> Int64 {
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    let units: [(String, Double)] = [("min", 60e9), ("ms", 1e6), ("us", 1e3), ("ns", 1), ("s", 1e9)]
    var scale = bareUnit
    var number = Substring(t)
    for (suffix, s) in units where t.hasSuffix(suffix) {
        scale = s
        number = t.dropLast(suffix.count)
        break
    }
    guard let value = Double(number), value.isFinite, value >= 0, value * scale < 9e18 else {
        throw DualcamError.invalidValue(name: "time", reason: "expected a non-negative time such as 10ms, 0.5s or 2min")
    }
    return Int64((value * scale).rounded())
}

/// "12.3 ms".
func formatMs(_ ns: Int64?) -> String {
    ns.map { String(format: "%.2f ms", Double($0) / 1e6) } ?? "-"
}
