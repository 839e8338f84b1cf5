import COpenCVShim
import DualcamSupport

/// The convergence kernels of the shim (`dualcam_opencv_converge.h`), which
/// read the caller's pixel buffers in place.
public enum CVConvergeKernels {
    /// A pixel buffer: rows `step` bytes apart, channels interleaved.
    public struct Pixels {
        public var base: UnsafeRawPointer
        public var rows: Int
        public var cols: Int
        public var channels: Int
        public var depth: CVMat.Depth
        public var step: Int

        public init(base: UnsafeRawPointer, rows: Int, cols: Int, channels: Int, depth: CVMat.Depth, step: Int) {
            self.base = base
            self.rows = rows
            self.cols = cols
            self.channels = channels
            self.depth = depth
            self.step = step
        }
    }

    /// The float32 luma of a region of `pixels`, area-resized to `outCols` x `outRows`.
    public static func greyLevel(_ pixels: Pixels, x: Int, y: Int, cols: Int, rows: Int,
                                 outCols: Int, outRows: Int) throws -> CVMat {
        var handle: OpaquePointer?
        try Shim.call("grey level") {
            dc_grey_level(pixels.base, Int32(clamping: pixels.rows), Int32(clamping: pixels.cols), Int32(clamping: pixels.channels),
                          pixels.depth.rawValue, pixels.step, Int32(clamping: x), Int32(clamping: y), Int32(clamping: cols),
                          Int32(clamping: rows), Int32(clamping: outCols), Int32(clamping: outRows), &handle, $0)
        }
        return try CVMat(adopting: handle!)
    }

    /// Writes the split view into `out` (3-channel uint8, `rows` x `cols`,
    /// `outStep` bytes per row); see `dc_remap_split`.
    public static func remapSplit(moving: Pixels, table: CVRemapTable, fixed: Pixels, fixedTable: CVRemapTable?,
                                  valid: Pixels?, rows: Int, cols: Int, movingLeft: Bool, seam: Range<Int>,
                                  seamRGB: (UInt8, UInt8, UInt8), out: UnsafeMutableRawPointer, outStep: Int) throws {
        var colour = [seamRGB.0, seamRGB.1, seamRGB.2]
        try Shim.call("split view") { error in
            dc_remap_split(table.handle, moving.base, Int32(clamping: moving.rows), Int32(clamping: moving.cols), moving.step,
                           fixedTable?.handle, fixed.base, Int32(clamping: fixed.rows), Int32(clamping: fixed.cols), fixed.step,
                           valid?.base.assumingMemoryBound(to: UInt8.self), valid?.step ?? 0, Int32(clamping: rows),
                           Int32(clamping: cols), movingLeft ? 1 : 0, Int32(clamping: seam.lowerBound),
                           Int32(clamping: seam.upperBound), &colour, out, outStep, error)
        }
    }
}
