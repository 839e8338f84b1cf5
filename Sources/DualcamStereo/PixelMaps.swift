extension Array {
    /// `zip(self, other).map(transform)` for two arrays of one length (the
    /// pipeline's per-pixel maps), over raw buffers: the zipped iterators
    /// append element by element (docs/depth.md, the speed figures).
    @inline(__always)
    func mapPairs<Other, Result>(_ other: [Other], _ transform: (Element, Other) -> Result) -> [Result] {
        precondition(count == other.count, "mapPairs needs arrays of one length")
        return withUnsafeBufferPointer { a in
            other.withUnsafeBufferPointer { b in
                [Result](unsafeUninitializedCapacity: a.count) { out, initialized in
                    for i in 0..<a.count { (out.baseAddress! + i).initialize(to: transform(a[i], b[i])) }
                    initialized = a.count
                }
            }
        }
    }
}
