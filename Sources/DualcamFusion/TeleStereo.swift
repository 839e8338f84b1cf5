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
public enum TeleStereo {
    /// The stereo for fusion: its depth map, confidence and predicted relative
    /// depth noise (`StereoDepthResult.relativeDepthSigma`).
    public struct Output: Sendable {
        public let map: DepthMap
        public let confidence: [Float]
        public let relativeSigma: [Float]?
    }

    public static func compute(rig: Rig, wide: Image, tele: Image, wideIntrinsics: Intrinsics? = nil,
                               outputSize: PixelSize, depthRange: StereoDepthRange) throws -> Output {
        var options = StereoDepthOptions()
        options.reference = .wide
        options.outputSize = outputSize
        options.filtered = false
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
        return Output(map: map, confidence: result.confidence, relativeSigma: result.relativeDepthSigma)
    }
}
