import DualcamOpenCV
import DualcamDepthMap
import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// One depth estimate aligned to the reference camera at the output size.
public struct StereoDepthResult: Sendable {
    public let size: PixelSize
    public let reference: FrameName
    /// The reference intrinsics at the output size.
    public let intrinsics: Intrinsics
    public let filtered: Bool
    /// Rectified pixel disparity at the output pixels (row-major; NaN = no value).
    public let disparityPixels: [Float]
    /// The measured (unfiltered) rectified pixel disparity, NaN where a test failed.
    public let unfilteredDisparityPixels: [Float]
    /// Depth along the reference camera's optical axis, metres:
    /// Z = pixelsPerInverseMetre / d x depthFactor (see `ReferenceAlignment`); NaN = no value.
    public let depthMetres: [Float]
    /// Per-pixel confidence in [0, 1] of the measured values (0 where not measured).
    public let confidence: [Float]
    /// The refinement's Gauss-Newton prediction of each pixel's disparity
    /// sigma_d (rectified px at the output pixels, `DisparityNoise`,
    /// uncalibrated); NaN where not refined. Empty for the results of the
    /// OpenCV references (`estimateSGBMWLS`), which predict none.
    public var disparitySigmaPixels: [Float] = []
    /// Each measured value's predicted relative depth noise sigma_Z / Z =
    /// sigma_d / d (Z = f B / d: sigma_Z = Z^2 sigma_d / (f B)); NaN where not
    /// measured or not refined. Computed on use (only fusion needs it).
    public var relativeDepthSigma: [Float] {
        zip(disparitySigmaPixels, unfilteredDisparityPixels).map { s, d in d.isFinite && d > 0 ? s / d : .nan }
    }
    /// f B of the rectified pair.
    public let pixelsPerInverseMetre: Double
    /// Output pixels inside the overlap of both cameras, and their bounding box.
    public let coveredCount: Int
    public let coveredRegion: PixelRect?
    /// Matched pixels / covered pixels: the measurements that passed the
    /// matching's checks, before unfiltered mode's precision bound
    /// (`StereoDepthOptions.unfilteredRelativeDepthNoise`), so that the
    /// quality verdict is the same in both modes.
    public let validFraction: Double
    /// Pixels with an unfiltered value / covered pixels (unfiltered mode:
    /// what its precision bound and fattening test left of `validFraction`).
    public let unfilteredFraction: Double
    public let highQuality: Bool
    /// The rectified pair and the SGBM search used.
    public let rectification: StereoRectification
    public let disparitySearch: (min: Int, count: Int)
}

/// Stereo depth for a wide/tele (or same-lens) pair: rectify both images into
/// one common camera pair (`StereoRectification`, one remap pass per image),
/// match with SGBM in both directions, keep left-right consistent and unique
/// matches (speckles removed), refine them to subpixel precision, then map the
/// reference view's disparity into the reference camera at the output size
/// (`ReferenceAlignment`). Filtered mode fills holes with a confidence-weighted
/// fast global smoother guided by the reference colour image.
///
/// Built once per geometry (rig, buffer sizes, intrinsics, options); `estimate` may run for many pairs.
public struct StereoDepthEstimator: @unchecked Sendable {
    public let options: StereoDepthOptions
    public let rectification: StereoRectification
    public let reference: FrameName
    public let alignment: ReferenceAlignment
    public let search: (min: Int, count: Int)
    public let parameters: CVStereoParameters
    let wideTable: RectificationTable
    let teleTable: RectificationTable
    let refineMask: CVMat
    /// The output pixels inside the overlap (`alignment`), and as an 8-bit
    /// mask (255 = covered): the same for every pair.
    let covered: [Bool]
    let coveredMask: CVMat
    public let wideSize: PixelSize
    public let teleSize: PixelSize

