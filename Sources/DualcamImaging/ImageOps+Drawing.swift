import DualcamOpenCV

/// Colour maps and text on `Image`s (RGB order), by way of `CVDrawing`.
extension ImageOps {
    public typealias ColorMap = CVDrawing.ColorMap

    /// A uint8 1-channel image mapped through `map` into an RGB uint8 image
    /// (for `.jet`: 0 blue, 255 red).
    public static func applyColorMap(_ image: Image, _ map: ColorMap) throws -> Image {
        try Image(try CVDrawing.applyColorMap(try image.makeCVMat(), map))
    }

    /// A copy of a uint8 `image` with ASCII `text` drawn in OpenCV's Hershey
    /// simplex font, the baseline's left end at (x, y); `rgb` is the colour
    /// (grey images use its first value, alpha is set to 255).
    public static func putText(
        _ image: Image, _ text: String, x: Int, y: Int, scale: Double = 0.4, thickness: Int = 1,
        rgb: (Double, Double, Double) = (255, 255, 255)
    ) throws -> Image {
        let color: [Double]
        switch image.channels {
        case 1: color = [rgb.0]
        case 3: color = [rgb.2, rgb.1, rgb.0]
        default: color = [rgb.2, rgb.1, rgb.0, 255]
        }
        return try Image(try CVDrawing.putText(try image.makeCVMat(), text, x: x, y: y, scale: scale,
                                               thickness: thickness, color: color))
    }

    /// The pixel size of `text` as `putText` draws it.
    public static func textSize(_ text: String, scale: Double = 0.4, thickness: Int = 1)
        throws -> (width: Int, height: Int, baseline: Int) {
        try CVDrawing.textSize(text, scale: scale, thickness: thickness)
    }
}
