/// An 8-bit RGB colour (for seam lines).
public struct RGB8: Equatable, Hashable, Sendable {
    public var r, g, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    public static let white = RGB8(255, 255, 255)
    public static let black = RGB8(0, 0, 0)
}
