import DualcamSupport

/// A 2-D image held in memory: `width` x `height` pixels of `channels`
/// interleaved values (1 = grey/depth, 3 = RGB, 4 = RGBA) of one `PixelElement`.
///
/// Storage is one contiguous byte buffer, row-major (row 0 at the top), pixels
/// interleaved, each value in the host's native byte order, no row padding.
///
/// Channel order is always RGB / RGBA: codecs that use another order (OpenCV's
/// BGR) convert when reading and writing, so an image read from a PNG and
/// written to a PFM keeps its colours.
///
/// Equality is bitwise (a NaN equals the same NaN; 0 and -0 differ), which is
/// what round-trip tests need.
public struct Image: Equatable, Sendable, CustomStringConvertible {
    /// Largest width or height accepted (2^16).
    public static let maximumSide = 1 << 16
    /// Largest number of channel values accepted (2^28, 1 GiB of float32).
    public static let maximumValueCount = 1 << 28

    public let width: Int
    public let height: Int
    public let channels: Int
    public let element: PixelElement
    /// The pixel bytes: `height` rows of `width * channels` values.
    public private(set) var bytes: [UInt8]

    /// A zero-filled image.
    public init(width: Int, height: Int, channels: Int, element: PixelElement) throws {
        let count = try Self.validatedByteCount(width: width, height: height, channels: channels, element: element)
        self.init(unchecked: width, height, channels, element, [UInt8](repeating: 0, count: count))
    }

    /// An image over raw bytes in the layout described above; `bytes.count`
    /// must match the size exactly.
    public init(width: Int, height: Int, channels: Int, element: PixelElement, bytes: [UInt8]) throws {
        let count = try Self.validatedByteCount(width: width, height: height, channels: channels, element: element)
        guard bytes.count == count else {
            throw DualcamError.invalidValue(
                name: "image", reason: "\(bytes.count) bytes given for a \(width)x\(height) \(channels)-channel "
                    + "\(element) image (expected \(count))")
        }
        self.init(unchecked: width, height, channels, element, bytes)
    }

    /// An image over typed values in row-major interleaved order;
    /// `pixels.count` must equal `width * height * channels`.
    public init<T: PixelScalar>(width: Int, height: Int, channels: Int, pixels: [T]) throws {
        let count = try Self.validatedByteCount(width: width, height: height, channels: channels, element: T.pixelElement)
        guard pixels.count * T.pixelElement.byteCount == count else {
            throw DualcamError.invalidValue(
                name: "image", reason: "\(pixels.count) values given for a \(width)x\(height) \(channels)-channel "
                    + "image (expected \(count / T.pixelElement.byteCount))")
        }
        let bytes = pixels.withUnsafeBytes { [UInt8]($0) }
        self.init(unchecked: width, height, channels, T.pixelElement, bytes)
    }

    private init(unchecked width: Int, _ height: Int, _ channels: Int, _ element: PixelElement, _ bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.element = element
        self.bytes = bytes
    }

    /// Checks the limits and returns the byte count, or throws `.invalidValue`.
    static func validatedByteCount(width: Int, height: Int, channels: Int, element: PixelElement) throws -> Int {
        guard [1, 3, 4].contains(channels) else {
            throw DualcamError.invalidValue(name: "image", reason: "\(channels) channels (expected 1, 3 or 4)")
        }
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw DualcamError.invalidValue(
                name: "image", reason: "size \(width)x\(height) (expected 1...\(maximumSide) per side)")
        }
        let values = width * height * channels  // cannot overflow: each factor <= 2^16
        guard values <= maximumValueCount else {
            throw DualcamError.invalidValue(
                name: "image", reason: "\(width)x\(height)x\(channels) exceeds \(maximumValueCount) values")
        }
        return values * element.byteCount
    }

    /// Number of channel values (`width * height * channels`).
    public var valueCount: Int { width * height * channels }
    /// Bytes per row.
    public var rowByteCount: Int { width * channels * element.byteCount }

    public var description: String { "\(width)x\(height) \(channels)-channel \(element) image" }

    /// The typed values, row-major interleaved; throws if `T` is not `element`'s type.
    public func pixels<T: PixelScalar>(as type: T.Type) throws -> [T] {
        guard T.pixelElement == element else {
            throw DualcamError.invalidValue(name: "image", reason: "holds \(element) values, not \(T.pixelElement)")
        }
        return [T](unsafeUninitializedCapacity: valueCount) { buffer, count in
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            count = valueCount
        }
    }

    /// One channel value converted to Double. Writing converts back: integer
    /// elements round to nearest and saturate (NaN becomes 0), float16 rounds.
    /// Traps when (x, y, channel) is outside the image, like an array index.
    public subscript(x x: Int, y y: Int, channel channel: Int) -> Double {
        get {
            let offset = byteOffset(x: x, y: y, channel: channel)
            return bytes.withUnsafeBytes { raw in
                switch element {
                case .uint8: return Double(raw[offset])
                case .uint16: return Double(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                case .float16: return Double(raw.loadUnaligned(fromByteOffset: offset, as: Float16.self))
                case .float32: return Double(raw.loadUnaligned(fromByteOffset: offset, as: Float.self))
                }
            }
        }
        set {
            let offset = byteOffset(x: x, y: y, channel: channel)
            let element = self.element
            bytes.withUnsafeMutableBytes { raw in
                switch element {
                case .uint8: raw.storeBytes(of: Self.saturating(newValue, max: UInt8.max), toByteOffset: offset, as: UInt8.self)
                case .uint16: raw.storeBytes(of: Self.saturating(newValue, max: UInt16.max), toByteOffset: offset, as: UInt16.self)
                case .float16: raw.storeBytes(of: Float16(newValue), toByteOffset: offset, as: Float16.self)
                case .float32: raw.storeBytes(of: Float(newValue), toByteOffset: offset, as: Float.self)
                }
            }
        }
    }

    private func byteOffset(x: Int, y: Int, channel: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < channels,
                     "pixel (\(x), \(y)) channel \(channel) is outside the \(description)")
        return ((y * width + x) * channels + channel) * element.byteCount
    }

    private static func saturating<T: FixedWidthInteger & UnsignedInteger>(_ value: Double, max: T) -> T {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded()
        if rounded <= 0 { return 0 }
        if rounded >= Double(max) { return max }
        return T(rounded)
    }

    /// Read-only access to the pixel bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Mutable access to the pixel bytes (the size cannot change).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeMutableBytes(body)
    }

    /// The same image with channels 0 and 2 exchanged (RGB <-> BGR, RGBA <-> BGRA);
    /// single-channel images are returned unchanged.
    public func swappingRedAndBlue() -> Image {
        guard channels >= 3 else { return self }
        var result = self
        let size = element.byteCount, pixelBytes = channels * size
        result.bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                for k in 0..<size { raw.swapAt(offset + k, offset + 2 * size + k) }
                offset += pixelBytes
            }
        }
        return result
    }
}