    /// `wideIntrinsics`/`teleIntrinsics`: per-frame K at the buffer sizes (nil:
    /// the calibration's, scaled; the buffer must have the calibration's aspect ratio).
    public init(rig: Rig, wideSize: PixelSize, teleSize: PixelSize, wideIntrinsics: Intrinsics? = nil,
                teleIntrinsics: Intrinsics? = nil, options: StereoDepthOptions = StereoDepthOptions()) throws {
        try options.validate()
        self.options = options
        self.wideSize = wideSize
        self.teleSize = teleSize
        let wide = try Self.model(rig, .wide, size: wideSize, perFrame: wideIntrinsics)
        let tele = try Self.model(rig, .tele, size: teleSize, perFrame: teleIntrinsics)
        // A first pass at scale 1 decides the narrower camera and the automatic scale.
        let probe = try StereoRectification(rig: rig, wide: wide, tele: tele, scale: 1, margin: { _ in 0 })
        let reference = options.reference ?? probe.narrower
        guard reference == .wide || reference == .tele else {
            throw DualcamError.invalidValue(name: "--reference \(reference)", reason: "expected wide or tele")
        }
        self.reference = reference
        let refModel = reference == .wide ? wide : tele
        let outputSize = options.outputSize ?? refModel.size
        do { _ = try refModel.intrinsics.scaled(to: outputSize) } catch {
            throw DualcamError.invalidValue(
                name: "--size \(outputSize)", reason: "the \(reference) image is \(refModel.size); the depth must have its aspect ratio")
        }
        let scale = options.matchScale ?? {
            let matchWidth = options.matchGridWidth ?? outputSize.width
            let fOut = refModel.intrinsics.fx * Double(matchWidth) / Double(refModel.size.width)
            let density = options.matchDensity ?? StereoDepthOptions.automaticMatchDensity(
                outputWidth: matchWidth, referenceIsNarrower: reference == probe.narrower)
            return min(1, density * fOut / probe.intrinsics.fx)
        }()
        let minDepth = options.minDepthMetres
        rectification = try StereoRectification(rig: rig, wide: wide, tele: tele, scale: scale) { f in
            Int((f * probe.baselineMetres / minDepth).rounded(.up)) + Self.rectificationMarginPixels
        }
        search = try options.disparitySearch(pixelsPerInverseMetre: rectification.pixelsPerInverseMetre)
        parameters = options.stereoParameters(search: search, rectifiedWidth: rectification.size.width)
        let blurs = options.equalizesFootprints ? SamplingFootprint.cameraBlurs(for: rectification) : (wide: 0, tele: 0)
        wideTable = try RectificationTable(model: wide, rotation: rectification.wideRotation, rectified: rectification.intrinsics,
                                           footprintBlur: blurs.wide)
        teleTable = try RectificationTable(model: tele, rotation: rectification.teleRotation, rectified: rectification.intrinsics,
                                           footprintBlur: blurs.tele)
        alignment = try ReferenceAlignment(rectification: rectification, reference: reference, outputSize: outputSize,
                                           grid: options.outputGrid,
                                           otherValid: reference == .wide ? teleTable.valid : wideTable.valid)
        refineMask = try alignment.sampledMask(rectifiedSize: rectification.size)
        covered = alignment.rectifiedIndex.map { $0 >= 0 }
        coveredMask = try CVMat(rows: alignment.size.height, cols: alignment.size.width, channels: 1, depth: .uint8,
                                bytes: covered.map { $0 ? 255 : 0 })
    }

    /// The reference camera `options` leads to (the narrower camera when
    /// `options.reference` is nil), without building any table.
    public static func reference(rig: Rig, wideSize: PixelSize, teleSize: PixelSize, wideIntrinsics: Intrinsics? = nil,
                                 teleIntrinsics: Intrinsics? = nil, options: StereoDepthOptions) throws -> FrameName {
        if let r = options.reference { return r }
        let wide = try model(rig, .wide, size: wideSize, perFrame: wideIntrinsics)
        let tele = try model(rig, .tele, size: teleSize, perFrame: teleIntrinsics)
        return try StereoRectification(rig: rig, wide: wide, tele: tele, scale: 1, margin: { _ in 0 }).narrower
    }

