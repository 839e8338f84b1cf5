/// The type of one channel value of an `Image`.
public enum PixelElement: String, CaseIterable, Sendable, CustomStringConvertible {
    case uint8, uint16, float16, float32

    /// Bytes per channel value.
    public var byteCount: Int {
        switch self {
        case .uint8: return 1
        case .uint16, .float16: return 2
        case .float32: return 4
        }
    }

    public var description: String { rawValue }
}

/// Swift scalar types that can back an `Image`: `UInt8`, `UInt16`, `Float16`, `Float`.
public protocol PixelScalar: Sendable {
    static var pixelElement: PixelElement { get }
}

extension UInt8: PixelScalar { public static var pixelElement: PixelElement { .uint8 } }
extension UInt16: PixelScalar { public static var pixelElement: PixelElement { .uint16 } }
extension Float16: PixelScalar { public static var pixelElement: PixelElement { .float16 } }
extension Float: PixelScalar { public static var pixelElement: PixelElement { .float32 } }
