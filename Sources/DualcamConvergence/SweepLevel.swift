import DualcamGeometry
import DualcamImaging

/// A window of canvas pixels.
public typealias CanvasWindow = PixelRect

/// The part of a camera's sensor image that a region of its ideal pixels
/// needs, as a float32 grey image at some scale: level pixel =
/// `fromFull`(full-size sensor pixel). `image` is nil when the region sees
/// none of the sensor.
struct SensorLevel {
    let image: Image?
    let fromFull: PixelAffine

    /// Crops the bounding box of the distorted boundary of `region` (ideal
    /// full-size pixels; 32 samples per edge, grown by 2 pixels, clipped to the
    /// image), converts it to grey (luma) and resizes it by `scale` with
    /// pixel-area averaging.
    init(_ sensor: Image, distorter: PixelDistorter, region: CanvasWindow, scale: Double) throws {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let x0 = Double(region.x) - 0.5, y0 = Double(region.y) - 0.5
        let x1 = x0 + Double(region.width), y1 = y0 + Double(region.height)
        let n = 32
        for i in 0...n {
            let t = Double(i) / Double(n)
            for (u, v) in [(x0 + t * (x1 - x0), y0), (x0 + t * (x1 - x0), y1), (x0, y0 + t * (y1 - y0)), (x1, y0 + t * (y1 - y0))] {
                guard let s = distorter.distort(u, v) else { continue }
                minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
            }
        }
        let w = sensor.width, h = sensor.height
        let cx0 = max(0, Int(max(-1, minX - 2).rounded(.down))), cy0 = max(0, Int(max(-1, minY - 2).rounded(.down)))
        let cx1 = min(w - 1, Int(min(Double(w), maxX + 2).rounded(.up)))
        let cy1 = min(h - 1, Int(min(Double(h), maxY + 2).rounded(.up)))
        guard minX.isFinite, minY.isFinite, cx1 >= cx0, cy1 >= cy0 else {
            image = nil
            fromFull = .identity
            return
        }
        let cropSize = PixelSize(width: cx1 - cx0 + 1, height: cy1 - cy0 + 1)
        let levelSize = PixelSize(width: max(1, Int((Double(cropSize.width) * scale).rounded())),
                                  height: max(1, Int((Double(cropSize.height) * scale).rounded())))
        image = try ImageOps.greyLevel(sensor, x: cx0, y: cy0, regionWidth: cropSize.width, regionHeight: cropSize.height,
                                       width: levelSize.width, height: levelSize.height)
        fromFull = PixelAffine.crop(x: cx0, y: cy0).then(.resize(from: cropSize, to: levelSize))
    }

    /// Samples the level through `table` (built with `fromFull` as its post
    /// map) with `interpolation`, NaN where there is no data.
    func sample(_ table: RemapTable, interpolation: ImageOps.Interpolation = .linear) throws -> Image {
        guard let image else {
            let nan = [Float](repeating: .nan, count: table.size.width * table.size.height)
            return try Image(width: table.size.width, height: table.size.height, channels: 1, pixels: nan)
        }
        return try table.apply(image, interpolation: interpolation, border: LevelImage.noData)
    }
}

/// A region of a camera's *ideal* (undistorted) full-size pixels as a float32
/// grey image at some scale: level pixel = `fromFull`(full-size ideal pixel),
/// NaN where the sensor has no data.
struct LevelImage {
    let image: Image
    let fromFull: PixelAffine

    static let noData = ImageOps.Border.constant(value: .nan)

