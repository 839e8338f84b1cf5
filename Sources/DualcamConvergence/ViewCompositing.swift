import DualcamImaging

/// The compositing primitives behind `ConvergenceView`, in pure Swift on
/// 8-bit images: inputs are uint8 with 1, 3 or 4 channels (grey is
/// replicated, alpha dropped), both the same size; outputs are RGB uint8.
/// Loops run over the byte buffers; no per-pixel Double conversion.
///
/// Argument order is the camera order: the first image is the *left* / *red*
/// / first-tile one (`compose` passes the wide camera first, the tele second).
public enum ViewCompositing {
    /// Width of the split view's seam line (`split`'s default), pixels.
    public static let seamWidth = 2
    /// Left half (columns x < W/2) from `left`, right half (x >= W/2) from
    /// `right`, and a vertical seam line of `seamWidth` pixels centred on the
    /// boundary: columns W/2 - seamWidth/2 ..< W/2 - seamWidth/2 + seamWidth.
    /// Size W x H.
    public static func split(_ left: Image, _ right: Image, seamWidth: Int = ViewCompositing.seamWidth,
                             seamColor: RGB8 = .white) throws -> Image {
        let (a, b) = try pair(left, right)
        let w = a.width, h = a.height, half = w / 2
        let seam0 = max(0, half - seamWidth / 2), seam1 = min(w, seam0 + max(0, seamWidth))
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try Image.rgb8(width: w, height: h) { out in
                    let base = out.baseAddress!, sa = pa.baseAddress!, sb = pb.baseAddress!
                    for y in 0..<h {
                        let row = 3 * w * y
                        (base + row).update(from: sa.assumingMemoryBound(to: UInt8.self) + row, count: 3 * half)
                        (base + row + 3 * half).update(from: sb.assumingMemoryBound(to: UInt8.self) + row + 3 * half,
                                                       count: 3 * (w - half))
                        for x in seam0..<seam1 {
                            out[row + 3 * x] = seamColor.r; out[row + 3 * x + 1] = seamColor.g; out[row + 3 * x + 2] = seamColor.b
                        }
                    }
                }
            }
        }
    }

    /// `left` and `right` next to each other: size 2W x H, `left` in columns
    /// 0..<W, `right` in W..<2W.
    public static func sideBySide(_ left: Image, _ right: Image) throws -> Image {
        let (a, b) = try pair(left, right)
        let w = a.width, h = a.height
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try Image.rgb8(width: 2 * w, height: h) { out in
                    let base = out.baseAddress!
                    let sa = pa.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let sb = pb.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for y in 0..<h {
                        (base + 6 * w * y).update(from: sa + 3 * w * y, count: 3 * w)
                        (base + 6 * w * y + 3 * w).update(from: sb + 3 * w * y, count: 3 * w)
                    }
                }
            }
        }
    }

    /// 50/50 mix: (a + b + 1) / 2 per channel (rounded half up). Size W x H.
    public static func blend(_ first: Image, _ second: Image) throws -> Image {
        try perByte(first, second) { UInt8((UInt16($0) + UInt16($1) + 1) >> 1) }
    }

    /// Absolute difference |a - b| per channel: black where the two agree
    /// (where the convergence plane registers). Size W x H.
    public static func difference(_ first: Image, _ second: Image) throws -> Image {
        try perByte(first, second) { $0 > $1 ? $0 - $1 : $1 - $0 }
    }

    /// Red-cyan colour anaglyph: R from `red` (the left eye's image), G and B
    /// from `cyan` (the right eye's). Size W x H.
    public static func anaglyph(red: Image, cyan: Image) throws -> Image {
        let (a, b) = try pair(red, cyan)
        let n = a.width * a.height
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try Image.rgb8(width: a.width, height: a.height) { out in
                    for i in 0..<n {
                        out[3 * i] = pa[3 * i]
                        out[3 * i + 1] = pb[3 * i + 1]
                        out[3 * i + 2] = pb[3 * i + 2]
                    }
                }
            }
        }
    }

    /// The default checker tile side: an eighth of the shorter side, rounded
    /// (at least 1 pixel), so the shorter side holds 8 tiles.
    public static func defaultTile(width: Int, height: Int) -> Int {
        max(1, Int((Double(min(width, height)) / 8).rounded()))
    }

    /// Alternating square tiles of side `tile` (default `defaultTile`):
    /// the tile at (x / tile, y / tile) = (i, j) comes from `first` when
    /// i + j is even (so the top-left tile is `first`), from `second` when odd.
    /// Size W x H.
    public static func checker(_ first: Image, _ second: Image, tile: Int? = nil) throws -> Image {
        let (a, b) = try pair(first, second)
        let w = a.width, h = a.height
        let side = tile ?? defaultTile(width: w, height: h)
        guard side >= 1 else { throw ConvergenceError.invalidOption("checker tile must be at least 1 pixel, got \(side)") }
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try Image.rgb8(width: w, height: h) { out in
                    let base = out.baseAddress!
                    let sa = pa.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let sb = pb.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for y in 0..<h {
                        let row = 3 * w * y, j = y / side
                        var x = 0
                        while x < w {
                            let end = min(w, (x / side + 1) * side)
                            let src = (x / side + j) % 2 == 0 ? sa : sb
                            (base + row + 3 * x).update(from: src + row + 3 * x, count: 3 * (end - x))
                            x = end
                        }
                    }
                }
            }
        }
    }

    /// `image` where `mask` (uint8 1-channel) is non-zero, `fallback`
    /// elsewhere; RGB uint8 of the common size.
    public static func masked(_ image: Image, mask: Image, fallback: Image) throws -> Image {
        let (a, b) = try pair(image, fallback)
        guard mask.channels == 1, mask.element == .uint8, mask.width == a.width, mask.height == a.height else {
            throw ConvergenceError.invalidInput("mask must be a uint8 1-channel \(a.width)x\(a.height) image, got \(mask)")
        }
        let n = a.width * a.height
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try mask.withUnsafeBytes { pm in
                    try Image.rgb8(width: a.width, height: a.height) { out in
                        for i in 0..<n {
                            let src = pm[i] != 0 ? pa : pb
                            out[3 * i] = src[3 * i]; out[3 * i + 1] = src[3 * i + 1]; out[3 * i + 2] = src[3 * i + 2]
                        }
                    }
                }
            }
        }
    }

    /// Both images as RGB uint8, checked to be the same size.
    static func pair(_ first: Image, _ second: Image) throws -> (Image, Image) {
        guard first.width == second.width, first.height == second.height else {
            throw ConvergenceError.invalidInput(
                "views need two images of one size, got \(first.width)x\(first.height) and \(second.width)x\(second.height)")
        }
        return (try first.rgb8("first"), try second.rgb8("second"))
    }

    static func perByte(_ first: Image, _ second: Image, _ op: (UInt8, UInt8) -> UInt8) throws -> Image {
        let (a, b) = try pair(first, second)
        let n = 3 * a.width * a.height
        return try a.withUnsafeBytes { pa in
            try b.withUnsafeBytes { pb in
                try Image.rgb8(width: a.width, height: a.height) { out in
                    for i in 0..<n { out[i] = op(pa[i], pb[i]) }
                }
            }
        }
    }
}
