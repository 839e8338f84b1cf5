/// An image size in pixels.
public struct PixelSize: Hashable, Codable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)x\(height)" }
    public var aspectRatio: Double { Double(width) / Double(height) }

    /// Parses `WxH` (e.g. `1920x1080`); nil unless both are positive integers.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }
}

/// A rectangle of pixels: columns x..<x+width, rows y..<y+height.
public struct PixelRect: Equatable, Hashable, Codable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
}

/// Pinhole intrinsics K = [[fx, s, cx], [0, fy, cy], [0, 0, 1]] in pixels,
/// origin at the top-left pixel, valid for images of `referenceSize`.
///
/// Calibration files give K for reference dimensions (typically the full
/// sensor); a buffer of another size with the same aspect ratio uses
/// K' = diag(W/Wref, H/Href, 1) K (`scaled(to:)`). A crop is not a scale, so
/// a different aspect ratio is an error.
public struct Intrinsics: Equatable, Hashable, Sendable {
    public var fx: Double
    public var fy: Double
    public var skew: Double
    public var cx: Double
    public var cy: Double
    public var referenceSize: PixelSize

    public init(fx: Double, fy: Double, skew: Double = 0, cx: Double, cy: Double,
                referenceSize: PixelSize) throws {
        for (name, v) in [("fx", fx), ("fy", fy), ("skew", skew), ("cx", cx), ("cy", cy)] where !v.isFinite {
            throw GeometryError.invalidIntrinsics("intrinsics \(name) is \(v), expected a finite number")
        }
        guard fx > 0, fy > 0 else {
            throw GeometryError.invalidIntrinsics("intrinsics focal lengths must be positive, got fx=\(fx) fy=\(fy)")
        }
        guard referenceSize.width > 0, referenceSize.height > 0 else {
            throw GeometryError.invalidIntrinsics("intrinsics reference size must be positive, got \(referenceSize)")
        }
        self.fx = fx; self.fy = fy; self.skew = skew; self.cx = cx; self.cy = cy
        self.referenceSize = referenceSize
    }

    /// Reads K from a 3x3 matrix; the bottom row must be (0, 0, 1) and K[1][0] zero.
    public init(matrix k: Matrix3, referenceSize: PixelSize) throws {
        guard k.row2 == Vector3(0, 0, 1), k[1, 0] == 0 else {
            throw GeometryError.invalidIntrinsics(
                "intrinsic matrix must have rows [fx s cx; 0 fy cy; 0 0 1], got \(k)")
        }
        try self.init(fx: k[0, 0], fy: k[1, 1], skew: k[0, 1], cx: k[0, 2], cy: k[1, 2],
                      referenceSize: referenceSize)
    }

    /// K.
    public var matrix: Matrix3 {
        Matrix3(rows: Vector3(fx, skew, cx), Vector3(0, fy, cy), Vector3(0, 0, 1))
    }

    /// K^-1 in closed form (K is upper triangular with positive diagonal).
    public var inverseMatrix: Matrix3 {
        Matrix3(rows: Vector3(1 / fx, -skew / (fx * fy), (skew * cy - cx * fy) / (fx * fy)),
                Vector3(0, 1 / fy, -cy / fy),
                Vector3(0, 0, 1))
    }

    /// The per-axis factors (W/Wref, H/Href) to a buffer of `size`, after
    /// checking that it has the reference aspect ratio: the height predicted
    /// from the width factor must be within one pixel of `size.height`.
    public func scaleFactors(to size: PixelSize) throws -> (x: Double, y: Double) {
        guard size.width > 0, size.height > 0 else {
            throw GeometryError.aspectRatioMismatch("cannot scale intrinsics to a size of \(size)")
        }
        let sx = Double(size.width) / Double(referenceSize.width)
        let sy = Double(size.height) / Double(referenceSize.height)
        let predictedHeight = sx * Double(referenceSize.height)
        guard abs(predictedHeight - Double(size.height)) <= 1 else {
            throw GeometryError.aspectRatioMismatch(
                "cannot scale intrinsics from \(referenceSize) to \(size): the aspect ratio differs "
                    + "(\(fmt(referenceSize.aspectRatio)) vs \(fmt(size.aspectRatio))); a crop is not a scale")
        }
        return (sx, sy)
    }

    /// K' = diag(W/Wref, H/Href, 1) K for a buffer of `size` with the same aspect ratio.
    public func scaled(to size: PixelSize) throws -> Intrinsics {
        let (sx, sy) = try scaleFactors(to: size)
        return try Intrinsics(fx: fx * sx, fy: fy * sy, skew: skew * sx, cx: cx * sx, cy: cy * sy,
                              referenceSize: size)
    }

    /// K of this camera's image after resampling it to `size` the way image
    /// libraries resize (OpenCV's `resize`, area averaging, pyramids): the
    /// pixel grids are aligned at their outer edges, so with pixel centres at
    /// integer coordinates (the convention of K here, OpenCV's and the
    /// renderer's) a point moves as x' = (x + 0.5) W/Wref - 0.5, and
    /// fx' = fx W/Wref, cx' = (cx + 0.5) W/Wref - 0.5 (likewise in y).
    ///
    /// `scaled(to:)` is the reference-dimensions rule for a sensor's buffers
    /// (concepts: K' = diag(W/Wref, H/Href, 1) K); it differs from this by
    /// 0.5 (1 - W/Wref) px, which matters as soon as dualcam resamples an image
    /// itself and then compares it with a map or a point in the other grid
    /// (a quarter pixel at half size). See `PixelGridResampling`.
    public func resampled(to size: PixelSize) throws -> Intrinsics {
        let (sx, sy) = try scaleFactors(to: size)
        return try Intrinsics(fx: fx * sx, fy: fy * sy, skew: skew * sx, cx: (cx + 0.5) * sx - 0.5,
                              cy: (cy + 0.5) * sy - 0.5, referenceSize: size)
    }

    /// Pixel of the normalised image point (x, y) = (X/Z, Y/Z): K [x y 1]^T.
    public func pixel(fromNormalized p: Vector2) -> Vector2 {
        Vector2(fx * p.x + skew * p.y + cx, fy * p.y + cy)
    }

    /// Normalised image point of a pixel: K^-1 [u v 1]^T.
    public func normalized(fromPixel p: Vector2) -> Vector2 {
        let y = (p.y - cy) / fy
        return Vector2((p.x - cx - skew * y) / fx, y)
    }

    /// Horizontal field of view in degrees across the reference width,
    /// 2 atan(W / (2 fx)) (for a centred principal point).
    public var horizontalFieldOfViewDegrees: Double {
        Angle.degrees(2 * atan(Double(referenceSize.width) / (2 * fx)))
    }

    /// Vertical field of view in degrees, 2 atan(H / (2 fy)).
    public var verticalFieldOfViewDegrees: Double {
        Angle.degrees(2 * atan(Double(referenceSize.height) / (2 * fy)))
    }

    /// Diagonal field of view in degrees, using the mean focal length.
    public var diagonalFieldOfViewDegrees: Double {
        let w = Double(referenceSize.width), h = Double(referenceSize.height)
        return Angle.degrees(2 * atan((w * w + h * h).squareRoot() / (fx + fy)))
    }
}

func fmt(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000
    return "\(r)"
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
