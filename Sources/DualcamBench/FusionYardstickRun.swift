import DualcamStereo
import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// One `dualcam fuse --tele` run (`FusionPipeline` with `TeleStereo`, the
/// depth range from the samples) on a `FusionYardstick` scene, and its
/// baselines computed in the same run, all scored by `DepthMetrics` against
/// the truth on the output grid:
/// - nearest-sample fill: every pixel takes the depth of the nearest sample
///   (4-connected flood from all samples, outliers included);
/// - aligned stereo: the stereo the fusion used (area-resized from its
///   fusion grid to the output) with the fusion's global
///   scale/shift, kept where it falls within the range the fusion keeps it
///   in (`FusionResult.stereoInverseRange`; its own pixels, the fused map
///   scored on the same pixels);
/// - aligned SGBM (rectified pairs): OpenCV's SGBM_3WAY as `OpenCVStereoBaseline`
///   runs it at the full size, searching the depths the samples span,
///   fitted to the samples by `ScaleShiftFitter` (1/z = s d + t), kept within
///   the same range, then area-resized to the output (its own pixels, likewise).
/// Outside that range an aligned value is a border or occlusion mismatch
/// (Aloe at 320x277: a handful of matches near zero disparity, at 1e5 m,
/// took the aligned stereo's AbsRel to 95 %).
/// Honesty: verified samples whose filtered output is more than 3 sample
/// noise sigmas (the scene's true noise) off the sample.
public struct FusionYardstickRun: Sendable {
    public var label: String
    public var outputSize: PixelSize
    public var fused: DepthErrorSplit
    public var nearest: DepthErrors
    /// The unfiltered map (high confidence only): its coverage and error.
    public var unfiltered: DepthErrors
    public var alignedStereo: DepthErrors?
    public var fusedOnStereo: DepthErrors?
    public var alignedSGBM: DepthErrors?
    public var fusedOnSGBM: DepthErrors?
    /// The baselines' depth maps on the output grid (metres, NaN = none).
    public var nearestDepth: [Float]
    public var alignedStereoDepth: [Float]?
    public var alignedSGBMDepth: [Float]?
    /// Verified samples, and those whose filtered output is off by more than 3 noise sigmas.
    public var verified: Int
    public var verifiedOffNoise: Int
    /// Stereo + fusion, wall clock.
    public var milliseconds: Double
    public var outcome: FusionOutcome
    public var truth: [Float]
}