    /// Builds the level of `region` (full-size ideal pixels of `model`) at
    /// `scale` from the camera's sensor image: only the part of the sensor
    /// that the region needs is cropped, converted to grey (luma), resized by
    /// pixel-area averaging and, unless the camera has no distortion and the
    /// region lies inside the image, remapped into ideal pixels (Lanczos, whose
    /// phase error is far smaller than bilinear's: a bilinear resampling at a
    /// slowly varying sub-pixel phase biases a windowed NCC peak).
    static func make(_ sensor: Image, model: CameraModel, region: CanvasWindow, scale: Double) throws -> LevelImage {
        let levelSize = PixelSize(width: max(4, Int((Double(region.width) * scale).rounded())),
                                  height: max(4, Int((Double(region.height) * scale).rounded())))
        let fromFull = PixelAffine.crop(x: region.x, y: region.y).then(.resize(from: region.size, to: levelSize))
        let distorter = PixelDistorter(model)
        if distorter.isIdentity, region.x >= 0, region.y >= 0,
           region.x + region.width <= sensor.width, region.y + region.height <= sensor.height {
            let grey = try ImageOps.greyLevel(sensor, x: region.x, y: region.y, regionWidth: region.width,
                                              regionHeight: region.height, width: levelSize.width, height: levelSize.height)
            return LevelImage(image: grey, fromFull: fromFull)
        }
        let source = try SensorLevel(sensor, distorter: distorter, region: region, scale: scale)
        // Level ideal pixel -> full ideal pixel -> full sensor pixel -> level sensor pixel.
        let table = try RemapTable.build(size: levelSize, homography: fromFull.inverse.matrix, distorter: distorter,
                                         post: source.fromFull, sourceSize: source.image.map { PixelSize(width: $0.width, height: $0.height) } ?? levelSize)
        guard let grey = source.image else { return LevelImage(image: try source.sample(table), fromFull: fromFull) }
        return LevelImage(image: try table.apply(grey, interpolation: .lanczos4, border: noData), fromFull: fromFull)
    }
}

/// One resolution level of the plane sweep: the scored region of the canvas
/// camera's view (`fixed`, ideal pixels) and the part of the moving camera's
/// view it can see over a range of inverse distances.
///
/// Two ways to put the moving image on the fixed level for inverse distance q:
/// - `.pretransformed` (coarse levels): the moving region is undistorted once
///   into ideal pixels (`LevelImage`); each q is one perspective warp of it,
///   fixed level pixel x sampling A_m M(q)^-1 A_c^-1 x (A_c, A_m the levels'
///   `fromFull` maps, M = `canvasFromMoving`).
/// - `.direct` (the refinement): each q builds the same kind of one-pass
///   undistort + warp table as the output (`ConvergenceMaps`), sampling the
///   moving sensor level at S_m distort_m(M(q)^-1 A_c^-1 x), so the score
///   maximised is that of the registration the user sees.
/// Pixels with no data (NaN) are left out of the score.
struct SweepLevel {
    enum Mode { case pretransformed, direct }

    private enum Moving {
        case ideal(LevelImage, PreparedWarpSource)
        case sensor(SensorLevel, PixelDistorter)
    }

    let geometry: ConvergenceGeometry
    let fixed: LevelImage
    private let moving: Moving
    /// The fixed level's values, row-major (NaN: not scored).
    private(set) var fixedValues: [Float]

    /// Pixels of the fixed level (the scored region at this level).
    var pixelCount: Int { fixed.image.width * fixed.image.height }

    /// `region` is in full-size canvas pixels; `inverseDistances` the range
    /// of q that will be scored (it bounds the moving region).
    init(geometry g: ConvergenceGeometry, fixed fixedImage: Image, moving movingImage: Image,
         canvasScale: Double, movingScale: Double, region: CanvasWindow,
         inverseDistances: ClosedRange<Double>, mode: Mode) throws {
        geometry = g
        fixed = try LevelImage.make(fixedImage, model: g.fixedModel, region: region, scale: canvasScale)
        fixedValues = try fixed.image.pixels(as: Float.self)
        let movingRegion = try Self.footprint(of: region, geometry: g, inverseDistances: inverseDistances,
                                              margin: 3 + 2 / movingScale)
        switch mode {
        case .pretransformed:
            let level = try LevelImage.make(movingImage, model: g.movingModel, region: movingRegion, scale: movingScale)
            moving = .ideal(level, try PreparedWarpSource(level.image))
        case .direct:
            let distorter = PixelDistorter(g.movingModel)
            moving = .sensor(try SensorLevel(movingImage, distorter: distorter, region: movingRegion, scale: movingScale),
                             distorter)
        }
    }

