/// The contract between a filtered depth or disparity map and the unfiltered
/// one of the same pair (docs/depth.md): filtered mode keeps what was
/// measured. Returns the share of high-confidence measured pixels (finite
/// unfiltered value > 0, confidence >= `highConfidence`) whose filtered value
/// differs from the measurement by more than `relative` of it, and how many
/// such pixels there are. Values may be depths or disparities: a relative
/// difference is (nearly) the same in both.
public func filteredContractViolations(filtered: [Float], unfiltered: [Float], confidence: [Float],
                                       highConfidence: Float = 0.7, relative: Float = 0.01) -> (fraction: Double, count: Int) {
    precondition(filtered.count == unfiltered.count && confidence.count == unfiltered.count, "maps of one size")
    var high = 0, moved = 0
    for i in unfiltered.indices {
        let m = unfiltered[i]
        guard m.isFinite, m > 0, confidence[i] >= highConfidence else { continue }
        high += 1
        if !(abs(filtered[i] - m) <= relative * m) { moved += 1 }
    }
    return (high > 0 ? Double(moved) / Double(high) : 0, high)
}
