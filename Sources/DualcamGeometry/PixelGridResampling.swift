/// The map between the pixel coordinates of an image and of its resampled
/// copy at another size, as image libraries resize (OpenCV's `resize`, area
/// averaging): the two grids share their outer edges, pixel centres sit at
/// integer coordinates, so
///
///     x' = (x + 0.5) W'/W - 0.5,   y' = (y + 0.5) H'/H - 0.5.
///
/// This is the map `Intrinsics.resampled(to:)` applies to K. (Multiplying
/// by W'/W alone, as `Intrinsics.scaled(to:)` does, moves every point by
/// 0.5 (1 - W'/W) px against the resized image.)
public struct PixelGridResampling: Equatable, Sendable {
    public let source: PixelSize
    public let target: PixelSize
    public let scaleX: Double
    public let scaleY: Double

    public init(from source: PixelSize, to target: PixelSize) {
        self.source = source
        self.target = target
        scaleX = Double(target.width) / Double(max(1, source.width))
        scaleY = Double(target.height) / Double(max(1, source.height))
    }

    /// The target-grid position of source pixel position (x, y).
    public func target(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x + 0.5) * scaleX - 0.5, (y + 0.5) * scaleY - 0.5)
    }

    /// The source-grid position of target pixel position (x, y).
    public func source(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x + 0.5) / scaleX - 0.5, (y + 0.5) / scaleY - 0.5)
    }
}
