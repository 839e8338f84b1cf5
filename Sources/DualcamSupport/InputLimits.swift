/// dualcam's one limits policy: the largest sizes accepted from files and
/// flags, checked where a size enters (a flag, a file header, a manifest)
/// before anything of that size is allocated. Every refusal is a one-line
/// `DualcamError` that names the input, the value and the limit, so a user
/// knows what to change. The limits are above real use (a 48 MP phone
/// sensor, 8064x6048 = 48.8 Mpx, fits) and far below what would exhaust a
/// machine (docs/hardening.md, "Behaviour and limits", lists them).
public enum InputLimits {
    /// Longest image side, in pixels (images, depth maps, `--size` flags).
    public static let maxImageSidePixels = 16_384
    /// Largest image, in pixels (width x height), e.g. 8192x6104.
    public static let maxImagePixels = 50_000_000
    /// Shortest image side the stereo, fusion and convergence pipelines
    /// accept, in pixels (a block-matching window and a disparity search fit).
    public static let minPipelineSidePixels = 16
    /// Most sparse depth samples or point-cloud points in one file.
    public static let maxSamples = 10_000_000
    /// Most board views in a calibration suite or a synthetic board scene.
    public static let maxViews = 500
    /// Most pixels one synthetic dataset renders and holds (views x width x
    /// height; about 23 bytes each for both cameras' images and truth, so
    /// 80 M stays under 2 GB).
    public static let maxRenderedPixels = 80_000_000
    /// Most inner corners (chessboard) or squares (ChArUco) along one board side.
    public static let maxBoardSide = 100
    /// Largest input file read whole, in bytes (1 GiB: a 50 Mpx RGBA float image is 800 MB).
    public static let maxFileBytes = 1 << 30
    /// Most YAML nodes a document may expand to, counting every alias
    /// expansion (so a "billion laughs" file is refused after this many).
    public static let maxYAMLNodes = 100_000
    /// Deepest YAML nesting (mappings and sequences inside each other).
    public static let maxYAMLDepth = 64
    /// Most recordings one batch manifest lists (`dualcam batch`).
    public static let maxBatchRecordings = 10_000
    /// Most units of work one batch plan holds, and most tasks it is spread over.
    public static let maxBatchUnits = 1_000_000

    /// Why an image (or map) of `width` x `height` is refused, or nil when it
    /// is accepted: both sides positive, at most `maxImageSidePixels` each and
    /// `maxImagePixels` in all.
    public static func imageSizeProblem(width: Int, height: Int) -> String? {
        guard width > 0, height > 0 else { return "size \(width)x\(height) is empty; expected positive sides" }
        guard width <= maxImageSidePixels, height <= maxImageSidePixels else {
            return "size \(width)x\(height) exceeds the limit of \(maxImageSidePixels) pixels per side (InputLimits.maxImageSidePixels)"
        }
        guard width * height <= maxImagePixels else {
            return "size \(width)x\(height) exceeds the limit of \(maxImagePixels) pixels (InputLimits.maxImagePixels)"
        }
        return nil
    }

    /// Throws `imageSizeProblem` as an `.invalidValue` error naming `name`
    /// (the flag or file the size came from).
    public static func checkImageSize(width: Int, height: Int, name: String) throws {
        if let problem = imageSizeProblem(width: width, height: height) {
            throw DualcamError.invalidValue(name: name, reason: problem)
        }
    }

    /// `checkImageSize`, and both sides at least `minPipelineSidePixels`
    /// (for images and sizes that enter stereo, fusion or convergence).
    public static func checkPipelineSize(width: Int, height: Int, name: String) throws {
        try checkImageSize(width: width, height: height, name: name)
        guard width >= minPipelineSidePixels, height >= minPipelineSidePixels else {
            throw DualcamError.invalidValue(
                name: name, reason: "size \(width)x\(height) is too small; expected at least \(minPipelineSidePixels) pixels per side (InputLimits.minPipelineSidePixels)")
        }
    }

    /// Checks a count (samples, views, board side) against its `limit`;
    /// `what` names the count and the limit (e.g. "samples", "maxSamples").
    public static func checkCount(_ count: Int, limit: Int, limitName: String, what: String, name: String) throws {
        guard count <= limit else {
            throw DualcamError.invalidValue(name: name, reason: "\(count) \(what) exceed the limit of \(limit) (InputLimits.\(limitName))")
        }
    }

    /// A user-supplied number converted to an integer: finite, integral
    /// (within 1e-9 when `integral`), and in `range`; otherwise a one-line error
    /// naming `name` and the range. Never traps, unlike `Int(_: Double)`.
    public static func integer(_ value: Double, name: String, in range: ClosedRange<Int>, integral: Bool = true) throws -> Int {
        guard value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw DualcamError.invalidValue(name: name, reason: "expected an integer from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        guard !integral || value == value.rounded() else {
            throw DualcamError.invalidValue(name: name, reason: "expected an integer, got \(value)")
        }
        return Int(value)
    }
}
