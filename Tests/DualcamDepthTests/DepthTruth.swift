import DualcamDepth
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

    /// Pixels within `radius` (Chebyshev) of a GT depth discontinuity
    /// (4-neighbours whose depths differ by more than `jump` relative).
    func edgeBand(width w: Int, radius: Int = 3, jump: Float = 0.03) -> [Bool] {
        let h = depth.count / w
        var edge = [Bool](repeating: false, count: depth.count)
        for y in 0..<h {
            for x in 0..<w {
                let a = depth[y * w + x]
                for (nx, ny) in [(x + 1, y), (x, y + 1)] where nx < w && ny < h {
                    let b = depth[ny * w + nx]
                    if a.isFinite != b.isFinite || (a.isFinite && abs(a - b) > jump * min(a, b)) {
                        edge[y * w + x] = true
                        edge[ny * w + nx] = true
                    }
                }
            }
        }
        var band = edge
        for y in 0..<h {
            for x in 0..<w where edge[y * w + x] {
                for by in max(0, y - radius)...min(h - 1, y + radius) {
                    for bx in max(0, x - radius)...min(w - 1, x + radius) { band[by * w + bx] = true }
                }
            }
        }
        return band
    }
}

/// Summary figures of one estimate against `DepthTruth`.
struct DepthScores: CustomStringConvertible {
    var validFraction = 0.0          // finite among the evaluated pixels
    var disparityMedian = Double.nan // |d - d_gt| (rectified px) over valid evaluated pixels
    var disparityOver1px = Double.nan
    var meanAbsRel = Double.nan      // |Z - Z_gt| / Z_gt over valid evaluated pixels
    var edgeMeanAbsRel = Double.nan
    var interiorMeanAbsRel = Double.nan
    var count = 0

    var description: String {
        String(format: "valid %.2f%% of %d, disparity error median %.4f px, >1px %.3f%%, mean abs rel %.3f%% (edge %.3f%%, interior %.3f%%)",
               100 * validFraction, count, disparityMedian, 100 * disparityOver1px, 100 * meanAbsRel,
               100 * edgeMeanAbsRel, 100 * interiorMeanAbsRel)
    }

    /// Scores `disparity`/`depth` (per output pixel) over the pixels where `include` holds.
    init(disparity: [Float], depth: [Float], truth: DepthTruth, include: [Bool], width: Int) {
        let band = truth.edgeBand(width: width)
        var errors: [Double] = []
        var rel = (sum: 0.0, n: 0), edge = (sum: 0.0, n: 0), interior = (sum: 0.0, n: 0)
        var valid = 0
        for i in include.indices where include[i] && truth.depth[i].isFinite {
            count += 1
            guard disparity[i].isFinite else { continue }
            valid += 1
            if truth.rectifiedDisparity[i].isFinite {
                errors.append(Double(abs(disparity[i] - truth.rectifiedDisparity[i])))
            }
            if depth[i].isFinite {
                let e = Double(abs(depth[i] - truth.depth[i]) / truth.depth[i])
                rel.sum += e; rel.n += 1
                if band[i] { edge.sum += e; edge.n += 1 } else { interior.sum += e; interior.n += 1 }
            }
        }
        validFraction = count > 0 ? Double(valid) / Double(count) : 0
        errors.sort()
        if !errors.isEmpty {
            disparityMedian = errors[errors.count / 2]
            disparityOver1px = Double(errors.filter { $0 > 1 }.count) / Double(errors.count)
        }
        meanAbsRel = rel.n > 0 ? rel.sum / Double(rel.n) : .nan
        edgeMeanAbsRel = edge.n > 0 ? edge.sum / Double(edge.n) : .nan
        interiorMeanAbsRel = interior.n > 0 ? interior.sum / Double(interior.n) : .nan
    }
}