    /// The calibration's camera model for a buffer of `size` (per-frame K if given, same distortion).
    static func model(_ rig: Rig, _ name: FrameName, size: PixelSize, perFrame: Intrinsics?) throws -> CameraModel {
        let calibrated = try rig.camera(name).model
        if let k = perFrame {
            guard k.referenceSize == size else {
                throw DualcamError.invalidValue(name: "\(name) per-frame intrinsics",
                                                reason: "given for \(k.referenceSize) but the image is \(size)")
            }
            return CameraModel(intrinsics: k, distortion: calibrated.distortion)
        }
        do { return try calibrated.scaled(to: size) } catch {
            throw DualcamError.invalidValue(
                name: "--\(name) image size \(size)",
                reason: "does not match the calibration's \(calibrated.size) aspect ratio (a crop is not a scale)")
        }
    }

    /// The rectified 8-bit grey pair (left, right) and their data masks.
    public func rectify(wide: Image, tele: Image) throws -> RectifiedPair {
        for (name, image, size) in [("wide", wide, wideSize), ("tele", tele, teleSize)]
            where image.width != size.width || image.height != size.height {
            throw DualcamError.invalidValue(name: "--\(name) image", reason: "is \(image.width)x\(image.height), expected \(size)")
        }
        // The two images are independent: both at once.
        let (w, t) = try StagePair.run({ try wideTable.apply(wide.greyCVMat()) }, { try teleTable.apply(tele.greyCVMat()) })
        let wideLeft = rectification.left == .wide
        return RectifiedPair(left: wideLeft ? w : t, right: wideLeft ? t : w,
                             leftValid: wideLeft ? wideTable.valid : teleTable.valid,
                             rightValid: wideLeft ? teleTable.valid : wideTable.valid,
                             referenceIsRight: rectification.right == reference)
    }

    /// Depth for one pair (buffers of the sizes given at init).
    public func estimate(wide: Image, tele: Image, temporal: TemporalSmoother? = nil) throws -> StereoDepthResult {
        let pair = try rectify(wide: wide, tele: tele)
        let matched = try CVStereo.match(left: pair.left, right: pair.right, leftValid: pair.leftValid,
                                         rightValid: pair.rightValid, parameters: parameters,
                                         referenceIsRight: pair.referenceIsRight, refineMask: refineMask,
                                         predictsNoise: true)
        let matchedDisparity = try options.periodicAmbiguity.map { try removingAmbiguous(matched.disparity, pair: pair, parameters: $0) }
            ?? matched.disparity
        // A measured disparity below the floor lies beyond --max-depth (or
        // behind infinity: a mismatch that passed the tests): no measurement.
        let floor = disparityFloor
        // Nor is a disparity within its own uncertainty of zero
        // (`resolvesDepth`, `DisparityNoise.boundsDepth`): its depth interval
        // reaches infinity.
        let sigma = matched.disparitySigma.map { alignment.sample($0) }
            ?? [Float](repeating: .nan, count: alignment.size.width * alignment.size.height)
        let measured = alignment.sample(matchedDisparity).mapPairs(sigma) { d, s in
            d < floor || !resolvesDepth(disparity: d) || !DisparityNoise.boundsDepth(disparity: d, sigma: s) ? .nan : d
        }
        let guide = reference == .wide ? wide : tele
        let unfiltered = options.filtered ? measured : try unfilteredModeValues(measured, sigma: sigma, guide: guide)
        let matchConfidence = alignment.sample(matched.confidence).mapPairs(unfiltered) { c, d in d.isNaN || c.isNaN ? 0 : c }
        let zone: [Bool]
        var values = unfiltered
        if options.filtered {
            (values, zone) = try filled(unfiltered, confidence: matchConfidence, guide: guide)
            if let temporal { values = temporal.smooth(values) }
        } else {
            (zone, _) = try edgeZone(unfiltered, forSnap: false)
        }
        // In the edge zone the window may straddle two surfaces: medium at best.
        let cap = options.edgeZoneConfidence
        let confidence = matchConfidence.mapPairs(zone) { c, z in z ? min(c, cap) : c }
        var out = result(values: values, unfiltered: unfiltered, confidence: confidence, filtered: options.filtered,
                         measured: measured)
        out.disparitySigmaPixels = sigma
        return out
    }

