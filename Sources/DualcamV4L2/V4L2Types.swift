import CV4L2

/// A V4L2 pixel format code (a little-endian fourcc such as "YUYV" or "MJPG").
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible, Comparable {
    public var code: UInt32

    public init(code: UInt32) { self.code = code }

    /// From a four-character code ("YUYV").
    public init?(fourcc: String) {
        let bytes = Array(fourcc.utf8)
        guard bytes.count == 4 else { return nil }
        code = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public static let yuyv = PixelFormat(code: DC_PIX_FMT_YUYV)
    public static let mjpeg = PixelFormat(code: DC_PIX_FMT_MJPEG)
    public static let jpeg = PixelFormat(code: DC_PIX_FMT_JPEG)
    public static let uyvy = PixelFormat(code: DC_PIX_FMT_UYVY)
    public static let rgb24 = PixelFormat(code: DC_PIX_FMT_RGB24)
    public static let nv12 = PixelFormat(code: DC_PIX_FMT_NV12)
    public static let grey = PixelFormat(code: DC_PIX_FMT_GREY)

    /// The user-facing names accepted by `--format`.
    public init?(name: String) {
        switch name.lowercased() {
        case "yuyv", "yuy2": self = .yuyv
        case "mjpeg", "mjpg": self = .mjpeg
        case "jpeg": self = .jpeg
        default:
            guard let f = PixelFormat(fourcc: name) else { return nil }
            self = f
        }
    }

    /// The four characters ("YUYV").
    public var fourcc: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * UInt32($0))) }, as: UTF8.self)
    }

    /// MJPEG and JPEG frames are compressed (variable size per frame).
    public var isCompressed: Bool { self == .mjpeg || self == .jpeg }

    public var description: String { fourcc }
    public static func < (a: PixelFormat, b: PixelFormat) -> Bool { a.code < b.code }
}

/// A frame size in pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "1280x720".
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var pixels: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// A frame interval as the fraction V4L2 uses (seconds per frame = numerator / denominator).
public struct FrameInterval: Hashable, Sendable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval of a whole or fractional rate (30 -> 1/30, 29.97 -> 1000/29970).
    public init(framesPerSecond fps: Double) {
        if fps == fps.rounded() {
            self.init(numerator: 1, denominator: UInt32(fps))
        } else {
            self.init(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        }
    }

    public var framesPerSecond: Double {
        numerator == 0 ? 0 : Double(denominator) / Double(numerator)
    }

    public var description: String { formatRate(framesPerSecond) + " fps" }
}

/// A frame rate for messages: "30", "29.97".
public func formatRate(_ fps: Double) -> String {
    guard fps.isFinite, abs(fps) < 1e12 else { return "\(fps)" }  // never trap on a driver's or a flag's value
    if fps == fps.rounded() { return String(Int(fps)) }
    return String(Double(Int((fps * 100).rounded())) / 100)
}

/// What ENUM_FRAMESIZES reported for one pixel format.
public enum FrameSizes: Equatable, Sendable {
    case discrete([FrameSize])
    /// Stepwise (continuous when the steps are 1).
    case stepwise(min: FrameSize, max: FrameSize, stepWidth: Int, stepHeight: Int)

    /// The sizes to consider when a list is needed: all discrete sizes, or for a
    /// stepwise range the common sizes inside it plus its maximum, largest first.
    public var candidates: [FrameSize] {
        switch self {
        case let .discrete(sizes):
            return sizes.sorted { $0.pixels > $1.pixels }
        case let .stepwise(lo, hi, sw, sh):
            let common = [(3840, 2160), (1920, 1080), (1280, 960), (1280, 720), (1024, 768), (800, 600), (640, 480), (640, 360), (320, 240)]
            var sizes = [hi]
            for (w, h) in common where w >= lo.width && w <= hi.width && h >= lo.height && h <= hi.height
                && (w - lo.width) % max(sw, 1) == 0 && (h - lo.height) % max(sh, 1) == 0 && !(w == hi.width && h == hi.height) {
                sizes.append(FrameSize(width: w, height: h))
            }
            return sizes.sorted { $0.pixels > $1.pixels }
        }
    }

    public func contains(_ size: FrameSize) -> Bool {
        switch self {
        case let .discrete(sizes): return sizes.contains(size)
        case let .stepwise(lo, hi, sw, sh):
            return size.width >= lo.width && size.width <= hi.width && size.height >= lo.height && size.height <= hi.height
                && (size.width - lo.width) % max(sw, 1) == 0 && (size.height - lo.height) % max(sh, 1) == 0
        }
    }
}

/// What ENUM_FRAMEINTERVALS reported for one format and size.
public enum FrameIntervals: Equatable, Sendable {
    case discrete([FrameInterval])
    case stepwise(min: FrameInterval, max: FrameInterval, step: FrameInterval)

    /// Frame rates to consider, highest first: all discrete rates, or for a
    /// stepwise range the common rates inside it plus its extremes.
    public var candidateRates: [Double] {
        switch self {
        case let .discrete(intervals):
            return Array(Set(intervals.map(\.framesPerSecond))).sorted(by: >)
        case let .stepwise(minInterval, maxInterval, _):
            let hi = minInterval.framesPerSecond, lo = maxInterval.framesPerSecond
            let common: [Double] = [120, 60, 50, 30, 25, 20, 15, 10, 5]
            return Array(Set([hi, lo] + common.filter { $0 <= hi && $0 >= lo })).sorted(by: >)
        }
    }
}

/// One entry of ENUM_FMT.
public struct FormatDescription: Equatable, Sendable {
    public var pixelFormat: PixelFormat
    public var name: String
    public var isCompressed: Bool

    public init(pixelFormat: PixelFormat, name: String, isCompressed: Bool) {
        self.pixelFormat = pixelFormat
        self.name = name
        self.isCompressed = isCompressed
    }
}

/// A complete stream configuration: pixel format, size and rate.
public struct CaptureMode: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    public var size: FrameSize
    public var framesPerSecond: Double

    public init(pixelFormat: PixelFormat, size: FrameSize, framesPerSecond: Double) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.framesPerSecond = framesPerSecond
    }

    public var description: String { "\(pixelFormat) \(size) @ \(formatRate(framesPerSecond)) fps" }
}

/// The format the driver actually chose in S_FMT (it may adjust the request).
public struct NegotiatedFormat: Equatable, Sendable {
    public var pixelFormat: PixelFormat
    public var size: FrameSize
    public var bytesPerLine: Int
    public var imageSize: Int

    public init(pixelFormat: PixelFormat, size: FrameSize, bytesPerLine: Int, imageSize: Int) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.bytesPerLine = bytesPerLine
        self.imageSize = imageSize
    }
}

/// What QUERYCAP reported.
public struct DeviceCapabilities: Equatable, Sendable {
    public var driver: String
    public var card: String
    public var busInfo: String
    /// The capabilities of this device node (`device_caps` when the driver sets
    /// V4L2_CAP_DEVICE_CAPS, else `capabilities`).
    public var deviceCaps: UInt32

    public var canCapture: Bool { deviceCaps & DC_CAP_VIDEO_CAPTURE != 0 }
    public var canCaptureMultiplanar: Bool { deviceCaps & DC_CAP_VIDEO_CAPTURE_MPLANE != 0 }
    public var canStream: Bool { deviceCaps & DC_CAP_STREAMING != 0 }
}
