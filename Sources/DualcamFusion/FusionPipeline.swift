import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// `dualcam fuse` without the command line: the wide image, samples in wide
/// pixels and an optional stereo map aligned to wide, reduced to the output
/// grid and fused (`DepthFusion`).
public struct FusionRequest: Sendable {
    public var wide: Image
    /// The wide camera's intrinsics at the wide image's size.
    public var wideIntrinsics: Intrinsics
    public var samples: [DepthSample]
    /// Stereo aligned to the wide image (any type: depth, disparity or pixels;
    /// its scale and offset are fitted), at the wide size or the same aspect.
    public var stereo: DepthMap?
    public var stereoConfidence: [Float]?
    /// The stereo's predicted relative depth noise (`FusionInput.stereoRelativeSigma`), at the stereo's size.
    public var stereoRelativeSigma: [Float]?
    public var outputSize: PixelSize
    /// The grid the fusion runs on when finer than the output (the wide
    /// image's aspect, at most `FusionPipeline.maximumFusionScale` times the
    /// output per axis and at most the wide size: `FusionPipeline.fusionGrid`),
    /// or nil for the output grid. The result is
    /// reduced to the output by footprint medians (`FusionGridReduction`).
    /// `fuse --tele` fuses on `TeleStereo.fusionSize`.
    public var fusionSize: PixelSize?

    public init(wide: Image, wideIntrinsics: Intrinsics, samples: [DepthSample], stereo: DepthMap? = nil,
                stereoConfidence: [Float]? = nil, stereoRelativeSigma: [Float]? = nil,
                outputSize: PixelSize, fusionSize: PixelSize? = nil) {
        self.wide = wide
        self.wideIntrinsics = wideIntrinsics
        self.samples = samples
        self.stereo = stereo
        self.stereoConfidence = stereoConfidence
        self.stereoRelativeSigma = stereoRelativeSigma
        self.outputSize = outputSize
        self.fusionSize = fusionSize
    }

    /// Fuses with `TeleStereo`'s output (its map, confidence and noise) on its grid.
    public init(wide: Image, wideIntrinsics: Intrinsics, samples: [DepthSample], teleStereo: TeleStereo.Output,
                outputSize: PixelSize) {
        self.init(wide: wide, wideIntrinsics: wideIntrinsics, samples: samples, stereo: teleStereo.map,
                  stereoConfidence: teleStereo.confidence, stereoRelativeSigma: teleStereo.relativeSigma,
                  outputSize: outputSize, fusionSize: teleStereo.map.size)
    }
}

public struct FusionOutcome: Sendable {
    public var result: FusionResult
    /// The output-size intrinsics.
    public var intrinsics: Intrinsics
    /// Milliseconds spent resampling the inputs to the fusion grid.
    public var prepareMilliseconds: Double

    /// A fused map is of high quality when at least this fraction of its
    /// pixels has high confidence (are backed by consistent samples).
    static let highQualityFraction = 0.1

    /// The fused map (metres, accuracy absolute), filtered or unfiltered.
    public func depthMap(filtered: Bool) throws -> DepthMap {
        let values = filtered ? result.filteredDepth : result.unfilteredDepth
        let highFraction = Double(result.confidence.lazy.filter { $0 == .high }.count) / Double(max(1, values.count))
        return try DepthMap(size: result.size, values: values, type: .depth, accuracy: .absolute, isFiltered: filtered,
                            quality: highFraction >= Self.highQualityFraction ? .high : .low, intrinsics: intrinsics, referenceCamera: "wide")
    }

    /// Confidence as values in [0, 1]: low 0, medium 0.5, high 1 (levels 0/1/2 in `ConfidenceMap`).
    public var confidenceMap: ConfidenceMap {
        get throws {
            try ConfidenceMap(size: result.size, values: result.confidence.map { Float($0.rawValue) / 2 })
        }
    }
}

public enum FusionPipeline {
    /// The largest fusion grid per axis, in output pixels (`FusionRequest.fusionSize`).
    public static let maximumFusionScale = 2.0

    /// The grid the fusion runs on: the request's `fusionSize` when it is
    /// finer than the output, else the output. Both are the wide image
    /// resized, so the fusion size must have the wide image's aspect (within
    /// a pixel, as `--size` allows), be at most its size, and be finer than
    /// the output by at most `maximumFusionScale` per axis (a pixel more in
    /// height for the rounding of the two aspects).
    static func fusionGrid(_ request: FusionRequest, wideSize: PixelSize) throws -> PixelSize {
        let out = request.outputSize
        guard let fine = request.fusionSize, fine != out else { return out }
        let scale = maximumFusionScale
        guard fine.width > out.width, fine.height >= out.height, Double(fine.width) <= scale * Double(out.width),
              Double(fine.height) <= scale * Double(out.height) + 1, fine.width <= wideSize.width, fine.height <= wideSize.height,
              DepthOutputSize.hasAspect(of: wideSize, fine) else {
            throw DualcamError.invalidValue(
                name: "fusion size \(fine)",
                reason: "expected the wide image \(wideSize)'s aspect, at most its size, and finer than the output \(out) by at most \(scale)x")
        }
        return fine
    }

