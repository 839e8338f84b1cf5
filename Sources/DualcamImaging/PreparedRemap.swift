import DualcamOpenCV

/// A remap table prepared once for `ImageOps.remap`-style resampling of many
/// images: the float32 maps are copied into OpenCV and converted there to its
/// fixed-point form (16-bit integer positions plus 1/32-pixel fractions, see
/// `CVRemapTable`), so each `apply` copies only the image, not the maps.
///
/// Precision: positions are quantized to 1/32 pixel, which `cv::remap` (and so
/// `ImageOps.remap`) does anyway for float maps when it interpolates; results
/// equal `ImageOps.remap`'s for linear, cubic and lanczos4 interpolation.
/// Nearest is not supported (use `ImageOps.remap`). Channels are resampled
/// alike, so no RGB <-> BGR reordering happens on the way. float16 images are
/// processed as float32 and rounded back, as in `ImageOps`.
public struct PreparedRemap: Sendable {
    let table: CVRemapTable
    /// Size of every result.
    public var width: Int { table.cols }
    public var height: Int { table.rows }

    /// Prepares float32 1-channel maps of equal size (the size of the result)
    /// holding source coordinates, as for `ImageOps.remap`.
    public init(mapX: Image, mapY: Image) throws {
        table = try CVRemapTable(mapX: try mapX.makeCVMatKeepingChannelOrder(),
                                 mapY: try mapY.makeCVMatKeepingChannelOrder())
    }

    /// dst(x, y) = src(mapX(x, y), mapY(x, y)) with `interpolation` (not
    /// `.nearest` or `.area`), `border` outside `image`; same element and channels.
    public func apply(
        _ image: Image, interpolation: ImageOps.Interpolation = .linear, border: ImageOps.Border = .zero
    ) throws -> Image {
        let widened = image.element == .float16 ? image.converted(to: .float32) : image
        let result = try table.apply(try widened.makeCVMatKeepingChannelOrder(),
                                     interpolation: interpolation, border: border)
        return try Image(keepingChannelOrder: result).converted(to: image.element)
    }
}
