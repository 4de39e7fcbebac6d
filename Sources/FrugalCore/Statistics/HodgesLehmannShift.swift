import Foundation

/// The Hodges–Lehmann estimate of the shift `head − base` and its distribution-free confidence
/// interval, found by inverting the Mann–Whitney U test (Hollander & Wolfe, *Nonparametric
/// Statistical Methods*, §4.3).
///
/// The estimate is the median of the n·m pairwise differences `headᵢ − baseⱼ`. With the
/// differences sorted, D₍₁₎ ≤ … ≤ D₍ₙₘ₎, the interval is [D₍ₖ₎, D₍ₙₘ₊₁₋ₖ₎], where k − 1 is the
/// largest c with P(U ≤ c) ≤ α/2 under the null distribution of U: exact (the same counts as
/// ``MannWhitneyUTest``'s exact p-value) up to ``MannWhitneyUTest/maximumExactSampleSize`` per
/// side, else the normal approximation. Its coverage is at least the nominal level for
/// continuous data; it needs no assumption about the shape of either sample, only that the two
/// differ by a shift, which is what an A/B of two builds asks.
///
/// Why beside the bootstrap interval of the median: with 5–10 repetitions a resampled median can
/// only be one of the observed values, so that interval is coarse; the pairwise differences use
/// every pair, and the interval's coverage is exact rather than asymptotic.
public struct HodgesLehmannShift: Codable, Sendable, Equatable {
    /// The median of the pairwise differences `head − base`.
    public let estimate: Double
    /// Lower bound of the interval.
    public let lower: Double
    /// Upper bound of the interval.
    public let upper: Double
    /// The nominal confidence, e.g. 0.95.
    public let confidence: Double
    /// The rank k of the order statistic that bounds the interval from below (1-based).
    public let rank: Int

    /// The shift of `head` against `base` with a `confidence` interval.
    ///
    /// - Returns: nil when the samples are too small for any interval at this confidence (the
    ///   most extreme ordering is not rare enough: 3 vs 3 at 95 %); "unknown", never a made-up
    ///   interval.
    /// - Throws: ``StatisticsError`` for an empty or non-finite sample or a confidence outside (0, 1).
    public init?(base: [Double], head: [Double], confidence: Double = 0.95) throws {
        try StatisticsInput.requireNonEmptyFinite(base, sample: "base")
        try StatisticsInput.requireNonEmptyFinite(head, sample: "head")
        try StatisticsInput.requireOpenUnitInterval(confidence, name: "confidence")
        var differences: [Double] = []
        differences.reserveCapacity(base.count * head.count)
        for h in head { for b in base { differences.append(h - b) } }
        differences.sort()
        guard let k = Self.lowerRank(firstCount: head.count, secondCount: base.count, alpha: 1 - confidence) else { return nil }
        self.estimate = SampleSummary.median(ofSorted: differences)
        self.lower = differences[k - 1]
        self.upper = differences[differences.count - k]
        self.confidence = confidence
        self.rank = k
    }

    /// Whether `value` lies in the closed interval.
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

    /// k: the 1-based rank of the interval's lower order statistic, or nil when even k = 1 does
    /// not reach the confidence (P(U = 0) > α/2).
    static func lowerRank(firstCount n: Int, secondCount m: Int, alpha: Double) -> Int? {
        let total = n * m
        guard total > 0 else { return nil }
        if n <= MannWhitneyUTest.maximumExactSampleSize, m <= MannWhitneyUTest.maximumExactSampleSize {
            let counts = MannWhitneyExactDistribution.counts(firstCount: n, secondCount: m)
            let all = counts.reduce(0, +)
            var cumulative = 0.0
            var c = -1
            for (u, count) in counts.enumerated() {
                cumulative += count
                if cumulative / all <= alpha / 2 { c = u } else { break }
            }
            guard c >= 0 else { return nil }
            return c + 1
        }
        // Normal approximation: c = n·m/2 − z₍α/2₎·√(n·m(n+m+1)/12), rounded down.
        let z = normalQuantile(1 - alpha / 2)
        let c = Double(total) / 2 - z * (Double(total) * Double(n + m + 1) / 12).squareRoot()
        let k = Int(c.rounded(.down))
        return k >= 1 ? min(k, (total + 1) / 2) : nil
    }

    /// Φ⁻¹(p) for 0.5 < p < 1, by bisection on `erfc` (only used for samples beyond the exact
    /// table, once per comparison; 60 halvings are well below Double's precision here).
    static func normalQuantile(_ p: Double) -> Double {
        var low = 0.0, high = 40.0
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if MannWhitneyUTest.normalSurvival(middle) > 1 - p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
