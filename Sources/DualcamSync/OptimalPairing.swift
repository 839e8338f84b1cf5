/// The tightest non-crossing pairing of two sorted timestamp lists.
///
/// A pairing matches indices of `first` and `second` such that every item is
/// used at most once, pairs never cross (i < k implies j < l for pairs (i, j),
/// (k, l)), and |first[i] - second[j]| <= maxSkew. Optimal means: the most
/// pairs, and among pairings with that many, the smallest total |skew|.
///
/// Dynamic programme over prefixes, O(n m) time and memory:
///   f(i, j) = best of f(i-1, j) (drop first[i-1]), f(i, j-1) (drop second[j-1]),
///             f(i-1, j-1) + pair(i-1, j-1) when the two are within maxSkew,
/// values compared as (pairs descending, total skew ascending). Ties are broken
/// by a fixed preference (pair, then drop first, then drop second) while
/// tracing back from (n, m), so the result depends only on the timestamps.
public enum OptimalPairing {
    struct Score: Equatable {
        var pairs: Int
        var skew: Int64
        func better(than other: Score) -> Bool {
            pairs != other.pairs ? pairs > other.pairs : skew < other.skew
        }
    }

    /// Index pairs (i, j) in increasing order.
    public static func pairs(first: [Int64], second: [Int64], maxSkewNs: Int64) -> [(Int, Int)] {
        let n = first.count, m = second.count
        if n == 0 || m == 0 { return [] }
        let width = m + 1
        var f = [Score](repeating: Score(pairs: 0, skew: 0), count: (n + 1) * width)
        func compatible(_ i: Int, _ j: Int) -> Bool { abs(first[i] - second[j]) <= maxSkewNs }
        for i in 0...n {
            for j in 0...m where i > 0 || j > 0 {
                var best = Score(pairs: -1, skew: 0)
                if i > 0 && j > 0 && compatible(i - 1, j - 1) {
                    let p = f[(i - 1) * width + j - 1]
                    best = Score(pairs: p.pairs + 1, skew: p.skew + abs(first[i - 1] - second[j - 1]))
                }
                if i > 0, f[(i - 1) * width + j].better(than: best) { best = f[(i - 1) * width + j] }
                if j > 0, f[i * width + j - 1].better(than: best) { best = f[i * width + j - 1] }
                f[i * width + j] = best
            }
        }
        var result: [(Int, Int)] = []
        var i = n, j = m
        while i > 0 && j > 0 {
            let here = f[i * width + j]
            if compatible(i - 1, j - 1) {
                let p = f[(i - 1) * width + j - 1]
                if Score(pairs: p.pairs + 1, skew: p.skew + abs(first[i - 1] - second[j - 1])) == here {
                    result.append((i - 1, j - 1))
                    i -= 1
                    j -= 1
                    continue
                }
            }
            if f[(i - 1) * width + j] == here { i -= 1 } else { j -= 1 }
        }
        return result.reversed()
    }
}
