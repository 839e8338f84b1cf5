/// A remap table for `ImageOps.remap`: for every destination pixel, the
/// source position to sample (float32 1-channel `mapX`, `mapY`), plus a
/// validity mask (uint8 1-channel, 255 where the source position lies inside
/// the source image, so bilinear sampling reads only real pixels; 0 elsewhere).
/// Invalid entries point far outside the source, so the remap reads the border.
public struct RemapTable: Sendable {
    public let mapX: Image
    public let mapY: Image
    public let valid: Image
    /// Number of valid destination pixels.
    public let validCount: Int
    /// The maps prepared once on the OpenCV side (fixed point), used by `apply`.
    public let prepared: PreparedRemap

    public init(mapX: Image, mapY: Image, valid: Image, validCount: Int) throws {
        self.mapX = mapX
        self.mapY = mapY
        self.valid = valid
        self.validCount = validCount
        prepared = try PreparedRemap(mapX: mapX, mapY: mapY)
    }

    /// Where an entry has no source (behind the camera, or a lens model that
    /// cannot map it), the maps point here: far outside any image, so the
    /// remap reads the border and the valid mask stays empty.
    public static let outsideCoordinate: Float = -1000
    /// True when every destination pixel is valid.
    public var isFullyValid: Bool { validCount == mapX.width * mapX.height }

    /// Resamples `image` through the table: bilinear, black outside the source.
    public func apply(_ image: Image) throws -> Image {
        try prepared.apply(image)
    }

    /// Resamples `image` through the table, bilinear, `border` outside the source.
    public func apply(_ image: Image, border: ImageOps.Border) throws -> Image {
        try prepared.apply(image, interpolation: .linear, border: border)
    }

    /// Resamples `image` through the table with `interpolation`, `border` outside the source.
    /// Interpolating modes use the prepared fixed-point maps (same result as
    /// `ImageOps.remap` with the float maps); nearest uses the float maps.
    public func apply(_ image: Image, interpolation: ImageOps.Interpolation, border: ImageOps.Border) throws -> Image {
        if interpolation == .nearest {
            return try ImageOps.remap(image, mapX: mapX, mapY: mapY, interpolation: interpolation, border: border)
        }
        return try prepared.apply(image, interpolation: interpolation, border: border)
    }
}
