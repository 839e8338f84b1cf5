import DualcamOpenCV
import DualcamSupport

extension Image {
    /// This image's bytes as a shim pixel buffer, for the duration of `body`.
    func withPixels<T>(_ body: (CVConvergeKernels.Pixels) throws -> T) throws -> T {
        try withUnsafeBytes { raw in
            try body(CVConvergeKernels.Pixels(base: raw.baseAddress!, rows: height, cols: width, channels: channels,
                                              depth: element.cvDepth, step: width * channels * element.byteCount))
        }
    }
}

extension ImageOps {
    /// The luma (Y = 0.299 R + 0.587 G + 0.114 B; 8-bit colour converted in
    /// 8 bits, rounded, as `convertToGray`) of the `regionWidth` x
    /// `regionHeight` region at (x, y) of `image` as float32,
    /// resized to `width` x `height` by pixel-area averaging unless that is
    /// the region's size: `convertToGray`, `converted(to: .float32)` and
    /// `resize(.area)` of the crop in one pass that reads the image in place.
    /// uint8, uint16 or float32 images with 1, 3 or 4 channels.
    public static func greyLevel(_ image: Image, x: Int, y: Int, regionWidth: Int, regionHeight: Int,
                                 width: Int, height: Int) throws -> Image {
        guard image.element != .float16 else {
            return try greyLevel(image.converted(to: .float32), x: x, y: y, regionWidth: regionWidth,
                                 regionHeight: regionHeight, width: width, height: height)
        }
        let mat = try image.withPixels { pixels in
            try CVConvergeKernels.greyLevel(pixels, x: x, y: y, cols: regionWidth, rows: regionHeight,
                                            outCols: width, outRows: height)
        }
        return try Image(keepingChannelOrder: mat)
    }
}

extension PreparedRemap {
    /// The split view of a pair on a canvas of this table's size, composed
    /// straight from the two images: columns x < width/2 from the left image,
    /// the rest from the right one, then `seam` columns set to `seamRGB`.
    /// The moving image is resampled through this table (bilinear, black
    /// outside) on its half only (`movingOnLeft`), and where `valid` (uint8,
    /// canvas size, 0 = no moving data; nil when all valid) is 0 shows the
    /// fixed image; the fixed image, through `fixedTable` when given
    /// (otherwise it is canvas-sized), fills the other half. Both images are
    /// 3-channel uint8; the result too. Equals resampling both whole images
    /// and composing the halves, without computing the hidden halves.
    public func splitView(moving: Image, fixed: Image, fixedTable: PreparedRemap?, valid: Image?, movingOnLeft: Bool,
                          seam: Range<Int>, seamRGB: (UInt8, UInt8, UInt8)) throws -> Image {
        for (name, image) in [("moving", moving), ("fixed", fixed)] where image.channels != 3 || image.element != .uint8 {
            throw DualcamError.invalidValue(name: "\(name) image", reason: "the split view needs 3-channel uint8 images, got \(image)")
        }
        let rows = height, cols = width
        var out = [UInt8](repeating: 0, count: rows * cols * 3)
        try moving.withPixels { m in
            try fixed.withPixels { f in
                try out.withUnsafeMutableBytes { o in
                    if let valid {
                        try valid.withPixels { v in
                            try CVConvergeKernels.remapSplit(moving: m, table: table, fixed: f, fixedTable: fixedTable?.table, valid: v,
                                                             rows: rows, cols: cols, movingLeft: movingOnLeft, seam: seam,
                                                             seamRGB: seamRGB, out: o.baseAddress!, outStep: cols * 3)
                        }
                    } else {
                        try CVConvergeKernels.remapSplit(moving: m, table: table, fixed: f, fixedTable: fixedTable?.table, valid: nil,
                                                         rows: rows, cols: cols, movingLeft: movingOnLeft, seam: seam,
                                                         seamRGB: seamRGB, out: o.baseAddress!, outStep: cols * 3)
                    }
                }
            }
        }
        return try Image(width: cols, height: rows, channels: 3, element: .uint8, bytes: out)
    }
}
