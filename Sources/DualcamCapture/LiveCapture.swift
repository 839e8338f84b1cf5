import DualcamImaging
import DualcamSupport
import DualcamSync
import DualcamV4L2

/// What to capture from V4L2 devices.
public struct LiveCaptureOptions {
    public enum Layout: Equatable {
        /// Two free-running cameras, paired by the synchronizer.
        case pair(wide: String, tele: String)
        /// One side-by-side stereo device: left half wide, right half tele
        /// (hardware-synchronized halves, skew 0).
        case stereo(String)
    }

    public var layout: Layout
    public var size: FrameSize?
    public var framesPerSecond: Double?
    public var format: PixelFormat?
    /// Default: half the frame interval at the negotiated rate.
    public var maxSkewNs: Int64?
    /// Lower format/rate/size step by step when STREAMON fails with ENOSPC.
    public var fit = false
    public var bufferCount = 4
    /// No frame from any device for this long is an error.
    public var timeoutMs: Int32 = 3000
    /// How errors name the size and format options (`dualcam depth` calls
    /// its camera flags --camera-size and --camera-format).
    public var sizeFlag = "--size"
    public var formatFlag = "--format"

    public init(layout: Layout, size: FrameSize? = nil, framesPerSecond: Double? = nil, format: PixelFormat? = nil,
                maxSkewNs: Int64? = nil, fit: Bool = false) {
        self.layout = layout
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.format = format
        self.maxSkewNs = maxSkewNs
        self.fit = fit
    }
}

/// A raw frame waiting in the synchronizer (decoded only once it is paired).
struct LiveItem: Timestamped {
    var raw: RawFrame
    var timestampNs: Int64 { raw.timestampNs }
}

/// Synchronized pairs from V4L2 cameras. Opening negotiates the mode (see
/// ``LiveModeChoice``), starts streaming (with the `--fit` search when asked)
/// and reports what the drivers chose through `notes`. When a device is lost
/// (ENODEV/EIO) the pairs already complete are still handed out, then
/// `nextPair()` returns nil and ``stopReason`` says why.
public final class LivePairSource: PairSource {
    public let label: String
    public let expectedCount: Int? = nil
    public let devices: [V4L2Device]
    public private(set) var modes: [CaptureMode] = []
    public private(set) var fitAttempts: [BandwidthFit.Attempt] = []
    /// Things worth telling the user (driver adjustments, clocks, the fit result).
    public private(set) var notes: [String] = []
    public private(set) var stopReason: V4L2Error?
    public private(set) var maxSkewNs: Int64 = 0
    private let stereo: Bool
    private let timeoutMs: Int32
    private var sync: ApproximateSynchronizer<LiveItem, LiveItem>!
    private var ready: [FramePair] = []
    private var stopped = false
    private var stereoStats = PairStatistics()

    public init(options: LiveCaptureOptions, system: V4L2System = LinuxV4L2System()) throws {
        switch options.layout {
        case let .pair(wide, tele):
            guard wide != tele else {
                throw DualcamError.invalidValue(name: "--wide/--tele", reason: "both name \(wide); give two devices, or --stereo for one side-by-side device")
            }
            devices = [try V4L2Device(path: wide, system: system), try V4L2Device(path: tele, system: system)]
            label = "\(wide) + \(tele)"
            stereo = false
        case let .stereo(path):
            devices = [try V4L2Device(path: path, system: system)]
            label = "\(path) (side by side)"
            stereo = true
        }
        timeoutMs = options.timeoutMs
        let choice = try LiveModeChoice(devices: devices, options: options)
        notes += choice.notes
        try start(choice.modes, available: choice.available, options: options)
        let fps = modes.map(\.framesPerSecond).min() ?? 30
        maxSkewNs = options.maxSkewNs ?? Int64(1e9 / fps / 2)
        sync = ApproximateSynchronizer(maxSkewNs: maxSkewNs, queueCapacity: 2 * options.bufferCount + 8)
    }

    deinit {
        for d in devices { try? d.stopStreaming() }
    }

