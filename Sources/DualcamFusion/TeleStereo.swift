import DualcamStereo
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging

/// Stereo for fusion computed on the fly from the wide/tele pair with
/// `DualcamStereo` (rectification, SGBM, consistency checks, subpixel
/// refinement), aligned to the wide camera on the fusion output grid (the
/// wide image resized to the output size: `OutputGrid.resampled`), in
/// unfiltered mode: measured values only (NaN elsewhere, including outside
/// the tele overlap) with their confidence, so fusion does its own filling.
/// The disparity search covers `depthRange` (`StereoDepthRange`: given, or
/// from the samples).
///
/// The matching runs on a grid `workingScale` times finer than the output
/// (at most the wide image's size) and its depth, confidence and predicted
/// noise are area-resized to the output (mean of the measured values under
/// each output pixel, `DepthMap.resized`): a match's error is a fraction of
/// its rectified grid's pixel, so matches on a finer grid are more precise
/// than matches on the output grid itself (docs/fusion.md, "Issue 19, the
/// grid round"). The predicted noise is the mean of the finer grid's, not
/// reduced for the averaging: conservative where it decides (`StereoTrust`).
public enum TeleStereo {
    /// Matching grid / output grid, per axis. What pays is the rectified
    /// grid's density (a match errs by a fraction of its pixel), which the
    /// stereo's automatic `matchDensity` doubles again above 320 px: at a
    /// 320x277 output 1.5 matches on a 960 px wide rectified grid and
    /// measured within 0.01-0.06 points of 2 (1280 px) on the fused map at
    /// less than half its time (`bench fuse-real`, docs/fusion.md, "Issue
    /// 19, the grid round", item 4).
    public static let workingScale = 1.5

    /// The matching grid for `outputSize`: `workingScale` times it, at most
    /// `wideSize`, with the output's aspect ratio.
    static func workingSize(outputSize: PixelSize, wideSize: PixelSize) -> PixelSize {
        let width = min(wideSize.width, Int((Double(outputSize.width) * workingScale).rounded()))
        guard width > outputSize.width else { return outputSize }
        let height = Int((Double(width) * Double(outputSize.height) / Double(outputSize.width)).rounded())
        return PixelSize(width: width, height: min(wideSize.height, height))
    }

    /// The stereo for fusion: its depth map, confidence, predicted relative
    /// depth noise (`StereoDepthResult.relativeDepthSigma`) and edge reach
    /// (`edgeReach`, in `map`'s pixels).
    public struct Output: Sendable {
        public let map: DepthMap
        public let confidence: [Float]
        public let relativeSigma: [Float]?
        public let edgeReachPixels: Double
    }

    /// How far a match can carry a surface past its depth edge (edge
    /// fattening), in output pixels: the block's radius (b - 1) / 2 in
    /// rectified pixels over the rectified pixels per output pixel,
    /// f_rectified / f_output. (Aloe: 2 / 3 at 320x277, 2 at native; the
    /// room at 1280x960, 1.)
    static func edgeReach(blockSize: Int, rectifiedFocal: Double, outputFocal: Double) -> Double {
        Double(blockSize - 1) / 2 / (rectifiedFocal / outputFocal)
    }

    public static func compute(rig: Rig, wide: Image, tele: Image, wideIntrinsics: Intrinsics? = nil,
                               outputSize: PixelSize, depthRange: StereoDepthRange) throws -> Output {
        var options = StereoDepthOptions()
        options.reference = .wide
        let working = workingSize(outputSize: outputSize, wideSize: PixelSize(width: wide.width, height: wide.height))
        options.outputSize = working
        options.filtered = false
        // Fusion weighs each value by its own predicted noise (`StereoTrust`).
        options.unfilteredRelativeDepthNoise = nil
        options.minDepthMetres = depthRange.minDepthMetres
        options.maxDepthMetres = depthRange.maxDepthMetres
        options.minDepthLabel = depthRange.minDepthLabel
        // The fusion grid is the wide image area-resized to the output size.
        options.outputGrid = .resampled
        let estimator = try StereoDepthEstimator(
            rig: rig, wideSize: PixelSize(width: wide.width, height: wide.height),
            teleSize: PixelSize(width: tele.width, height: tele.height), wideIntrinsics: wideIntrinsics, options: options)
        let result = try estimator.estimate(wide: wide, tele: tele)
        // Depth (not pixel disparity): Z along the wide axis differs from the
        // rectified camera's by a per-pixel factor, so 1/Z is what is affine.
        let map = try DepthMap(size: result.size, values: result.depthMetres, type: .depth, accuracy: .relative)
        let reach = edgeReach(blockSize: options.blockSize, rectifiedFocal: result.rectification.intrinsics.fx,
                              outputFocal: result.intrinsics.fx * Double(outputSize.width) / Double(result.size.width))
        guard result.size != outputSize else {
            return Output(map: map, confidence: result.confidence, relativeSigma: result.relativeDepthSigma, edgeReachPixels: reach)
        }
        func resized(_ values: [Float]) throws -> [Float] {
            try DepthMap(size: result.size, values: values, type: .disparity).resized(to: outputSize, method: .area).values
        }
        return Output(map: try map.resized(to: outputSize, method: .area),
                      confidence: try resized(result.confidence).map { $0.isFinite ? $0 : 0 },
                      relativeSigma: try resized(result.relativeDepthSigma), edgeReachPixels: reach)
    }
}
