import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Colour-mapped previews of depth maps: near = blue, far = red (OpenCV's
/// jet map, linear in depth between the range's ends, values outside
/// clamped, +inf drawn as far), missing = black, with a legend strip below
/// the map showing the colour ramp and the metre range as text.
public enum DepthPreview {
    /// The depth range of the colours, in metres.
    public struct Range: Equatable, Sendable {
        public var nearMetres: Double
        public var farMetres: Double
        public init(nearMetres: Double, farMetres: Double) { self.nearMetres = nearMetres; self.farMetres = farMetres }
    }

    /// Percentiles of the valid finite depths used when no range is given:
    /// robust to a few outliers (flying pixels, far background specks).
    public static let robustPercentiles = (low: 2.0, high: 98.0)

    /// The preview of `map` (converted to depth; a `.pixels` map needs its
    /// k) as an RGB uint8 image of width `map.width` and height
    /// `map.height` + the legend strip, and the range used: `range` when
    /// given (near < far, both finite and > 0), else the robust percentiles.
    /// A map without any valid depth is black with "no valid depth" in the legend.
    public static func render(_ map: DepthMap, range given: Range? = nil) throws -> (image: Image, range: Range?) {
        let depth = try map.converted(to: .depth).values
        if let given {
            guard given.nearMetres.isFinite, given.farMetres.isFinite, given.nearMetres > 0, given.nearMetres < given.farMetres else {
                throw DualcamError.invalidValue(
                    name: "preview range", reason: "\(given.nearMetres)...\(given.farMetres) m (expected 0 < near < far, finite)")
            }
        }
        let range = given ?? robustRange(depth)
        let w = map.width, h = map.height
        var codes = [UInt8](repeating: 0, count: w * h)
        var missing = [Bool](repeating: true, count: w * h)
        if let range {
            let near = range.nearMetres, span = range.farMetres - range.nearMetres
            for i in depth.indices {
                let z = Double(depth[i])
                guard z > 0, !z.isNaN else { continue }  // NaN and non-positive: missing (+inf is far)
                missing[i] = false
                codes[i] = UInt8(min(max(((z - near) / span * 255).rounded(), 0), 255))
            }
        }
        let legend = try legendStrip(width: w, range: range)
        var colours = try ImageOps.applyColorMap(try Image(width: w, height: h, channels: 1, pixels: codes), .jet)
            .pixels(as: UInt8.self)
        for i in missing.indices where missing[i] { colours[3 * i] = 0; colours[3 * i + 1] = 0; colours[3 * i + 2] = 0 }
        let image = try Image(width: w, height: h + legend.height, channels: 3,
                              pixels: colours + (try legend.pixels(as: UInt8.self)))
        return (image, range)
    }

    /// Renders the preview and writes it atomically (PNG or another 8-bit
    /// format by extension); returns the range used.
    @discardableResult
    public static func write(_ map: DepthMap, to url: URL, range: Range? = nil) throws -> Range? {
        let (image, used) = try render(map, range: range)
        try ImageIO.write(image, to: url)
        return used
    }

    /// The `robustPercentiles` of the finite positive depths, widened to at
    /// least 1 cm so that a flat map still gets a range; nil when none is valid.
    public static func robustRange(_ depthMetres: [Float]) -> Range? {
        var valid = depthMetres.filter { $0.isFinite && $0 > 0 }
        guard !valid.isEmpty else { return nil }
        valid.sort()
        func percentile(_ p: Double) -> Double {
            Double(valid[min(valid.count - 1, Int((p / 100 * Double(valid.count - 1)).rounded()))])
        }
        var near = percentile(robustPercentiles.low), far = percentile(robustPercentiles.high)
        if far - near < 0.01 {
            let mid = (near + far) / 2
            near = max(mid - 0.005, mid / 2)
            far = near + 0.01
        }
        return Range(nearMetres: near, farMetres: far)
    }

    /// "0.40 m" below 10 m, "12.5 m" above.
    public static func label(metres: Double) -> String {
        String(format: metres < 10 ? "%.2f m" : "%.1f m", metres)
    }

    /// Text scale, margin, ramp height and label size of the legend for a map `width` wide.
    static func legendLayout(width: Int) throws -> (scale: Double, margin: Int, barHeight: Int, text: (width: Int, height: Int, baseline: Int)) {
        let scale = min(max(Double(width) / 900, 0.3), 1.0)
        let text = try ImageOps.textSize("0.00 m", scale: scale)
        return (scale, max(2, width / 80), max(4, text.height / 2 + 2), text)
    }

    /// The middle row of the legend's colour ramp (for tests).
    static func legendRampRow(width: Int) throws -> Int {
        let layout = try legendLayout(width: width)
        return layout.margin + layout.barHeight / 2
    }

    /// The legend: a colour ramp from near (left, blue) to far (right, red)
    /// above the near (left) and far (right) labels, white on black.
    static func legendStrip(width: Int, range: Range?) throws -> Image {
        let (scale, margin, barHeight, text) = try legendLayout(width: width)
        let height = margin + barHeight + margin + text.height + text.baseline + margin
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        if range != nil {
            let span = max(1, width - 2 * margin - 1)
            let ramp = (0..<width).map { x in UInt8(min(max(Double(x - margin) / Double(span) * 255, 0), 255).rounded()) }
            let rampColours = try ImageOps.applyColorMap(try Image(width: width, height: 1, channels: 1, pixels: ramp), .jet)
                .pixels(as: UInt8.self)
            for y in margin..<(margin + barHeight) {
                for x in margin..<max(margin, width - margin) {
                    for c in 0..<3 { pixels[(y * width + x) * 3 + c] = rampColours[x * 3 + c] }
                }
            }
        }
        var strip = try Image(width: width, height: height, channels: 3, pixels: pixels)
        let baselineY = margin + barHeight + margin + text.height
        if let range {
            let nearText = label(metres: range.nearMetres), farText = label(metres: range.farMetres)
            strip = try ImageOps.putText(strip, nearText, x: margin, y: baselineY, scale: scale)
            let farWidth = try ImageOps.textSize(farText, scale: scale).width
            strip = try ImageOps.putText(strip, farText, x: max(margin, width - margin - farWidth), y: baselineY, scale: scale)
        } else {
            strip = try ImageOps.putText(strip, "no valid depth", x: margin, y: baselineY, scale: scale)
        }
        return strip
    }
}
