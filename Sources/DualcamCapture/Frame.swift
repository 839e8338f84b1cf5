import DualcamGeometry
import DualcamImaging
import DualcamSync

/// Which camera of the pair a frame comes from.
public enum CameraRole: String, Sendable, CaseIterable {
    case wide, tele
}

/// One frame from a source: the image with its capture time.
public struct Frame: Timestamped {
    public var role: CameraRole
    /// Monotonic timestamp in nanoseconds. Live frames: CLOCK_MONOTONIC (the
    /// driver's buffer timestamp, or the dequeue time when the driver's clock
    /// is not monotonic). Files: from a timestamps CSV, the file names, or
    /// index / nominal rate.
    public var timestampNs: Int64
    /// The source's frame counter (V4L2 `sequence`, or the file index).
    public var sequence: Int
    /// Frames the source skipped just before this one (V4L2 sequence gap).
    public var droppedBefore: Int
    /// Intrinsics for this very frame (a per-frame sidecar), when known.
    public var intrinsics: Intrinsics?
    public var image: Image
    /// Where it came from: a file path or "device#sequence".
    public var origin: String

    public init(role: CameraRole, timestampNs: Int64, sequence: Int, droppedBefore: Int = 0,
                intrinsics: Intrinsics? = nil, image: Image, origin: String) {
        self.role = role
        self.timestampNs = timestampNs
        self.sequence = sequence
        self.droppedBefore = droppedBefore
        self.intrinsics = intrinsics
        self.image = image
        self.origin = origin
    }
}

/// A synchronized wide/tele pair.
public struct FramePair {
    public var wide: Frame
    public var tele: Frame
    /// tele - wide timestamp, nanoseconds.
    public var skewNs: Int64 { tele.timestampNs - wide.timestampNs }

    public init(wide: Frame, tele: Frame) {
        self.wide = wide
        self.tele = tele
    }
}

/// Frames of one camera, in time order.
public protocol FrameSource: AnyObject {
    var role: CameraRole { get }
    /// The next frame, nil at the end.
    func next() throws -> Frame?
}

/// Counters of a pair source (the synchronizer's, or trivial ones for
/// sources paired by construction).
public struct PairStatistics: Equatable, Sendable {
    public var pairs = 0
    /// Frames of each camera that got no partner (synchronizer drops).
    public var unpairedWide = 0
    public var unpairedTele = 0
    /// Frames each camera's driver dropped (sequence gaps), live only.
    public var droppedByDeviceWide = 0
    public var droppedByDeviceTele = 0
    public var medianSkewNs: Int64?
    public var maxSkewNs: Int64?

    public init() {}

    init(_ s: SyncStatistics) {
        pairs = s.pairs
        unpairedWide = s.droppedFirst
        unpairedTele = s.droppedSecond
        medianSkewNs = s.medianSkewNs
        maxSkewNs = s.maxSkewNs
    }
}

/// Synchronized wide/tele pairs from files or cameras.
public protocol PairSource: AnyObject {
    /// What the pairs come from, for messages.
    var label: String { get }
    /// Total pairs when known in advance.
    var expectedCount: Int? { get }
    /// The next pair, nil at the end.
    func nextPair() throws -> FramePair?
    var statistics: PairStatistics { get }
}
