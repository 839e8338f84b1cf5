import DualcamImaging
import DualcamSupport
import Foundation

/// Reads an image that enters the stereo, fusion or convergence pipeline:
/// besides the decoder's own checks, both sides must be at least
/// `InputLimits.minPipelineSidePixels` (a 1x1 image is "too small", not a
/// failure deep inside undistortion or matching). The error names the flag.
func readPipelineImage(_ path: String, flag: String) throws -> Image {
    let image = try ImageIO.read(URL(fileURLWithPath: path))
    try InputLimits.checkPipelineSize(width: image.width, height: image.height, name: "\(flag) \(path)")
    return image
}