    /// The moving image's ideal pixels that canvas `region` sees for q in
    /// `inverseDistances`: the bounding box of the region's corners mapped by
    /// M(q)^-1 at both ends of the range (a canvas point's moving position
    /// slides along a line, monotonically in q), grown by `margin`, limited to
    /// 1.5 x the moving image around it.
    static func footprint(of region: CanvasWindow, geometry g: ConvergenceGeometry,
                          inverseDistances: ClosedRange<Double>, margin: Double) throws -> CanvasWindow {
        let w = Double(g.movingSize.width), h = Double(g.movingSize.height)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let x0 = Double(region.x) - 0.5, y0 = Double(region.y) - 0.5
        let x1 = x0 + Double(region.width), y1 = y0 + Double(region.height)
        for q in [inverseDistances.lowerBound, inverseDistances.upperBound] {
            guard let inverse = try g.canvasFromMoving(inverseDistance: q).inverse else { continue }
            for corner in [Vector2(x0, y0), Vector2(x1, y0), Vector2(x0, y1), Vector2(x1, y1)] {
                let p = inverse * corner.homogeneous
                guard p.z > 0 else { minX = -.infinity; maxX = .infinity; minY = -.infinity; maxY = .infinity; continue }
                minX = min(minX, p.x / p.z); maxX = max(maxX, p.x / p.z)
                minY = min(minY, p.y / p.z); maxY = max(maxY, p.y / p.z)
            }
        }
        let left = Int(max(-0.25 * w, minX - margin).rounded(.down))
        let top = Int(max(-0.25 * h, minY - margin).rounded(.down))
        let right = Int(min(1.25 * w, maxX + margin).rounded(.up))
        let bottom = Int(min(1.25 * h, maxY + margin).rounded(.up))
        return CanvasWindow(x: left, y: top, width: max(1, right - left + 1), height: max(1, bottom - top + 1))
    }

    /// The moving image put on the fixed level for inverse distance `q`
    /// (row-major, NaN where it has no data); nil when the plane's
    /// homography is singular.
    func warpedValues(inverseDistance q: Double) throws -> [Float]? {
        guard let movingFromCanvas = try geometry.canvasFromMoving(inverseDistance: q).inverse else { return nil }
        let size = PixelSize(width: fixed.image.width, height: fixed.image.height)
        let warped: Image
        switch moving {
        case let .ideal(level, source):
            let h = level.fromFull.matrix * movingFromCanvas * fixed.fromFull.inverse.matrix
            warped = try source.warpPerspective(homography: h.normalizedHomography.rowMajor,
                                                width: size.width, height: size.height,
                                                border: LevelImage.noData, inverseMap: true)
        case let .sensor(level, distorter):
            let sourceSize = level.image.map { PixelSize(width: $0.width, height: $0.height) } ?? size
            let table = try RemapTable.build(size: size, homography: movingFromCanvas * fixed.fromFull.inverse.matrix,
                                             distorter: distorter, post: level.fromFull, sourceSize: sourceSize)
            warped = try level.sample(table)
        }
        return try warped.pixels(as: Float.self)
    }

    /// The NCC between the fixed level and the moving image put on it for
    /// inverse distance `q`, and the number of pixels it used.
    func score(inverseDistance q: Double) throws -> (score: Double, count: Int) {
        guard let values = try warpedValues(inverseDistance: q) else { return (-1, 0) }
        return values.withUnsafeBufferPointer { a in
            fixedValues.withUnsafeBufferPointer { b in normalizedCrossCorrelation(a, b) }
        }
    }

    /// The same level scoring only the fixed pixels where `keep` is true
    /// (the others become no data).
    func restricted(to keep: [Bool]) -> SweepLevel {
        precondition(keep.count == fixedValues.count, "one flag per fixed pixel")
        var copy = self
        copy.fixedValues = zip(fixedValues, keep).map { $1 ? $0 : .nan }
        return copy
    }
}
