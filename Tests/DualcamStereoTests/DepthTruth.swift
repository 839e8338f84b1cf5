import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation

/// Ground truth of a depth result, per output pixel, in the same geometry as
/// the estimate: the rectified pixel disparity at the very rectified pixel the
/// output sampled (d = f B ray_ref.z / Z_ref along that pixel's ray), and the
/// depth along the reference axis at the output pixel itself.
struct DepthTruth {
    var rectifiedDisparity: [Float]
    var depth: [Float]
    /// Output pixel inside the overlap, seen by both cameras, textured (window gradient RMS >= 2 levels/px).
    var covered: [Bool]
    var covisible: [Bool]
    var textured: [Bool]

    init(estimator: StereoDepthEstimator, pair: DepthFixtures.Pair) throws {
        let alignment = estimator.alignment
        let rect = estimator.rectification
        let ref = estimator.reference
        let view = pair.view(ref)
        let model = try rect.model(of: ref)
        let k = model.intrinsics
        let back = try rect.rotation(of: ref).inverse
        let fb = rect.pixelsPerInverseMetre
        let (w, h) = (alignment.size.width, alignment.size.height)
        let (sw, sh) = (view.size.width, view.size.height)
        let rw = rect.size.width
        let depth = view.depthValues()
        let ids = view.objectIDs
        let covis = pair.covisible(ref)
        let grey = try ImageOps.convertToGray(view.image).pixels(as: UInt8.self).map { Float($0) }

        func sample(_ p: Vector2) -> Float {
            let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
            guard x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh else {
                let xn = Int(p.x.rounded()), yn = Int(p.y.rounded())
                return xn >= 0 && yn >= 0 && xn < sw && yn < sh ? depth[yn * sw + xn] : .nan
            }
            let i = y0 * sw + x0
            let corners = [i, i + 1, i + sw, i + sw + 1]
            let z = corners.map { depth[$0] }
            if z.allSatisfy(\.isFinite), corners.allSatisfy({ ids[$0] == ids[i] }) {
                let fx = Float(p.x) - Float(x0), fy = Float(p.y) - Float(y0)
                let inv = (1 - fy) * ((1 - fx) / z[0] + fx / z[1]) + fy * ((1 - fx) / z[2] + fx / z[3])
                return 1 / inv
            }
            return depth[Int(p.y.rounded()) * sw + Int(p.x.rounded())]
        }

        var dGT = [Float](repeating: .nan, count: w * h), zGT = dGT
        var covered = [Bool](repeating: false, count: w * h), covisible = covered, textured = covered
        let sx = Double(sw) / Double(w), sy = Double(sh) / Double(h)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let sensor = Vector2((Double(x) + 0.5) * sx - 0.5, (Double(y) + 0.5) * sy - 0.5)
                zGT[i] = sample(sensor)
                let nx = min(sw - 1, max(0, Int(sensor.x.rounded()))), ny = min(sh - 1, max(0, Int(sensor.y.rounded())))
                covisible[i] = covis[ny * sw + nx]
                if nx >= 4, ny >= 4, nx + 4 < sw, ny + 4 < sh {
                    var energy: Float = 0
                    for wy in (ny - 3)...(ny + 3) {
                        for wx in (nx - 3)...(nx + 3) {
                            let gx = (grey[wy * sw + wx + 1] - grey[wy * sw + wx - 1]) / 2
                            let gy = (grey[(wy + 1) * sw + wx] - grey[(wy - 1) * sw + wx]) / 2
                            energy += gx * gx + gy * gy
                        }
                    }
                    textured[i] = (energy / 49).squareRoot() >= 2
                }
                let r = Int(alignment.rectifiedIndex[i])
                guard r >= 0 else { continue }
                covered[i] = true
                let n = rect.intrinsics.normalized(fromPixel: Vector2(Double(r % rw), Double(r / rw)))
                let ray = back * Vector3(n.x, n.y, 1)
                let ideal = k.pixel(fromNormalized: Vector2(ray.x / ray.z, ray.y / ray.z))
                let p = try model.distortion.distortPixel(ideal, intrinsics: k)
                let z = sample(p)
                dGT[i] = Float(fb * ray.z) / z
            }
        }
        rectifiedDisparity = dGT
        self.depth = zGT
        self.covered = covered
        self.covisible = covisible
        self.textured = textured
    }
}

/// The figures of one estimate, all from `DepthMetrics`.
struct DepthEvaluation {
    /// Measured values in the rectified geometry (pixel disparity errors; Z_rect = f B / d on both sides),
    /// over textured, co-visible, covered pixels.
    var rectified: DepthErrors
    /// Depth along the reference axis at the output pixels: all, interior and 3-px discontinuity band.
    var depth: DepthErrorSplit

    /// `useFiltered` picks the result's final values (filtered or not) or its measured ones.
    init(_ result: StereoDepthResult, truth: DepthTruth, useFiltered: Bool) throws {
        let fb = Float(result.rectification.pixelsPerInverseMetre)
        let d = useFiltered ? result.disparityPixels : result.unfilteredDisparityPixels
        let measured = zip(zip(truth.covered, truth.covisible), truth.textured).map { $0.0 && $0.1 && $1 }
        rectified = try DepthMetrics.compare(
            estimateMetres: d.map { fb / $0 }, truthMetres: truth.rectifiedDisparity.map { fb / $0 }, size: result.size,
            mask: useFiltered ? truth.covered : measured, pixelsPerInverseMetre: Double(fb))
        // Unfiltered depth from the measured disparity itself: Z = f B / d x depthFactor, and the
        // result's depth is that of its final disparity, so Z_measured = Z_final d_final / d_measured.
        let depthValues: [Float] = useFiltered ? result.depthMetres
            : zip(result.unfilteredDisparityPixels, zip(result.disparityPixels, result.depthMetres)).map { u, final in
                u.isFinite && final.0.isFinite && final.0 > 0 ? final.1 * final.0 / u : .nan
            }
        let estimate = try DepthMap(size: result.size, values: depthValues, type: .depth)
        let truthMap = try DepthMap(size: result.size, values: truth.depth, type: .depth)
        depth = try DepthMetrics.compareSplit(estimate: estimate, truth: truthMap,
                                              mask: useFiltered ? truth.covered : measured, bandRadius: 3,
                                              pixelsPerInverseMetre: result.outputPixelsPerInverseMetre)
    }

    var summary: String {
        String(format: "coverage %.2f%%, disparity median %.4f px, mean %.4f px, >1px %.3f%%; depth mean abs rel %.3f%% (interior %.3f%%, 3-px edge band %.3f%%; median disparity error interior %.4f px, band %.4f px at the output size)",
               100 * rectified.coverage, rectified.disparity?.medianAbsolutePixels ?? .nan,
               rectified.disparity?.meanAbsolutePixels ?? .nan, 100 * (rectified.disparity?.fractionAbovePixelThreshold ?? .nan),
               100 * depth.all.meanAbsoluteRelativeError, 100 * depth.interior.meanAbsoluteRelativeError,
               100 * depth.band.meanAbsoluteRelativeError, depth.interior.disparity?.medianAbsolutePixels ?? .nan,
               depth.band.disparity?.medianAbsolutePixels ?? .nan)
    }
}
