/// The shape of a plane sweep's score curve: its peaks and how far they
/// stand out. Scores are NCC in [-1, 1]; -1 marks samples without enough
/// overlap, which never form peaks and are left out of the median.
///
/// A peak is a sample higher than its left neighbour and at least as high as
/// its right one (the first sample of a plateau; the ends of the curve count
/// when they beat their one neighbour). Its prominence is the usual
/// topographic one: its score minus the higher of the two lowest points
/// between it and the nearest higher sample on each side (the whole side when
/// there is none), so a ripple on the flank of a peak has a small prominence
/// while repeats of a regular pattern, separated by deep valleys, have large ones.
struct ScoreCurve {
    struct Peak: Equatable {
        var index: Int
        var score: Double
        var prominence: Double
    }

    let scores: [Double]

    init(_ scores: [Double]) { self.scores = scores }

    /// Peaks with prominence at least `minimumProminence`, highest first.
    func peaks(minimumProminence: Double) -> [Peak] {
        let s = scores, n = s.count
        var found: [Peak] = []
        for i in 0..<n where s[i] > -1 {
            let left = i > 0 ? s[i - 1] : -Double.infinity
            let right = i + 1 < n ? s[i + 1] : -Double.infinity
            guard s[i] > left, s[i] >= right else { continue }
            let key = max(lowestBefore(i, step: -1), lowestBefore(i, step: 1))
            let prominence = s[i] - key
            if prominence >= minimumProminence { found.append(Peak(index: i, score: s[i], prominence: prominence)) }
        }
        return found.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
    }

    /// The lowest valid score walking from `i` in direction `step` until a
    /// sample higher than `scores[i]` (exclusive) or the end; `scores[i]`
    /// when there is no valid sample on that side at all (an end of the curve).
    private func lowestBefore(_ i: Int, step: Int) -> Double {
        var j = i + step, lowest = scores[i]
        while j >= 0, j < scores.count, scores[j] <= scores[i] {
            if scores[j] > -1 { lowest = min(lowest, scores[j]) }
            j += step
        }
        return lowest
    }

    /// Median of the valid scores (nil when none).
    var median: Double? {
        let valid = scores.filter { $0 > -1 }.sorted()
        guard !valid.isEmpty else { return nil }
        let m = valid.count / 2
        return valid.count % 2 == 1 ? valid[m] : (valid[m - 1] + valid[m]) / 2
    }
}
