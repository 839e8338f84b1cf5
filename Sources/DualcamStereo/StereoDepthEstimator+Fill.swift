import DualcamDepthMap
import DualcamOpenCV
import DualcamImaging

/// Filtered mode's fill (`StereoDepthEstimator.estimate`).
extension StereoDepthEstimator {
    /// Filtered mode's values for the measured `values` with confidences
    /// `confidence` and the reference image `guide`, with the edge zone of
    /// `values` (`edgeZone`) the fill snaps in.
    func filled(_ values: [Float], confidence: [Float], guide image: Image) throws -> (values: [Float], zone: [Bool]) {
        // Nothing to fill from.
        guard values.contains(where: { $0.isFinite }) else { return (values, try edgeZone(values, forSnap: false).zone) }
        let guide = try fillGuide(image)
        // The fill's first stages and the edge zone are independent of each
        // other: the blank surfaces' planes (the longest) on one core, the
        // edge zone, the holes' pre-fill and the strips on the other.
        let (blank, (zoneAndEdges, holes)) = try StagePair.run(
            { try blankSurfaces(values, confidence: confidence, covered: covered, guide: guide.mat, channels: guide.channels) },
            { (try edgeZone(values, forSnap: options.edgeSnap != nil), holesAndStrips(values, guide: guide)) })
        let (zone, edges) = zoneAndEdges
        let start = fillStart(confidence: confidence, holes: holes, blank: blank)
        let out = try fill(values, confidence: confidence, start: start, guide: guide, edgeZone: zone, edges: edges)
        return (out, zone)
    }

    /// The reference image at the output as the fill compares it
    /// (`outputGuide`), as an OpenCV matrix, with its channel count.
    struct FillGuide {
        let mat: CVMat
        let channels: Int

        /// The guide's grey levels, the mean of its channels, row-major: the
        /// sums of 8-bit values are exact, so the order of the additions does
        /// not matter. Read in place, row by row.
        func grey() -> [Float] {
            let c = channels
            precondition(mat.elementSize == c, "an 8-bit guide of \(c) channels")
            let w = mat.cols, h = mat.rows, step = mat.step, n = Float(c)
            return [Float](unsafeUninitializedCapacity: w * h) { grey, count in
                mat.withUnsafeBytes { bytes in
                    for y in 0..<h {
                        let row = y * step, out = y * w
                        for x in 0..<w {
                            var sum: Float = 0
                            for k in 0..<c { sum += Float(bytes[row + c * x + k]) }
                            grey[out + x] = sum / n
                        }
                    }
                }
                count = w * h
            }
        }
    }

    /// The fill's guide for the reference image `guide` (see `FillGuide`).
    func fillGuide(_ guide: Image) throws -> FillGuide {
        let image = try outputGuide(guide)
        return FillGuide(mat: try image.makeCVMat(), channels: image.channels)
    }

    /// The fill's stages before its smoother that do not need the edge zone
    /// (`fill(_:confidence:start:guide:edgeZone:edges:)`): the holes'
    /// pre-fill, the blank surfaces' planes and the half-occluded strips.
    struct FillStart {
        /// The pre-filled values and the smoother's weights.
        let values: [Float]
        let weights: [Float]
        /// The planes of the blank surfaces (NaN elsewhere).
        let blank: [Float]
        /// The half-occluded strips (`WideGaps.halfOcclusions`), which end
        /// at the farther surface.
        let strips: WideGaps.Strips
    }

    /// The holes' background pre-fill (`HoleFilling.backgroundFill`): the
    /// values and which of them were filled.
    typealias PreFill = (values: [Float], filled: [Bool])

    /// The holes' pre-fill and their half-occluded strips (`holesAndStrips`).
    typealias HolesAndStrips = (pre: PreFill, strips: WideGaps.Strips)

    /// The holes' pre-fill of `values` and their half-occluded strips, with
    /// the fill's guide `guide`: holes (mostly half-occlusions beside
    /// foreground objects) first take the background value (`fillStart`
    /// gives them a small weight, so the smoother does not mix foreground
    /// into them).
    func holesAndStrips(_ values: [Float], guide: FillGuide) -> HolesAndStrips {
        let pre = HoleFilling.backgroundFill(values, width: alignment.size.width, keep: covered)
        let gaps = gapGeometry
        let strips = WideGaps.halfOcclusions(values, width: alignment.size.width, keep: covered, scale: gaps.scale,
                                             margin: gaps.margin, occlusionRight: edgeParameters.occlusionRight,
                                             grey: guide.grey())
        return (pre, strips)
    }