    private func start(_ wanted: [CaptureMode], available: [[CaptureMode]], options: LiveCaptureOptions) throws {
        let attempt: ([CaptureMode]) throws -> Void = { modes in
            for d in self.devices { try d.stopStreaming() }
            var chosen: [CaptureMode] = []
            for (d, m) in zip(self.devices, modes) {
                let (format, fps) = try d.configure(m)
                let got = CaptureMode(pixelFormat: format.pixelFormat, size: format.size, framesPerSecond: fps ?? m.framesPerSecond)
                if got.size != m.size || got.framesPerSecond != m.framesPerSecond {
                    self.notes.append("\(d.path): asked for \(m), the driver chose \(got)")
                }
                if fps == nil { self.notes.append("\(d.path): the driver cannot set the frame rate; assuming \(formatRate(m.framesPerSecond)) fps") }
                chosen.append(got)
            }
            for (i, d) in self.devices.enumerated() {
                do {
                    try d.startStreaming(bufferCount: options.bufferCount, mode: chosen[i])
                } catch V4L2Error.noBandwidth {
                    for other in self.devices { try? other.stopStreaming() }
                    throw V4L2Error.noBandwidth(path: d.path, mode: chosen.map(\.description).joined(separator: " + "),
                                                detail: USBBandwidth.explain(chosen))
                }
            }
            self.modes = chosen
        }
        if options.fit {
            let result = try BandwidthFit.search(start: wanted, available: available, attempt: attempt)
            fitAttempts = result.attempts
            if result.attempts.count > 1 {
                notes.append("--fit: \(wanted.map(\.description).joined(separator: " + ")) did not fit; running \(modes.map(\.description).joined(separator: " + ")) after \(result.attempts.count - 1) step(s)")
            }
        } else {
            try attempt(wanted)
        }
    }

    public var statistics: PairStatistics {
        var s = stereo ? stereoStats : PairStatistics(sync.statistics)
        s.droppedByDeviceWide = devices[0].statistics.droppedFrames
        s.droppedByDeviceTele = devices[stereo ? 0 : 1].statistics.droppedFrames
        return s
    }

    public func nextPair() throws -> FramePair? {
        while ready.isEmpty && !stopped {
            do {
                try pump()
            } catch let error as V4L2Error {
                guard case .deviceLost = error else { throw error }
                stopReason = error
                stopped = true
                if !stereo { ready += try decode(sync.finish()) }
                for d in devices { try? d.stopStreaming() }
            }
        }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Waits for frames and feeds them to the synchronizer (or splits a stereo frame).
    private func pump() throws {
        let readyDevices = try V4L2Device.wait(devices, timeoutMs: timeoutMs)
        if readyDevices.isEmpty {
            throw V4L2Error.timeout(path: label, milliseconds: Int(timeoutMs))
        }
        for i in readyDevices {
            while let raw = try devices[i].dequeue() {
                if stereo {
                    let image = try FrameDecoding.image(raw, device: devices[0].path)
                    let halves = try SideBySide.split(image, source: devices[0].path)
                    let origin = "\(devices[0].path)#\(raw.sequence)"
                    ready.append(FramePair(
                        wide: Frame(role: .wide, timestampNs: raw.timestampNs, sequence: Int(raw.sequence), droppedBefore: raw.droppedBefore, image: halves.left, origin: origin),
                        tele: Frame(role: .tele, timestampNs: raw.timestampNs, sequence: Int(raw.sequence), droppedBefore: raw.droppedBefore, image: halves.right, origin: origin)))
                    stereoStats.pairs += 1
                    stereoStats.medianSkewNs = 0
                    stereoStats.maxSkewNs = 0
                } else {
                    let item = LiveItem(raw: raw)
                    ready += try decode(i == 0 ? sync.push(first: item) : sync.push(second: item))
                }
            }
        }
    }

    private func decode(_ events: [SyncEvent<LiveItem, LiveItem>]) throws -> [FramePair] {
        try events.compactMap { event in
            guard case let .pair(p) = event else { return nil }
            return FramePair(wide: try frame(p.first.raw, .wide, devices[0].path), tele: try frame(p.second.raw, .tele, devices[1].path))
        }
    }

    private func frame(_ raw: RawFrame, _ role: CameraRole, _ path: String) throws -> Frame {
        Frame(role: role, timestampNs: raw.timestampNs, sequence: Int(raw.sequence), droppedBefore: raw.droppedBefore,
              image: try FrameDecoding.image(raw, device: path), origin: "\(path)#\(raw.sequence)")
    }
}
