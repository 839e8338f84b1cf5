extension Image {
    /// Every channel value widened to Double, row-major interleaved.
    public func doubleValues() -> [Double] {
        // `pixels(as:)` cannot fail here: the type is chosen from `element`.
        switch element {
        case .uint8: return try! pixels(as: UInt8.self).map(Double.init)
        case .uint16: return try! pixels(as: UInt16.self).map(Double.init)
        case .float16: return try! pixels(as: Float16.self).map(Double.init)
        case .float32: return try! pixels(as: Float.self).map(Double.init)
        }
    }

    /// An image of `element` values built from Doubles: integer elements
    /// round to nearest and saturate (NaN becomes 0); float elements round to
    /// the nearest representable value.
    public init(width: Int, height: Int, channels: Int, element: PixelElement, values: [Double]) throws {
        switch element {
        case .uint8:
            try self.init(width: width, height: height, channels: channels,
                          pixels: values.map { Self.saturate($0, max: UInt8.max) })
        case .uint16:
            try self.init(width: width, height: height, channels: channels,
                          pixels: values.map { Self.saturate($0, max: UInt16.max) })
        case .float16:
            try self.init(width: width, height: height, channels: channels, pixels: values.map { Float16($0) })
        case .float32:
            try self.init(width: width, height: height, channels: channels, pixels: values.map { Float($0) })
        }
    }

    /// The same values stored as `element` (values unchanged, not rescaled:
    /// a uint8 255 becomes 255.0 in float32). Converting to a narrower type
    /// rounds and saturates as `init(width:height:channels:element:values:)`.
    public func converted(to element: PixelElement) -> Image {
        if element == self.element { return self }
        // The size was valid for `self`, so it is valid for the new element too.
        return try! Image(width: width, height: height, channels: channels, element: element, values: doubleValues())
    }

    private static func saturate<T: FixedWidthInteger & UnsignedInteger>(_ value: Double, max: T) -> T {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded()
        if rounded <= 0 { return 0 }
        if rounded >= Double(max) { return max }
        return T(rounded)
    }
}