    /// The first stages of the fill (see `FillStart`) from the
    /// holes' pre-fill and strips `holes` (`holesAndStrips`) and the blank
    /// surfaces' planes `blank` (`blankSurfaces`): gaps too wide for a
    /// half-occlusion (blank surfaces) take the plane their measured border
    /// defines, before the confidence-weighted smoother and as the final
    /// value (`BlankSurfaceFill`).
    func fillStart(confidence: [Float], holes: HolesAndStrips, blank: [Float]) -> FillStart {
        var pre = holes.pre
        for i in blank.indices where blank[i].isFinite { pre.values[i] = blank[i] }
        let weights = confidence.mapPairs(pre.filled) { $1 ? Self.backgroundFillWeight : $0 }
        return FillStart(values: pre.values, weights: weights, blank: blank, strips: holes.strips)
    }

    /// The confidence-weighted, reference-guided fill of `values` (rectified
    /// pixel disparity at the output), from its first stages `start`
    /// (`fillStart`) and its guide `guide` (`fillGuide`). Outside
    /// `edgeZone` a measured value moves by at most its `tolerance`; in it
    /// the smoother and the edge snap (to `edges`, the edges of `values`) decide.
    func fill(_ values: [Float], confidence: [Float], start: FillStart, guide: FillGuide, edgeZone zone: [Bool],
              edges: CVEdgeZone?) throws -> [Float] {
        let size = alignment.size
        let blank = start.blank
        let smoothed = try CVEdgeAware.confidenceFill(
            values: .floats(start.values, width: size.width, height: size.height),
            confidence: .floats(start.weights, width: size.width, height: size.height),
            guide: guide.mat, lambda: options.fillLambda, sigmaColor: options.fillSigmaColor,
            minimumWeight: Self.minimumFillWeight).floats()
        // Measured values m are kept in proportion to their confidence c (a
        // confident match is not pulled towards its neighbours across a depth
        // edge): v = c m + (1 - c) s. With `fillResidualPixels` tau set, the
        // smoothed value s also replaces measured noise around a smooth
        // surface: v = s + c min(1, ((m - s) / tau)^2) (m - s).
        // Outside the overlap stays NaN; anything the smoother could not reach
        // takes its nearest value.
        // Either way a measured value outside the edge zone moves by at most its tolerance.
        let tau = options.fillResidualPixels.map { Float($0) }
        let limit = toleranceLimits
        var inside = smoothed
        inside.withUnsafeMutableBufferPointer { inside in
            values.withUnsafeBufferPointer { values in
                confidence.withUnsafeBufferPointer { confidence in
                    covered.withUnsafeBufferPointer { covered in
                        zone.withUnsafeBufferPointer { zone in
                            for i in 0..<inside.count {
                                if !covered[i] { inside[i] = .nan; continue }
                                let m = values[i], s = inside[i], c = min(max(confidence[i], 0), 1)
                                guard m.isFinite, s.isFinite else { continue }
                                let gate = tau.map { min(1, ((m - s) / $0) * ((m - s) / $0)) } ?? 1
                                let blended = s + c * gate * (m - s)
                                if zone[i] { inside[i] = blended; continue }
                                let u = limit.tolerance(measured: m, confidence: c)
                                inside[i] = min(max(blended, m - u), m + u)
                            }
                        }
                    }
                }
            }
        }
        let dense = HoleFilling.nearestFill(inside, width: size.width, keep: covered)
        var out = dense
        if options.edgeSnap != nil, let edges {
            // At the depth discontinuities of the measurements the smoother still
            // mixes the two surfaces (and fills half-occlusions from both sides):
            // there each pixel takes the plane of the surface it belongs to.
            let snapped = try edges.snap(
                confidence: .floats(confidence, width: size.width, height: size.height),
                filled: .floats(dense, width: size.width, height: size.height), covered: coveredMask).floats()
            out = snapped.mapPairs(covered) { $1 ? $0 : .nan }
        }
        // Nothing is filled beyond the measured range: the snap's and the
        // blank surfaces' planes extrapolate, and a plane running towards
        // zero disparity would put a fill kilometres away.
        var low = Float.infinity, high = -Float.infinity
        values.withUnsafeBufferPointer { values in
            for v in values where v.isFinite { low = min(low, v); high = max(high, v) }
        }
        let far = start.strips.far, near = start.strips.near
        out.withUnsafeMutableBufferPointer { out in
            blank.withUnsafeBufferPointer { blank in
                for i in 0..<out.count {
                    // A blank surface keeps its plane: the snap's planes come from the
                    // measurements beyond a jump, which a blank surface has none of.
                    if blank[i].isFinite { out[i] = blank[i] }
                    // A half-occluded pixel shows the farther surface: left nearer
                    // to the nearer surface than to it (the smoother and the snap
                    // mixed the foreground in), it takes the farther end's value.
                    if far[i].isFinite, out[i].isFinite, out[i] - far[i] > 0.5 * (near[i] - far[i]) {
                        out[i] = far[i]
                    }
                    if low <= high, out[i].isFinite { out[i] = min(max(out[i], low), high) }
                }
            }
        }
        return out
    }

