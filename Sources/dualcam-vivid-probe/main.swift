// dualcam-vivid-probe: the program the V4L2 integration test runs inside its qemu
// VM (scripts/vivid/run.sh, Tests/VividIntegrationTests), against two instances of
// the kernel's virtual capture driver vivid.
//
//   dualcam-vivid-probe DEVICE_A DEVICE_B [--frames N] [--fps F] [--size WxH]
//
// Opens both devices through DualcamV4L2, negotiates YUYV at the size and rate,
// captures N frames from each free-running stream (mmap buffers, poll, DQBUF),
// pairs them as they arrive with DualcamSync's ApproximateSynchronizer, checks the
// result (also against OptimalPairing of the whole streams) and prints one line
//
//   VIVID_RESULT key=value ...
//
// (keys below, `_a`/`_b` per device; times in ns on CLOCK_MONOTONIC of the VM).
// Exit status 0 when every check holds, 1 when one fails, 2 on an error (printed
// as `VIVID_ERROR message`). No Foundation, so the VM needs only the Swift core
// libraries and glibc.
import DualcamSync
import DualcamV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

struct ProbeError: Error { let message: String }

struct Options {
    var devices: [String] = []
    var frames = 30
    var framesPerSecond = 10.0
    var size = FrameSize(width: 320, height: 180)

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let v = rest.popFirst() else { throw ProbeError(message: "\(argument) needs a value") }
                return v
            }
            switch argument {
            case "--frames":
                guard let n = Int(try value()), n >= 2 else { throw ProbeError(message: "--frames expects an integer >= 2") }
                frames = n
            case "--fps":
                guard let f = Double(try value()), f > 0 else { throw ProbeError(message: "--fps expects a positive number") }
                framesPerSecond = f
            case "--size":
                guard let s = FrameSize(parsing: try value()) else { throw ProbeError(message: "--size expects WxH") }
                size = s
            default:
                devices.append(argument)
            }
        }
        guard devices.count == 2 else { throw ProbeError(message: "expected two device paths, got \(devices.count)") }
    }
}

/// What the probe keeps of a frame (the pixels are only size-checked).
struct ProbeFrame: Timestamped {
    var timestampNs: Int64
    var sequence: UInt32
    var driverMonotonic: Bool
    var completeImage: Bool
}

/// Per-stream checks on the captured frames.
struct StreamReport {
    let frames: [ProbeFrame]
    let framesPerSecond: Double

    var timestampsIncreasing: Bool { zip(frames, frames.dropFirst()).allSatisfy { $0.timestampNs < $1.timestampNs } }
    var sequenceIncreasing: Bool { zip(frames, frames.dropFirst()).allSatisfy { $0.sequence < $1.sequence } }
    var allMonotonic: Bool { frames.allSatisfy(\.driverMonotonic) }
    var allComplete: Bool { frames.allSatisfy(\.completeImage) }
    /// Sequence numbers the driver skipped (dropped frames).
    var sequenceGaps: Int { zip(frames, frames.dropFirst()).reduce(0) { $0 + Int($1.1.sequence &- $1.0.sequence) - 1 } }
    var medianPeriodNs: Int64 { median(zip(frames, frames.dropFirst()).map { $1.timestampNs - $0.timestampNs }) }
    /// Timestamps and sequence numbers agree: time per sequence step over the whole
    /// run, (t_last - t_first) / (seq_last - seq_first), within 10 % of the period.
    /// (Single steps jitter: vivid stamps a frame when its kernel thread fills it,
    /// which under emulation can be late by a good part of a period.)
    var sequenceMatchesTimestamps: Bool {
        guard let first = frames.first, let last = frames.last, last.sequence > first.sequence else { return false }
        let nsPerStep = Double(last.timestampNs - first.timestampNs) / Double(last.sequence - first.sequence)
        return abs(nsPerStep * framesPerSecond / 1e9 - 1) < 0.1
    }
    /// The largest deviation of one step from (sequence step) periods, in
    /// thousandths of a period (reported, not checked: scheduling jitter).
    var worstStepDeviationMilliPeriods: Int {
        let period = 1e9 / framesPerSecond
        return zip(frames, frames.dropFirst()).map { a, b in
            Int((abs(Double(b.timestampNs - a.timestampNs) / period - Double(b.sequence &- a.sequence)) * 1000).rounded())
        }.max() ?? 0
    }
}