    /// `disparity` (the reference view's, rectified) without the matches a
    /// repeating pattern makes ambiguous (`PeriodicAmbiguity`).
    func removingAmbiguous(_ disparity: CVMat, pair: RectifiedPair, parameters: PeriodicAmbiguity.Parameters) throws -> CVMat {
        let size = rectification.size
        var values = disparity.floats()
        let reference = pair.referenceIsRight ? pair.right : pair.left, other = pair.referenceIsRight ? pair.left : pair.right
        let ambiguous = PeriodicAmbiguity.ambiguous(reference: reference.packedBytes(), other: other.packedBytes(),
                                                    width: size.width, height: size.height, disparity: values,
                                                    otherIsLeft: pair.referenceIsRight, search: search, parameters: parameters)
        guard ambiguous.contains(true) else { return disparity }
        for i in values.indices where ambiguous[i] { values[i] = .nan }
        return try CVMat.floats(values, width: size.width, height: size.height)
    }

    /// Unfiltered mode's values: of the `measured` ones (sigma: their
    /// predicted disparity sigma), only those precise to
    /// `unfilteredRelativeDepthNoise` (`DisparityNoise.isPrecise`), and none
    /// that a depth edge carried onto a blank surface (`ForegroundFattening`,
    /// with `guide` at the output and the edge zone's jump test). Filtered
    /// mode's fill weighs every measurement by its confidence instead.
    func unfilteredModeValues(_ measured: [Float], sigma: [Float], guide: Image) throws -> [Float] {
        var values = measured
        if let limit = options.unfilteredRelativeDepthNoise.map(Float.init) {
            values = zip(measured, sigma).map { d, s in
                DisparityNoise.isPrecise(disparity: d, sigma: s, relativeDepthNoise: limit) ? d : .nan
            }
        }
        guard options.unfilteredRemovesFattening, values.contains(where: { $0.isFinite }) else { return values }
        let size = alignment.size, image = try outputGuide(guide), p = edgeParameters
        return try ForegroundFattening.remove(values, width: size.width, height: size.height,
                                              colour: image.pixels(as: UInt8.self), channels: image.channels,
                                              occlusionSide: p.occlusionRight ? 1 : -1, jump: p.isJump)
    }

    /// The reference image as 8 bits at the output size (area-resized): the
    /// colour the fill and the fattening test compare.
    func outputGuide(_ guide: Image) throws -> Image {
        try ImageOps.resize(guide.eightBit(), width: alignment.size.width, height: alignment.size.height, interpolation: .area)
    }

    /// The edge snap's parameters at the output size.
    var edgeParameters: CVEdgeSnapParameters {
        var snap = options.edgeSnap ?? CVEdgeSnapParameters()
        snap.occlusionRight = rectification.right == reference
        snap.disparityScale = alignment.outputIntrinsics.fx / rectification.intrinsics.fx
        // The fit window covers the same share of the view at every output
        // size: `radius` is for the `edgeSnapReferenceWidth` photo width.
        snap.radius = min(Self.edgeSnapRadiusRange.upperBound, max(Self.edgeSnapRadiusRange.lowerBound,
            Int((Double(snap.radius) * Double(alignment.size.width) / Self.edgeSnapReferenceWidth).rounded())))
        return snap
    }

    /// The output pixels within the edge snap's margin of a jump of the
    /// measured disparity `measured` (`CVStereo.edgeZone`): there the
    /// matching window may straddle two surfaces, and the filtered mode
    /// replaces such measurements by the plane of their surface. With
    /// `forSnap` also the edges with their surface pieces, for the snap of
    /// the fill (`CVEdgeZone`); nil without it or when nothing was measured.
    func edgeZone(_ measured: [Float], forSnap: Bool) throws -> (zone: [Bool], edges: CVEdgeZone?) {
        let size = alignment.size
        guard measured.contains(where: { $0.isFinite }) else { return ([Bool](repeating: false, count: measured.count), nil) }
        let map = try CVMat.floats(measured, width: size.width, height: size.height)
        guard forSnap else { return (try CVStereo.edgeZone(measured: map, parameters: edgeParameters).nonzero(), nil) }
        let edges = try CVEdgeZone(measured: map, parameters: edgeParameters)
        return (edges.zone.nonzero(), edges)
    }

