import DualcamImaging

/// Planes for blank surfaces: the holes of a disparity map (row-major, NaN =
/// hole, at the output size) that no half-occlusion explains (`WideGaps`)
/// take the plane their measured border defines, instead of a row's fill
/// (whose ends may both be objects in front of the surface: streaks).
///
/// 1. Segments: the target pixels joined with their 4-neighbours of nearly
///    the same colour (`segmentTolerance`), so a blank wall and the ceiling
///    beyond its corner line part.
/// 2. Support: each measured pixel within `supportRadius` of a segment whose
///    own colour is within `supportTolerance` of the segment's mean colour:
///    the surface's own edges (a window on a wall's edge, measured on the
///    wall's side); an occluder in front has its own colour.
/// 3. A robust plane per segment (`SupportPlane.fit`), over the segment.
///
/// Written by hand: OpenCV segments by colour (floodFill, superpixels) but
/// has no robust plane fit per region of a mask.
struct BlankSurfaceFill {
    /// Neighbours join a segment when no channel of the blurred guide differs
    /// by more than this (grey levels): a blank surface's shading and noise
    /// change by far less between neighbours, an edge by more.
    static let segmentTolerance: Float = 3
    /// A measured pixel supports a segment when no channel of its colour is
    /// farther than this (grey levels) from the segment's mean: a few times
    /// the blank surface's own spread (shading across it, noise).
    static let supportTolerance: Float = 8
    /// Measured pixels this far (output px) from a segment may support it:
    /// about a matching window, where the measurements at its edge lie.
    static let supportRadius = 4

    let width: Int
    let height: Int
    /// The blurred guide: `channels` interleaved 8-bit values per pixel.
    let colour: [UInt8]
    let channels: Int

    /// The planes' values at the pixels of `target` (NaN elsewhere and in
    /// segments without a plane); `scale` is the fit's Cauchy scale
    /// (disparity px, about the measurements' noise).
    func fill(values: [Float], confidence: [Float], target: [Bool], scale: Double) -> [Float] {
        let n = width * height
        var out = [Float](repeating: .nan, count: n)
        let (labels, count) = segments(target: target)
        guard count > 0 else { return out }
        let planes = supports(values: values, confidence: confidence, labels: labels, count: count)
            .map { SupportPlane.fit($0, scale: scale) }
        for i in 0..<n where labels[i] >= 0 {
            if let p = planes[labels[i]] { out[i] = p.value(x: Double(i % width), y: Double(i / width)) }
        }
        return out
    }

    /// True when no channel of pixels i and j differs by more than `tolerance`.
    func similar(_ i: Int, _ j: Int, tolerance: Float) -> Bool {
        for c in 0..<channels where abs(Float(colour[i * channels + c]) - Float(colour[j * channels + c])) > tolerance { return false }
        return true
    }

    /// Segment labels 0..<count (-1 outside `target`), by union-find over
    /// 4-neighbours of similar colour.
    func segments(target: [Bool]) -> (labels: [Int], count: Int) {
        let n = width * height
        // Union-find over the target pixels only (compact indices).
        var index = [Int32](repeating: -1, count: n), pixels = [Int]()
        for i in 0..<n where target[i] { index[i] = Int32(pixels.count); pixels.append(i) }
        var parent = Array(0..<pixels.count)
        func find(_ i: Int) -> Int {
            var root = i
            while parent[root] != root { root = parent[root] }
            var j = i
            while parent[j] != root { (parent[j], j) = (root, parent[j]) }
            return root
        }
        func join(_ i: Int, _ j: Int) {
            guard index[j] >= 0, similar(i, j, tolerance: Self.segmentTolerance) else { return }
            let a = find(Int(index[i])), b = find(Int(index[j]))
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        for i in pixels {
            let x = i % width
            if x + 1 < width { join(i, i + 1) }
            if i + width < n { join(i, i + width) }
        }
        var labels = [Int](repeating: -1, count: n), rootLabel = [Int](repeating: -1, count: pixels.count), count = 0
        for (k, i) in pixels.enumerated() {
            let root = find(k)
            if rootLabel[root] < 0 { rootLabel[root] = count; count += 1 }
            labels[i] = rootLabel[root]
        }
        return (labels, count)
    }

    /// The supporting measurements of each segment (the type's step 2).
    func supports(values: [Float], confidence: [Float], labels: [Int], count: Int) -> [[SupportPlane.Point]] {
        let channels = channels, width = width, height = height
        // Mean colour per segment.
        var sums = [Float](repeating: 0, count: count * channels), sizes = [Float](repeating: 0, count: count)
        colour.withUnsafeBufferPointer { colour in
            for i in labels.indices where labels[i] >= 0 {
                sizes[labels[i]] += 1
                for c in 0..<channels { sums[labels[i] * channels + c] += Float(colour[i * channels + c]) }
            }
        }
        let means = sums.indices.map { sums[$0] / sizes[$0 / channels] }
        let near = MaskDilation.dilated(labels.map { $0 >= 0 }, width: width, height: height, radius: Self.supportRadius)
        let r = Self.supportRadius, tolerance = Self.supportTolerance
        var out = [[SupportPlane.Point]](repeating: [], count: count)
        // The last measured pixel that looked at each segment: one visit per
        // segment and pixel without a search.
        var lastVisitor = [Int](repeating: -1, count: count)
        labels.withUnsafeBufferPointer { labels in
            near.withUnsafeBufferPointer { near in
                values.withUnsafeBufferPointer { values in
                    confidence.withUnsafeBufferPointer { confidence in
                        colour.withUnsafeBufferPointer { colour in
                            means.withUnsafeBufferPointer { means in
                                lastVisitor.withUnsafeMutableBufferPointer { lastVisitor in
                                    for y in 0..<height {
                                        for x in 0..<width {
                                            let i = y * width + x
                                            guard near[i], values[i].isFinite, confidence[i] > 0 else { continue }
                                            for yy in max(0, y - r)...min(height - 1, y + r) {
                                                for xx in max(0, x - r)...min(width - 1, x + r) {
                                                    let l = labels[yy * width + xx]
                                                    guard l >= 0, lastVisitor[l] != i else { continue }
                                                    lastVisitor[l] = i
                                                    var close = true
                                                    for c in 0..<channels
                                                    where abs(Float(colour[i * channels + c]) - means[l * channels + c]) > tolerance {
                                                        close = false
                                                    }
                                                    if close {
                                                        out[l].append(.init(x: Double(x), y: Double(y), d: Double(values[i]),
                                                                            w: Double(confidence[i])))
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
