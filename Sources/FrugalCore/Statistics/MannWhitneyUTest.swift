import Foundation

/// Two-sided Mann–Whitney U (Wilcoxon rank-sum) test of two independent
/// samples.
///
/// It is used instead of a t-test because repetition timings are skewed and
/// outlier-prone, and with 3–10 repetitions normality cannot be checked. The
/// test only uses ranks, so one wild repetition counts as "largest", not as
/// "huge".
///
/// Conventions follow `scipy.stats.mannwhitneyu(first, second)`:
/// ``u`` is U₁ = R₁ − n₁(n₁+1)/2, the number of pairs (xᵢ, yⱼ) with
/// xᵢ > yⱼ plus half the pairs with xᵢ = yⱼ.
///
/// **Method.** ``Method/exact`` is used when neither sample has more than
/// ``maximumExactSampleSize`` values and the pooled sample has no ties (the
/// exact distribution assumes continuous data). Otherwise
/// ``Method/normalApproximation`` is used, with the tie correction of the
/// variance and a 0.5 continuity correction (SciPy's
/// `method="asymptotic", use_continuity=True`).
///
/// **Small samples.** The smallest two-sided p-value the exact test can
/// produce is 2 / C(n₁+n₂, n₁) (see ``smallestAchievablePValue(firstCount:secondCount:)``):
/// 0.1 for 3 vs 3, 0.029 for 4 vs 4, 0.0079 for 5 vs 5. With fewer than
/// 4–5 repetitions per side the test can never be significant at α = 0.05,
/// however large the change; callers should report "insufficient
/// repetitions" rather than "unchanged" in that case (``MetricComparison``
/// does).
public struct MannWhitneyUTest: Codable, Sendable, Equatable {
    /// How the p-value was computed.
    public enum Method: String, Codable, Sendable {
        /// Exact enumeration of the U distribution (no ties, small samples).
        case exact
        /// Normal approximation with tie and continuity corrections.
        case normalApproximation
    }

    /// Largest per-sample size for which the exact distribution is used.
    /// Beyond 20 per side the normal approximation is accurate to well below
    /// the precision that matters for a regression gate.
    public static let maximumExactSampleSize = 20

    /// Number of values in the first sample (n₁).
    public let firstCount: Int
    /// Number of values in the second sample (n₂).
    public let secondCount: Int
    /// U statistic of the first sample (SciPy's U₁). Large values mean the
    /// first sample tends to be larger than the second.
    public let u: Double
    /// Two-sided p-value, in (0, 1].
    public let pValue: Double
    /// Which computation produced ``pValue``.
    public let method: Method
    /// Continuity-corrected z-score, signed like U₁ − n₁n₂/2 (positive when the
    /// first sample tends to be larger); `nil` for the exact method.
    public let zScore: Double?
    /// Whether the pooled sample contains equal values.
    public let hasTies: Bool

    /// U statistic of the second sample: n₁n₂ − U₁.
    public var uSecond: Double { Double(firstCount * secondCount) - u }

    /// Runs the test on `first` and `second`.
    ///
    /// If every pooled value is identical the samples carry no evidence of a
    /// difference and the p-value is 1 (SciPy returns NaN there because the
    /// tie-corrected variance is zero).
    ///
    /// - Throws: ``StatisticsError`` if a sample is empty or holds NaN/infinity.
    public init(_ first: [Double], _ second: [Double]) throws {
        try StatisticsInput.requireNonEmptyFinite(first, sample: "first")
        try StatisticsInput.requireNonEmptyFinite(second, sample: "second")

        let n1 = first.count
        let n2 = second.count
        let ranking = Self.midranks(first + second)
        let rankSumFirst = ranking.ranks[0..<n1].reduce(0, +)
        let u1 = rankSumFirst - Double(n1 * (n1 + 1)) / 2

        self.firstCount = n1
        self.secondCount = n2
        self.u = u1
        self.hasTies = ranking.tieTerm > 0

        if !hasTies, n1 <= Self.maximumExactSampleSize, n2 <= Self.maximumExactSampleSize {
            self.method = .exact
            self.zScore = nil
            self.pValue = MannWhitneyExactDistribution.twoSidedPValue(u: u1, firstCount: n1, secondCount: n2)
            return
        }

        self.method = .normalApproximation
        let n = Double(n1 + n2)
        let product = Double(n1 * n2)
        let meanU = product / 2
        // Tie-corrected variance: n₁n₂/12 · ((n+1) − Σ(t³ − t) / (n(n−1))).
        let variance = product / 12 * ((n + 1) - ranking.tieTerm / (n * (n - 1)))
        guard variance > 0 else {
            // Only possible when all pooled values are equal.
            self.zScore = 0
            self.pValue = 1
            return
        }
        let deviation = u1 - meanU
        // Continuity correction shrinks |U − mean| by 0.5, never past zero.
        let corrected = Swift.max(abs(deviation) - 0.5, 0)
        let z = corrected / variance.squareRoot()
        self.zScore = deviation < 0 ? -z : z
        self.pValue = Swift.min(1, 2 * Self.normalSurvival(z))
    }

    /// Smallest two-sided p-value that the exact test can return for these
    /// sample sizes (complete separation): 2 / C(n₁+n₂, n₁), capped at 1.
    ///
    /// If this exceeds α, no outcome can be significant and the comparison is
    /// underpowered by design, not "unchanged".
    public static func smallestAchievablePValue(firstCount: Int, secondCount: Int) -> Double {
        guard firstCount > 0, secondCount > 0 else { return 1 }
        // C(a+b, a) as a running product; exact enough and overflow-free
        // (it only becomes +inf, which gives p = 0, for absurdly large a, b).
        let smaller = Swift.min(firstCount, secondCount)
        let total = firstCount + secondCount
        var binomial = 1.0
        for k in 0..<smaller {
            binomial = binomial * Double(total - k) / Double(k + 1)
        }
        return Swift.min(1, 2 / binomial)
    }

    /// Average ("mid") ranks, 1-based, in input order, plus Σ(t³ − t) over
    /// groups of t tied values (zero when there are no ties).
    static func midranks(_ values: [Double]) -> (ranks: [Double], tieTerm: Double) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieTerm = 0.0
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, values[order[end]] == values[order[start]] {
                end += 1
            }
            // Positions start..<end (0-based) share ranks start+1 ... end.
            let averageRank = Double(start + 1 + end) / 2
            for position in start..<end {
                ranks[order[position]] = averageRank
            }
            let t = Double(end - start)
            tieTerm += t * t * t - t
            start = end
        }
        return (ranks, tieTerm)
    }

    /// P(Z > z) for Z ~ N(0, 1), via `erfc` so that tiny p-values keep their
    /// relative precision (1 − Φ(z) would round to 0 beyond z ≈ 8).
    static func normalSurvival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }
}