    public static func run(_ request: FusionRequest, options: ((Double) -> DepthFusion.Options)? = nil) throws -> FusionOutcome {
        var clock = Stopwatch()
        let wideSize = PixelSize(width: request.wide.width, height: request.wide.height)
        let out = try fusionGrid(request, wideSize: wideSize)
        // The fusion grid is the wide image resized (area) to its size, so
        // samples move and K changes as that grid does:
        // x_out = (x_wide + 0.5) W_out / W_wide - 0.5 (`PixelGridResampling`).
        let intrinsics = try request.wideIntrinsics.resampled(to: out)
        let grid = PixelGridResampling(from: wideSize, to: out)
        let samples = try SampleMerging.onePerPixel(request.samples.map { s -> MetricSample in
            let p = grid.target(x: s.x, y: s.y)
            return MetricSample(x: p.x, y: p.y, depthMetres: s.depthMetres, confidence: s.confidence ?? 1)
        }, size: out)
        var rgb = request.wide.element == .uint8 ? request.wide : request.wide.converted(to: .uint8)
        if rgb.channels == 1 {
            let g = try rgb.pixels(as: UInt8.self)
            rgb = try Image(width: rgb.width, height: rgb.height, channels: 3, pixels: g.flatMap { [$0, $0, $0] })
        } else if rgb.channels == 4 {
            let p = try rgb.pixels(as: UInt8.self)
            var q = [UInt8](repeating: 0, count: p.count / 4 * 3)
            for i in 0..<(p.count / 4) {
                q[3 * i] = p[4 * i]
                q[3 * i + 1] = p[4 * i + 1]
                q[3 * i + 2] = p[4 * i + 2]
            }
            rgb = try Image(width: rgb.width, height: rgb.height, channels: 3, pixels: q)
        }
        let guide = wideSize == out ? rgb : try ImageOps.resize(rgb, width: out.width, height: out.height, interpolation: .area)
        var stereo: [Float]?
        var stereoConfidence: [Float]?, stereoSigma: [Float]?
        if let map = request.stereo {
            guard DepthOutputSize.hasAspect(of: wideSize, map.size) else {
                throw DualcamError.invalidValue(name: "stereo", reason: "is \(map.size) but the wide image is \(wideSize); expected the same aspect ratio")
            }
            let resized = map.size == out ? map : try map.resized(to: out, method: .area)
            stereo = resized.values.map { v in
                guard v.isFinite, v > 0 else { return .nan }
                return map.type == .depth ? 1 / v : v
            }
            if let c = request.stereoConfidence {
                let cm = try DepthMap(size: map.size, values: c, type: .disparity)
                stereoConfidence = map.size == out ? c : try cm.resized(to: out, method: .area).values.map { $0.isFinite ? $0 : 0 }
            }
            if let s = request.stereoRelativeSigma {
                stereoSigma = map.size == out ? s : try DepthMap(size: map.size, values: s, type: .disparity).resized(to: out, method: .area).values
            }
        }
        let prepare = clock.lap()
        let focal = (intrinsics.fx + intrinsics.fy) / 2
        var fusionOptions = options?(focal) ?? DepthFusion.Options(focalPixels: focal)
        if out != request.outputSize {
            let ratio = Double(out.width) / Double(request.outputSize.width)
            // The local planes' radius bounds are output pixels: at the cap
            // (sparse samples, a 24x24 grid on Aloe) a plane on the finer
            // grid would span half the scene it does at the output. The
            // other pixel constants stay in the fusion grid's pixels: scaled
            // too, they measured worse (docs/fusion.md, "Issue 19: fusing
            // on a finer grid"); the reduction decides confidence again in
            // output pixels.
            fusionOptions.localPlanes = fusionOptions.localPlanes?.scaled(by: ratio)
        }
        let input = FusionInput(size: out, guideRGB: guide.bytes, samples: samples, stereo: stereo, stereoConfidence: stereoConfidence,
                                stereoRelativeSigma: stereoSigma)
        let fused = try DepthFusion.fuse(input, options: fusionOptions)
        guard out != request.outputSize else {
            return FusionOutcome(result: fused, intrinsics: intrinsics, prepareMilliseconds: prepare)
        }
        return FusionOutcome(result: FusionGridReduction.reduce(fused, to: request.outputSize, options: fusionOptions),
                             intrinsics: try request.wideIntrinsics.resampled(to: request.outputSize), prepareMilliseconds: prepare)
    }
}
