import DualcamGeometry

/// An axis-aligned affine map of pixel coordinates, x' = sx x + ox,
/// y' = sy y + oy: the maps between a buffer, a crop of it and a resized copy.
struct PixelAffine: Hashable, Sendable {
    var sx = 1.0, ox = 0.0, sy = 1.0, oy = 0.0

    static let identity = PixelAffine()

    /// A crop whose top-left pixel is (x, y): x' = x_full - x.
    static func crop(x: Int, y: Int) -> PixelAffine {
        PixelAffine(sx: 1, ox: -Double(x), sy: 1, oy: -Double(y))
    }

    /// From a buffer of `full` size to a resized copy of `small` size, pixel
    /// centres exact as `ImageOps.resize` samples: x_small = s (x + 0.5) - 0.5
    /// with s = W_small / W, likewise for y.
    static func resize(from full: PixelSize, to small: PixelSize) -> PixelAffine {
        let sx = Double(small.width) / Double(full.width), sy = Double(small.height) / Double(full.height)
        return PixelAffine(sx: sx, ox: (sx - 1) / 2, sy: sy, oy: (sy - 1) / 2)
    }

    /// `next` after `self`: x -> next(self(x)).
    func then(_ next: PixelAffine) -> PixelAffine {
        PixelAffine(sx: next.sx * sx, ox: next.sx * ox + next.ox, sy: next.sy * sy, oy: next.sy * oy + next.oy)
    }

    var inverse: PixelAffine { PixelAffine(sx: 1 / sx, ox: -ox / sx, sy: 1 / sy, oy: -oy / sy) }

    /// As a 3x3 matrix acting on homogeneous pixels.
    var matrix: Matrix3 { Matrix3(rows: Vector3(sx, 0, ox), Vector3(0, sy, oy), Vector3(0, 0, 1)) }

    func apply(_ p: Vector2) -> Vector2 { Vector2(sx * p.x + ox, sy * p.y + oy) }
}
