import Dispatch
import DualcamGeometry
import DualcamImaging

extension RemapTable {
    public var size: PixelSize { PixelSize(width: mapX.width, height: mapX.height) }

    /// Builds the table of a `size` destination: destination pixel (x, y)
    /// samples the source at
    ///
    ///     post(distort(dehomogenise(H [x y 1]^T)))
    ///
    /// where H maps destination pixels to ideal source pixels (a point with
    /// w <= 0 is behind the camera: invalid), `distort` is the source camera's
    /// lens distortion (ideal pixel -> sensor pixel of the full-size source)
    /// and `post` the affine pixel map to the source image actually sampled
    /// (identity unless that image is a crop or a resized copy). Valid: the final
    /// position lies in [0, W-1] x [0, H-1] of `sourceSize`. Rows are built in
    /// parallel bands.
    static func build(size: PixelSize, homography h: Matrix3, distorter: PixelDistorter,
                      post: PixelAffine = .identity, sourceSize: PixelSize) throws -> RemapTable {
        let width = size.width, height = size.height
        let count = width * height
        var xs = [Float](repeating: RemapTable.outsideCoordinate, count: count)
        var ys = [Float](repeating: RemapTable.outsideCoordinate, count: count)
        var mask = [UInt8](repeating: 0, count: count)
        let e = h.rowMajor
        let h0 = e[0], h1 = e[1], h2 = e[2], h3 = e[3], h4 = e[4], h5 = e[5], h6 = e[6], h7 = e[7], h8 = e[8]
        let psx = post.sx, psy = post.sy, pox = post.ox, poy = post.oy
        let maxX = Double(sourceSize.width - 1), maxY = Double(sourceSize.height - 1)
        let bandRows = 16
        let bands = (height + bandRows - 1) / bandRows
        var validPerBand = [Int](repeating: 0, count: bands)
        xs.withUnsafeMutableBufferPointer { xOut in
            ys.withUnsafeMutableBufferPointer { yOut in
                mask.withUnsafeMutableBufferPointer { mOut in
                    validPerBand.withUnsafeMutableBufferPointer { counts in
                        DispatchQueue.concurrentPerform(iterations: bands) { band in
                            var valid = 0
                            let y0 = band * bandRows
                            for y in y0..<min(y0 + bandRows, height) {
                                let fy = Double(y)
                                let rowX = h1 * fy + h2, rowY = h4 * fy + h5, rowW = h7 * fy + h8
                                var index = y * width
                                for x in 0..<width {
                                    defer { index += 1 }
                                    let fx = Double(x)
                                    let w = h6 * fx + rowW
                                    guard w > 0 else { continue }
                                    let u = (h0 * fx + rowX) / w, v = (h3 * fx + rowY) / w
                                    guard let s = distorter.distort(u, v) else { continue }
                                    let sx = psx * s.x + pox, sy = psy * s.y + poy
                                    guard sx.isFinite, sy.isFinite, abs(sx) < 1e6, abs(sy) < 1e6 else { continue }
                                    xOut[index] = Float(sx)
                                    yOut[index] = Float(sy)
                                    if sx >= 0, sx <= maxX, sy >= 0, sy <= maxY {
                                        mOut[index] = 255
                                        valid += 1
                                    }
                                }
                            }
                            counts[band] = valid
                        }
                    }
                }
            }
        }
        return try RemapTable(
            mapX: try Image(width: width, height: height, channels: 1, pixels: xs),
            mapY: try Image(width: width, height: height, channels: 1, pixels: ys),
            valid: try Image(width: width, height: height, channels: 1, pixels: mask),
            validCount: validPerBand.reduce(0, +))
    }
}