func median(_ values: [Int64]) -> Int64 {
    guard !values.isEmpty else { return 0 }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Both streams as captured: the frames, the rates the devices chose, the
/// synchronizer's decisions made while the frames arrived.
struct Capture {
    var devices: [V4L2Device]
    var format: NegotiatedFormat
    var rates: [Double]
    var maxSkewNs: Int64
    var frames: [[ProbeFrame]] = [[], []]
    var events: [SyncEvent<ProbeFrame, ProbeFrame>] = []
    var statistics = SyncStatistics()
    var captureNs: Int64 = 0
}

/// Opens both devices at YUYV, the size and the rate, and captures
/// `options.frames` frames from each, pairing them as they arrive.
func capture(_ options: Options) throws -> Capture {
    let devices = try options.devices.map { try V4L2Device(path: $0) }
    var rates: [Double] = []
    var format: NegotiatedFormat?
    for device in devices {
        format = try device.setFormat(.yuyv, size: options.size)
        rates.append(try device.setFrameRate(options.framesPerSecond) ?? options.framesPerSecond)
    }
    guard let format, rates[0] == rates[1] else { throw ProbeError(message: "the two devices chose different rates \(rates)") }
    // Two free-running streams at one rate sit at an arbitrary phase of up to half
    // a period T from each other, plus scheduling jitter. A bound of 3/4 T pairs
    // every frame whatever the phase; the optimal pairing (most pairs, then least
    // total skew) still matches each frame with the nearest frame of the other stream.
    var result = Capture(devices: devices, format: format, rates: rates, maxSkewNs: Int64(1e9 / rates[0] * 0.75))
    let sync = ApproximateSynchronizer<ProbeFrame, ProbeFrame>(maxSkewNs: result.maxSkewNs)
    let started = LinuxV4L2System().monotonicNanoseconds()
    for device in devices { try device.startStreaming(bufferCount: 4) }
    var active = [0, 1]
    while !active.isEmpty {
        let ready = try V4L2Device.wait(active.map { devices[$0] }, timeoutMs: 5000)
        guard !ready.isEmpty else {
            throw ProbeError(message: "no frame within 5 s from \(active.map { options.devices[$0] })")
        }
        for i in ready.map({ active[$0] }) {
            while result.frames[i].count < options.frames, let raw = try devices[i].dequeue() {
                let frame = ProbeFrame(timestampNs: raw.timestampNs, sequence: raw.sequence,
                                       driverMonotonic: raw.timestampSource == .driverMonotonic,
                                       completeImage: raw.bytes.count == format.imageSize)
                result.frames[i].append(frame)
                result.events += i == 0 ? sync.push(first: frame) : sync.push(second: frame)
            }
            if result.frames[i].count == options.frames {
                try devices[i].stopStreaming()
                active.removeAll { $0 == i }
            }
        }
    }
    result.events += sync.finish()
    result.captureNs = LinuxV4L2System().monotonicNanoseconds() - started
    result.statistics = sync.statistics
    return result
}

/// The pairs the synchronizer made, checked: ordered, equal to the optimal
/// pairing of the whole streams, within the skew bound.
struct PairingReport {
    var pairs: [SyncPair<ProbeFrame, ProbeFrame>] = []
    var unpaired = [0, 0]
    var ordered = false
    var matchesOptimal = false
    var skews: [Int64] = []
    var skewMax: Int64 { skews.max() ?? 0 }

    init(_ capture: Capture) {
        for event in capture.events {
            switch event {
            case let .pair(p): pairs.append(p)
            case .droppedFirst: unpaired[0] += 1
            case .droppedSecond: unpaired[1] += 1
            }
        }
        pairs.sort { $0.first.timestampNs < $1.first.timestampNs }
        // Each frame used at most once and pairs never cross: both sides strictly
        // increase along the pairs.
        ordered = zip(pairs, pairs.dropFirst()).allSatisfy {
            $0.first.timestampNs < $1.first.timestampNs && $0.second.timestampNs < $1.second.timestampNs
        }
        // The streaming decisions equal the optimal pairing of the whole streams.
        let frames = capture.frames
        let optimal = OptimalPairing.pairs(first: frames[0].map(\.timestampNs), second: frames[1].map(\.timestampNs),
                                           maxSkewNs: capture.maxSkewNs)
        matchesOptimal = optimal.count == pairs.count && zip(optimal, pairs).allSatisfy { ij, p in
            frames[0][ij.0].timestampNs == p.first.timestampNs && frames[1][ij.1].timestampNs == p.second.timestampNs
        }
        skews = pairs.map { abs($0.skewNs) }
    }
}

/// The `key=value` fields of the result line, `ok` last.
func resultFields(_ capture: Capture, _ streams: [StreamReport], _ pairing: PairingReport, frames n: Int) -> [(String, String)] {
    let stats = capture.statistics
    var fields: [(String, String)] = [
        ("driver_a", capture.devices[0].capabilities.driver), ("driver_b", capture.devices[1].capabilities.driver),
        ("format", capture.format.pixelFormat.fourcc), ("size", "\(capture.format.size.width)x\(capture.format.size.height)"),
        ("capture_ms", "\(capture.captureNs / 1_000_000)"),
    ]
    for (side, s) in zip(["a", "b"], streams) {
        fields += [
            ("frames_\(side)", "\(s.frames.count)"), ("fps_\(side)", "\(s.framesPerSecond)"),
            ("ts_increasing_\(side)", s.timestampsIncreasing ? "1" : "0"),
            ("clock_monotonic_\(side)", s.allMonotonic ? "1" : "0"),
            ("seq_increasing_\(side)", s.sequenceIncreasing ? "1" : "0"),
            ("seq_gaps_\(side)", "\(s.sequenceGaps)"),
            ("seq_matches_ts_\(side)", s.sequenceMatchesTimestamps ? "1" : "0"),
            ("step_dev_max_milliperiods_\(side)", "\(s.worstStepDeviationMilliPeriods)"),
            ("images_complete_\(side)", s.allComplete ? "1" : "0"),
            ("period_median_ns_\(side)", "\(s.medianPeriodNs)"),
        ]
    }
    let (pairs, unpaired) = (pairing.pairs.count, pairing.unpaired)
    fields += [
        ("pairs", "\(pairs)"), ("unpaired_a", "\(unpaired[0])"), ("unpaired_b", "\(unpaired[1])"),
        ("pairs_ordered", pairing.ordered ? "1" : "0"), ("pairs_match_optimal", pairing.matchesOptimal ? "1" : "0"),
        ("skew_median_ns", "\(median(pairing.skews))"), ("skew_max_ns", "\(pairing.skewMax)"), ("max_skew_ns", "\(capture.maxSkewNs)"),
        ("sync_pairs", "\(stats.pairs)"), ("sync_dropped_a", "\(stats.droppedFirst)"), ("sync_dropped_b", "\(stats.droppedSecond)"),
    ]
    let ok = streams.allSatisfy {
        $0.frames.count == n && $0.timestampsIncreasing && $0.allMonotonic && $0.sequenceIncreasing
            && $0.sequenceMatchesTimestamps && $0.allComplete
    } && pairs >= n - 2 && pairs + unpaired[0] == n && pairs + unpaired[1] == n
        && pairing.ordered && pairing.matchesOptimal && pairing.skewMax <= capture.maxSkewNs && stats.pairs == pairs
    fields.append(("ok", ok ? "1" : "0"))
    return fields
}

/// Captures, checks and prints the result line; true when every check holds.
func run(_ options: Options) throws -> Bool {
    let capture = try capture(options)
    let streams = (0..<2).map { StreamReport(frames: capture.frames[$0], framesPerSecond: capture.rates[$0]) }
    let fields = resultFields(capture, streams, PairingReport(capture), frames: options.frames)
    print("VIVID_RESULT " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
    return fields.last?.1 == "1"
}

do {
    let ok = try run(try Options(Array(CommandLine.arguments.dropFirst())))
    exit(ok ? 0 : 1)
} catch let error as ProbeError {
    print("VIVID_ERROR \(error.message)")
    exit(2)
} catch {
    print("VIVID_ERROR \(error)")
    exit(2)
}
