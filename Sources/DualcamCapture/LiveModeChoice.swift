import DualcamSupport
import DualcamV4L2

/// The capture mode for each device, from the options and what the devices
/// enumerate:
/// - format: `--format`, else MJPEG when every device offers it (the cheap one
///   on USB), else YUYV; it must be one ``FrameDecoding`` decodes and every
///   device must offer it;
/// - size: `--size`, else the largest size every device offers in that format
///   (a stereo device: its largest);
/// - rate: `--fps`, else the highest rate every device offers at that size.
/// Sizes and rates not offered are left to the driver, which picks the
/// nearest; ``LivePairSource`` reports what it chose.
public struct LiveModeChoice {
    var modes: [CaptureMode]
    var available: [[CaptureMode]]
    var notes: [String] = []

    /// The modes chosen for `devices` (one per device).
    public static func modes(devices: [V4L2Device], options: LiveCaptureOptions) throws -> [CaptureMode] {
        try LiveModeChoice(devices: devices, options: options).modes
    }

    init(devices: [V4L2Device], options: LiveCaptureOptions) throws {
        available = try devices.map { try $0.modes().filter { FrameDecoding.supported.contains($0.pixelFormat) } }
        let offered = try devices.map { Set(try $0.formats().map(\.pixelFormat)) }
        let format: PixelFormat
        if let f = options.format {
            guard FrameDecoding.supported.contains(f) else {
                throw DualcamError.invalidValue(name: "\(options.formatFlag) \(f.fourcc)", reason: "dualcam decodes mjpeg and yuyv (and GREY, RGB3)")
            }
            for (d, o) in zip(devices, offered) where !o.contains(f) {
                throw V4L2Error.unsupportedFormat(path: d.path, requested: f.fourcc, available: o.sorted().map(\.fourcc))
            }
            format = f
        } else if offered.allSatisfy({ $0.contains(.mjpeg) }) {
            format = .mjpeg
        } else if offered.allSatisfy({ $0.contains(.yuyv) }) {
            format = .yuyv
        } else if let common = FrameDecoding.supported.first(where: { f in offered.allSatisfy { $0.contains(f) } }) {
            format = common
        } else {
            throw V4L2Error.unsupportedFormat(path: devices.map(\.path).joined(separator: " + "), requested: "a format dualcam decodes (MJPG, YUYV, GREY, RGB3) offered by every device",
                                              available: offered.map { $0.sorted().map(\.fourcc).joined(separator: "/") })
        }
        let inFormat = available.map { $0.filter { $0.pixelFormat == format } }
        let size: FrameSize
        if let s = options.size {
            size = s
        } else {
            let common = intersection(inFormat.map { Set($0.map(\.size)) })
            guard let largest = common.max(by: { $0.pixels < $1.pixels }) else {
                throw DualcamError.invalidValue(name: options.sizeFlag, reason: "the devices share no frame size in \(format); give \(options.sizeFlag) WxH")
            }
            size = largest
        }
        let fps: Double
        if let f = options.framesPerSecond {
            fps = f
        } else {
            let rates = inFormat.map { Set($0.filter { $0.size == size }.map(\.framesPerSecond)) }
            let common = intersection(rates)
            fps = common.max() ?? rates.compactMap { $0.max() }.min() ?? 30
        }
        modes = devices.map { _ in CaptureMode(pixelFormat: format, size: size, framesPerSecond: fps) }
    }
}

/// The elements every set holds (empty for no sets).
func intersection<T>(_ sets: [Set<T>]) -> Set<T> {
    guard var result = sets.first else { return [] }
    for s in sets.dropFirst() { result.formIntersection(s) }
    return result
}