    /// The planes of the blank surfaces of `values` (`WideGaps`,
    /// `BlankSurfaceFill`), NaN elsewhere.
    func blankSurfaces(_ values: [Float], confidence: [Float], covered: [Bool], guide: CVMat, channels: Int) throws -> [Float] {
        let size = alignment.size
        let gaps = gapGeometry
        let wide = WideGaps.mask(values, width: size.width, keep: covered, scale: gaps.scale, margin: gaps.margin)
        guard wide.contains(true) else { return [Float](repeating: .nan, count: values.count) }
        let blurred = try CVImgproc.gaussianBlur(guide, sigma: Self.blankSurfaceGuideSigma)
        let surfaces = BlankSurfaceFill(width: size.width, height: size.height, colour: blurred.packedBytes(),
                                        channels: channels)
        return surfaces.fill(values: values, confidence: confidence, target: wide,
                             scale: options.measuredTolerancePixels ?? Self.blankSurfaceFitScale)
    }

    /// `WideGaps`' scale (output px per rectified px of disparity) and margin
    /// (output px): a half-occlusion's margin is a matching window on each
    /// side of it.
    var gapGeometry: (scale: Float, margin: Float) {
        let scale = Float(edgeParameters.disparityScale)
        return (scale, Float(2 * parameters.refineRadius) * scale)
    }

    /// How far the filtered value of a measured pixel may move from its
    /// measurement (`tolerance(measured:confidence:)`), with the options'
    /// settings read once for a whole map.
    struct ToleranceLimits {
        /// `measuredTolerancePixels`; nil = no tolerance.
        let pixels: Float?
        /// `highConfidenceTolerance`.
        let highConfidence: Float

        /// For measurement m with confidence c: `measuredTolerancePixels` / c
        /// rectified pixels, and at most `highConfidenceTolerance` x m for a
        /// high-confidence measurement (c >= `ConfidenceMap.highThreshold`):
        /// filtered mode keeps what was measured, within its uncertainty,
        /// and fills and smooths only where nothing reliable was measured.
        @inline(__always)
        func tolerance(measured m: Float, confidence c: Float) -> Float {
            guard let pixels else { return .infinity }
            let u = pixels / max(c, StereoDepthEstimator.minimumToleranceConfidence)
            return c >= ConfidenceMap.highThreshold ? min(u, highConfidence * abs(m)) : u
        }
    }

    var toleranceLimits: ToleranceLimits {
        ToleranceLimits(pixels: options.measuredTolerancePixels.map { Float($0) },
                        highConfidence: Float(options.highConfidenceTolerance))
    }

    /// Holes pre-filled with the background value enter the smoother with
    /// this weight: enough to keep foreground out, little against any measurement.
    static let backgroundFillWeight: Float = 0.05
    /// The guide is blurred by this sigma (px) before segmenting blank
    /// surfaces: its noise, not its edges, goes.
    static let blankSurfaceGuideSigma = 1.0
    /// The blank surfaces' plane fit uses the measurements' tolerance as its
    /// scale, or this (px, about 2 sigma of the refinement's noise) without one.
    static let blankSurfaceFitScale = 0.1
    /// Where the smoother's normalizing weight is below this, nothing
    /// reached the pixel: NaN, for the nearest-value fill.
    static let minimumFillWeight = 1e-6
}
