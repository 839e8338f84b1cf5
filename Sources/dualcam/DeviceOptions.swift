import ArgumentParser
import DualcamCapture
import DualcamSupport
import DualcamV4L2
import Foundation

/// The camera mode flags of capture and converge (depth, whose --size and
/// --format mean its output, spells them --camera-size and --camera-format).
struct CameraModeOptions: ParsableArguments {
    @Option(name: .long, help: "Camera frame size WxH (default: the largest both cameras offer).")
    var size: String?

    @Option(name: .long, help: "Camera pixel format: mjpeg or yuyv (default: mjpeg when both offer it).")
    var format: String?
}

/// Options for V4L2 cameras shared by capture, converge and depth (--wide/--tele
/// are the commands' own options; for these commands they may name devices).
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: "One side-by-side stereo V4L2 device (left half wide, right half tele), instead of --wide/--tele; converge and depth also take a side-by-side image or video.")
    var stereo: String?

    @Option(name: .customLong("max-skew"), help: "Largest time between the two frames of a pair, e.g. 10ms (default: half a frame interval).")
    var maxSkew: String?

    @Flag(name: .long, help: "When the USB bus has no bandwidth (ENOSPC), lower format, rate and size step by step until the pair runs.")
    var fit = false

    @Option(name: .long, parsing: .unconditional, help: "Stop after N pairs.")
    var count: Int?

    @Option(name: .long, help: "Stop after this much capture time, e.g. 10s, 500ms, 2min.")
    var duration: String?

    /// True when these options (or a device path in --wide/--tele) ask for live cameras.
    func isLive(wide: String?, tele: String?) -> Bool {
        // A /dev/video path counts as a camera even when missing, so that a
        // machine without cameras reports the device, not the output's format.
        stereo != nil || [wide, tele].contains { $0.map { $0.hasPrefix("/dev/video") || isCharacterDevice($0) } ?? false }
    }

    /// Validated live options for `--wide/--tele` or `--stereo`; `size` and
    /// `format` come from the flags named `sizeFlag` and `formatFlag`.
    func liveOptions(wide: String?, tele: String?, fps: Double?, size: String?, format: String?,
                     sizeFlag: String = "--size", formatFlag: String = "--format") throws -> LiveCaptureOptions {
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
            try parseFlag(sizeFlag, text) { text -> FrameSize in
                guard let s = FrameSize(parsing: text) else { throw DualcamError.invalidValue(name: "size", reason: "expected WxH, e.g. 1280x720") }
                if let problem = InputLimits.imageSizeProblem(width: Int(s.width), height: Int(s.height)) {
                    throw DualcamError.invalidGeometry(problem)  // parseFlag names the flag
                }
                return s
            }
        }
        let parsedFormat = try format.map { text in
            try parseFlag(formatFlag, text) { guard let f = PixelFormat(name: $0), FrameDecoding.supported.contains(f) else { throw DualcamError.invalidValue(name: "format", reason: "expected mjpeg or yuyv") }; return f }
        }
        if let fps, !(fps > 0 && fps <= 1000) {
            throw DualcamError.invalidValue(name: "--fps \(fps)", reason: "expected a frame rate above 0 and at most 1000")
        }
        let skew = try maxSkew.map { text in try parseFlag("--max-skew", text) { try parseDurationNs($0, bareUnit: 1_000_000) } }
        var options = LiveCaptureOptions(layout: layout, size: parsedSize, framesPerSecond: fps, format: parsedFormat, maxSkewNs: skew, fit: fit)
        options.bufferCount = 4
        options.sizeFlag = sizeFlag
        options.formatFlag = formatFlag
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

/// The pairs of `--stereo FILE` (a side-by-side image or video) or of live
/// cameras, and the frame rate for a video of the results. `stereo` files take
/// none of the camera flags; cameras need --count or --duration when the
/// output is written only at the end (`needsLimit`).
func openPairSource(_ device: DeviceOptions, wide: String?, tele: String?, fps: Double?, size: String?, format: String?,
                    sizeFlag: String, formatFlag: String, needsLimit: Bool) throws -> (source: PairSource, fps: Double) {
    if let stereo = device.stereo, !isCharacterDevice(stereo) {
        let flags = [(sizeFlag, size), (formatFlag, format), ("--max-skew", device.maxSkew)]
        if let flag = flags.first(where: { $0.1 != nil })?.0 ?? (device.fit ? "--fit" : nil) {
            throw DualcamError.invalidValue(name: flag, reason: "applies to cameras, not to the side-by-side file \(stereo)")
        }
        let file = try SideBySideSource(path: stereo, nominalFPS: fps ?? 10)
        return (file, fps ?? file.framesPerSecond)
    }
    let options = try device.liveOptions(wide: wide, tele: tele, fps: fps, size: size, format: format,
                                         sizeFlag: sizeFlag, formatFlag: formatFlag)
    let limit = try device.limit()
    if needsLimit && limit.pairs == nil && limit.durationNs == nil {
        throw DualcamError.invalidValue(name: "--count/--duration", reason: "give one with cameras (the output is written when the run ends)")
    }
    let live = try LivePairSource(options: options)
    return (live, live.modes.first?.framesPerSecond ?? 30)
}

/// Pairs from `source` until `limit` (pairs, or capture time from the first pair).
func nextPair(_ source: PairSource, limit: CaptureLimit, done: Int, firstNs: inout Int64?) throws -> FramePair? {
    if let n = limit.pairs, done >= n { return nil }
    guard let pair = try source.nextPair() else { return nil }
    if firstNs == nil { firstNs = pair.wide.timestampNs }
    if let d = limit.durationNs, pair.wide.timestampNs - firstNs! >= d { return nil }
    return pair
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
