import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging

/// Stereo for fusion computed on the fly from the wide/tele pair with
/// `DualcamStereo` (rectification, SGBM, consistency checks, subpixel
/// refinement), aligned to the wide camera on the fusion grid (the wide
/// image resized to that grid's size: `OutputGrid.resampled`), in
/// unfiltered mode: measured values only (NaN elsewhere, including outside
/// the tele overlap) with their confidence, so fusion does its own filling.
/// The disparity search covers `depthRange` (`StereoDepthRange`: given, or
/// from the samples).
///
/// The map is on the fusion grid (`fusionSize`: twice the output per axis,
/// at most the wide image's size), which `FusionRequest(teleStereo:)` fuses
/// on and reduces to the output by footprint medians: at the output grid an
/// area resize averages the stereo across the depth edges inside each output
/// pixel into depths neither surface has, and the fusion's edge-aware stages
/// see only mixed colours there (docs/fusion.md, "Issue 19: fusing on a
/// finer grid"). The rectified grid, where the matches are made, does not
/// depend on it: matches err by a fraction of their rectified pixel, and
/// what pays is that grid's density (`workingScale`, "Issue 19, the grid
/// round").
public enum TeleStereo {
    /// The matches' grid / output grid, per axis: the stereo's rectification
    /// is the one an output of that size gets (`StereoDepthOptions.matchGridWidth`:
    /// its automatic density, 2 rectified pixels per pixel above 320 px, at
    /// most the narrower camera's own focal). At a 320x277 output, 1.5 x 2
    /// matches on a 960 px wide rectified grid and measured within
    /// 0.01-0.06 points of 2 x 2 (1280 px) on the fused map at less than
    /// half its time (`bench fuse-real`, docs/fusion.md, "Issue 19, the grid
    /// round", item 4).
    public static let workingScale = 1.5

    /// `scale` times `outputSize` with the output's aspect ratio; the wide
    /// size itself when that is not wider; the output when it is at least
    /// the wide size.
    static func scaledSize(_ outputSize: PixelSize, by scale: Double, wideSize: PixelSize) -> PixelSize {
        let width = Int((Double(outputSize.width) * scale).rounded())
        guard width > outputSize.width, outputSize.width < wideSize.width else { return outputSize }
        guard width < wideSize.width else { return wideSize }
        let height = Int((Double(width) * Double(outputSize.height) / Double(outputSize.width)).rounded())
        return PixelSize(width: width, height: min(wideSize.height, height))
    }

    /// The grid the stereo map is made on and the fusion runs on:
    /// `FusionPipeline.maximumFusionScale` times the output per axis.
    public static func fusionSize(outputSize: PixelSize, wideSize: PixelSize) -> PixelSize {
        scaledSize(outputSize, by: FusionPipeline.maximumFusionScale, wideSize: wideSize)
    }

    /// The stereo for fusion on the fusion grid (`fusionSize`): its depth
    /// map, confidence and predicted relative depth noise
    /// (`StereoDepthResult.relativeDepthSigma`).
    public struct Output: Sendable {
        public let map: DepthMap
        public let confidence: [Float]
        public let relativeSigma: [Float]?
    }

    public static func compute(rig: Rig, wide: Image, tele: Image, wideIntrinsics: Intrinsics? = nil,
                               outputSize: PixelSize, depthRange: StereoDepthRange) throws -> Output {
        var options = StereoDepthOptions()
        options.reference = .wide
        let wideSize = PixelSize(width: wide.width, height: wide.height)
        // The map on the fusion grid, the rectification of the matching grid.
        options.outputSize = fusionSize(outputSize: outputSize, wideSize: wideSize)
        options.matchGridWidth = scaledSize(outputSize, by: workingScale, wideSize: wideSize).width
        options.filtered = false
        // Fusion weighs each value by its own predicted noise (`StereoTrust`).
        options.unfilteredRelativeDepthNoise = nil
        options.minDepthMetres = depthRange.minDepthMetres
        options.maxDepthMetres = depthRange.maxDepthMetres
        options.minDepthLabel = depthRange.minDepthLabel
        // The fusion grid is the wide image area-resized to its size.
        options.outputGrid = .resampled
        let estimator = try StereoDepthEstimator(
            rig: rig, wideSize: wideSize,
            teleSize: PixelSize(width: tele.width, height: tele.height), wideIntrinsics: wideIntrinsics, options: options)
        let result = try estimator.estimate(wide: wide, tele: tele)
        // Depth (not pixel disparity): Z along the wide axis differs from the
        // rectified camera's by a per-pixel factor, so 1/Z is what is affine.
        let map = try DepthMap(size: result.size, values: result.depthMetres, type: .depth, accuracy: .relative)
        return Output(map: map, confidence: result.confidence, relativeSigma: result.relativeDepthSigma)
    }
}
