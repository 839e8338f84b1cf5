import DualcamImaging
import XCTest

/// Misregistration between two views of the same size, measured in tiles:
/// each tile's shift (of `b` relative to `a`) is a local
/// registration error; the RMS over tiles is the figure the acceptance
/// criteria name.
///
/// Per tile: OpenCV phase correlation finds the whole-pixel shift, then
/// OpenCV's ECC (translation) on the tile of `b` moved by that whole-pixel
/// shift gives the sub-pixel part. ECC alone needs a good start; phase
/// correlation alone is pulled towards zero by its window when the two views
/// differ in sharpness (a 2x-upsampled wide against a rendered tele).
public enum Registration {
    public struct Tile {
        public var centre: (x: Double, y: Double)
        public var dx: Double
        public var dy: Double
    }

    public struct Result {
        public var tiles: [Tile]
        public var rms: Double { (tiles.reduce(0) { $0 + $1.dx * $1.dx + $1.dy * $1.dy } / Double(tiles.count)).squareRoot() }
        public var mean: (dx: Double, dy: Double) {
            (tiles.reduce(0) { $0 + $1.dx } / Double(tiles.count), tiles.reduce(0) { $0 + $1.dy } / Double(tiles.count))
        }
    }

    /// Tiles of `tile` pixels on a grid inside `margin`; tiles where either
    /// image has invalid (zero) pixels are skipped.
    public static func measure(_ a: Image, _ b: Image, tile: Int = 96, margin: Int = 24) throws -> Result {
        let ga = try ImageOps.convertToGray(a).converted(to: .float32)
        let gb = try ImageOps.convertToGray(b).converted(to: .float32)
        var tiles: [Tile] = []
        var y = margin
        while y + tile <= a.height - margin {
            var x = margin
            while x + tile <= a.width - margin {
                defer { x += tile }
                let ta = try ga.cropped(x: x, y: y, width: tile, height: tile)
                let tb = try gb.cropped(x: x, y: y, width: tile, height: tile)
                guard !ta.doubleValues().contains(0), !tb.doubleValues().contains(0) else { continue }
                let coarse = try ImageOps.phaseCorrelate(ta, tb).shift
                let ix = Int(coarse.dx.rounded()), iy = Int(coarse.dy.rounded())
                guard x + ix >= 0, y + iy >= 0, x + ix + tile <= b.width, y + iy + tile <= b.height else { continue }
                let moved = try gb.cropped(x: x + ix, y: y + iy, width: tile, height: tile)
                guard !moved.doubleValues().contains(0) else { continue }
                let fine = try ImageOps.eccTranslation(ta, moved).shift
                tiles.append(Tile(centre: (Double(x) + Double(tile - 1) / 2, Double(y) + Double(tile - 1) / 2),
                                  dx: Double(ix) + fine.dx, dy: Double(iy) + fine.dy))
            }
            y += tile
        }
        return Result(tiles: tiles)
    }
}