    /// Whether a measured disparity d (rectified px) bounds the depth: d
    /// exceeds the noise of a best match, `measuredTolerancePixels` (the
    /// tolerance of `ToleranceLimits.tolerance(measured:confidence:)` at confidence 1), so
    /// f B / (d - u) is finite. Without a tolerance every value does.
    /// (Dividing by the confidence as the tolerance does removed the office
    /// render's correct low-confidence measurements of its blank wall.)
    func resolvesDepth(disparity d: Float) -> Bool {
        guard let pixels = options.measuredTolerancePixels else { return true }
        return d > Float(pixels)
    }

    /// The smallest disparity kept, f B / max depth (`minimumDisparity` px
    /// without a maximum): smaller values are no measurement.
    var disparityFloor: Float {
        Float(max(options.maxDepthMetres.isInfinite ? 0 : rectification.pixelsPerInverseMetre / options.maxDepthMetres,
                  Self.minimumDisparity))
    }

    /// Rectified columns beyond the largest disparity on each side, so that
    /// matches the search reaches past it (its margin for calibration error,
    /// `StereoDepthOptions.disparitySearch`) stay inside the image.
    static let rectificationMarginPixels = 4
    /// The edge snap's `radius` is set for photo-size outputs
    /// (`DepthOutputSize.photoWidth`) and scales with the output width, within
    /// `edgeSnapRadiusRange` (a fit window of a few pixels has no surface to fit).
    static let edgeSnapReferenceWidth = Double(DepthOutputSize.photoWidth)
    static let edgeSnapRadiusRange = 8...32
    /// A measurement's tolerance divides by its confidence, at least this:
    /// a zero-confidence value may move anywhere, but the division stays finite.
    static let minimumToleranceConfidence: Float = 1e-3
    /// Disparities at or below this (pixels) are no measurement when no
    /// maximum depth bounds them: a match at infinity.
    static let minimumDisparity = 1e-6

    /// The result; `measured` (default: `unfiltered`) are the matches before
    /// unfiltered mode's precision bound, which the quality verdict counts.
    func result(values: [Float], unfiltered: [Float], confidence: [Float], filtered: Bool,
                measured: [Float]? = nil) -> StereoDepthResult {
        let fb = rectification.pixelsPerInverseMetre
        // Filtered values are convex combinations of measured ones, so they do not
        // fall below the floor; clamped all the same.
        let dFloor = Double(disparityFloor)
        let depth = values.mapPairs(alignment.depthFactor) { d, k -> Float in
            guard d.isFinite, k.isFinite else { return .nan }
            if d < Float(dFloor) { return filtered ? Float(fb / dFloor) * k : .nan }
            return Float(fb) / d * k
        }
        let covered = alignment.coveredCount
        let share = { (map: [Float]) in covered > 0 ? Double(map.lazy.filter { $0.isFinite }.count) / Double(covered) : 0 }
        let kept = share(unfiltered)
        let fraction = measured.map(share) ?? kept
        return StereoDepthResult(
            size: alignment.size, reference: reference, intrinsics: alignment.outputIntrinsics,
            filtered: filtered, disparityPixels: values, unfilteredDisparityPixels: unfiltered,
            depthMetres: depth, confidence: confidence, pixelsPerInverseMetre: fb, coveredCount: covered,
            coveredRegion: alignment.coveredRegion, validFraction: fraction, unfilteredFraction: kept,
            highQuality: fraction >= options.highQualityValidFraction, rectification: rectification,
            disparitySearch: search)
    }
}

/// A rectified grey pair with data masks (uint8, 255 = image data).
public struct RectifiedPair: @unchecked Sendable {
    public let left: CVMat
    public let right: CVMat
    public let leftValid: CVMat
    public let rightValid: CVMat
    public let referenceIsRight: Bool
}