extension FusionYardstick {
    /// Fuses the scene at `outputSize` with stereo from the pair (or samples
    /// alone) and scores it; `noise(z)`: the samples' true noise sigma.
    public func run(outputSize: PixelSize, stereo: Bool = true, noiseSigma: (Double) -> Double,
                    options: ((Double) -> DepthFusion.Options)? = nil) throws -> FusionYardstickRun {
        let start = DispatchTime.now().uptimeNanoseconds
        let wideIntrinsics = try rig.camera(.wide).model.intrinsics.scaled(to: wideSize)
        var stereoMap: TeleStereo.Output?
        if stereo {
            guard let range = StereoDepthRange.fromSamples(depthsMetres: samples.map(\.depth)) else {
                throw DualcamError.invalidValue(name: "samples", reason: "none usable")
            }
            stereoMap = try TeleStereo.compute(rig: rig, wide: wide, tele: tele, wideIntrinsics: wideIntrinsics,
                                               outputSize: outputSize, depthRange: range)
        }
        let request = stereoMap.map {
            FusionRequest(wide: wide, wideIntrinsics: wideIntrinsics, samples: depthSamples, teleStereo: $0, outputSize: outputSize)
        } ?? FusionRequest(wide: wide, wideIntrinsics: wideIntrinsics, samples: depthSamples, outputSize: outputSize)
        let outcome = try FusionPipeline.run(request, options: options)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let truth = self.truth(at: outputSize)
        let result = outcome.result
        let fused = try DepthMetrics.compareSplit(
            estimate: try DepthMap(size: outputSize, values: result.filteredDepth, type: .depth),
            truth: try DepthMap(size: outputSize, values: truth, type: .depth), bandRadius: 2)
        let unfiltered = try DepthMetrics.compare(estimateMetres: result.unfilteredDepth, truthMetres: truth, size: outputSize)
        let nearestDepth = nearestSampleFill(outputSize)
        let nearest = try DepthMetrics.compare(estimateMetres: nearestDepth, truthMetres: truth, size: outputSize)
        var alignedStereo: DepthErrors?, fusedOnStereo: DepthErrors?, alignedStereoDepth: [Float]?
        if let fine = stereoMap?.map, let fit = result.fit, let range = result.stereoInverseRange {
            // The stereo alone on the output grid: its map area-resized from the fusion grid.
            let map = fine.size == outputSize ? fine : try fine.resized(to: outputSize, method: .area)
            let aligned = map.values.map { z -> Float in
                let v = z.isFinite && z > 0 ? Float(fit.apply(Double(1 / z))) : .nan
                return range.contains(v) ? 1 / v : .nan
            }
            alignedStereoDepth = aligned
            alignedStereo = try DepthMetrics.compare(estimateMetres: aligned, truthMetres: truth, size: outputSize)
            fusedOnStereo = try DepthMetrics.compare(estimateMetres: result.filteredDepth, truthMetres: truth, size: outputSize,
                                                     mask: aligned.map(\.isFinite))
        }
        var alignedSGBM: DepthErrors?, fusedOnSGBM: DepthErrors?
        let sgbmDepth = try alignedSGBMDepth(outputSize: outputSize, within: result.stereoInverseRange)
        if let sgbm = sgbmDepth {
            alignedSGBM = try DepthMetrics.compare(estimateMetres: sgbm, truthMetres: truth, size: outputSize)
            fusedOnSGBM = try DepthMetrics.compare(estimateMetres: result.filteredDepth, truthMetres: truth, size: outputSize,
                                                   mask: sgbm.map(\.isFinite))
        }
        var verified = 0, off = 0
        for (s, verdict) in zip(result.samples, result.verdicts) where verdict == .verified {
            let x = min(outputSize.width - 1, max(0, Int(s.x.rounded()))), y = min(outputSize.height - 1, max(0, Int(s.y.rounded())))
            let z = Double(result.filteredDepth[y * outputSize.width + x])
            verified += 1
            if !(abs(z - s.depthMetres) <= 3 * noiseSigma(s.depthMetres)) { off += 1 }
        }
        return FusionYardstickRun(
            label: "\(name) \(outputSize)", outputSize: outputSize, fused: fused, nearest: nearest, unfiltered: unfiltered,
            alignedStereo: alignedStereo,
            fusedOnStereo: fusedOnStereo, alignedSGBM: alignedSGBM, fusedOnSGBM: fusedOnSGBM, nearestDepth: nearestDepth,
            alignedStereoDepth: alignedStereoDepth, alignedSGBMDepth: sgbmDepth, verified: verified,
            verifiedOffNoise: off, milliseconds: milliseconds, outcome: outcome, truth: truth)
    }

    /// Nearest-sample fill on the output grid (all samples, outliers included).
    public func nearestSampleFill(_ size: PixelSize) -> [Float] {
        let grid = PixelGridResampling(from: wideSize, to: size)
        let w = size.width, h = size.height
        var out = [Float](repeating: .nan, count: w * h)
        var queue: [Int] = []
        for s in samples {
            let q = grid.target(x: Double(s.x), y: Double(s.y))
            let p = min(h - 1, max(0, Int(q.y.rounded()))) * w + min(w - 1, max(0, Int(q.x.rounded())))
            if out[p].isNaN { out[p] = Float(s.depth); queue.append(p) }
        }
        var head = 0
        while head < queue.count {
            let p = queue[head]
            head += 1
            let x = p % w, y = p / w
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                let q = ny * w + nx
                if out[q].isNaN { out[q] = out[p]; queue.append(q) }
            }
        }
        return out
    }

    /// OpenCV SGBM_3WAY on a rectified pair, fitted to the samples, as depth
    /// on the output grid (NaN = no match, or 1/z outside `kept`); nil for other rigs.
    func alignedSGBMDepth(outputSize: PixelSize, within kept: ClosedRange<Float>? = nil) throws -> [Float]? {
        guard let geometry = rectified,
              let range = StereoDepthRange.fromSamples(depthsMetres: samples.map(\.depth)) else { return nil }
        let search = max(16, Int((geometry.disparityPixels(depthMetres: range.minDepthMetres) / 16).rounded(.up)) * 16)
        let disparity = try OpenCVStereoBaseline.sgbm.disparity(left: wide, right: tele, numDisparities: min(1024, search))
        let pairs = samples.map { s in
            InverseDepthPair(relative: Double(disparity[s.y * wideSize.width + s.x]), inverseDepth: 1 / s.depth, weight: 1)
        }
        let fit = try ScaleShiftFitter.fit(pairs, options: ScaleShiftFitter.Options())
        let depth = disparity.map { d -> Float in
            let v = d.isFinite ? Float(fit.apply(Double(d))) : .nan
            return v > 0 && kept?.contains(v) ?? true ? 1 / v : .nan
        }
        return try DepthMap(size: wideSize, values: depth, type: .depth).resized(to: outputSize, method: .area).values
    }
}
