import Foundation

/// Which way a metric should move to be an improvement.
public enum MetricDirection: String, Codable, Sendable, CaseIterable {
    /// Smaller is better: time, energy, memory, instructions.
    case lowerIsBetter
    /// Larger is better: throughput, operations per joule.
    case higherIsBetter
}

/// Thresholds that decide when a difference between a baseline and a new run
/// is reported as a regression or an improvement.
///
/// A change is flagged only if it passes **all** gates, so that CI does not
/// cry wolf on noise:
/// 1. each side has at least ``minimumRepetitions`` values, or one fewer on a
///    side against another large enough to be as robust
///    (``repetitionsSuffice(base:head:)``), and the rank test can reach
///    ``alpha`` at those sample sizes;
/// 2. the Mann–Whitney p-value is ≤ ``alpha``;
/// 3. the median change is at least ``minRelativeChange`` and at least
///    ``minAbsoluteChange`` (each gate only if set);
/// 4. the bootstrap interval of the median difference excludes zero.
public struct ComparisonPolicy: Codable, Sendable, Equatable {
    /// Default significance level.
    public static let defaultAlpha = 0.05
    /// Default minimum relative change of the median (5 %): run-to-run drift
    /// on shared CI runners is commonly a few percent even when nothing
    /// changed, and smaller changes are rarely actionable.
    public static let defaultMinRelativeChange = 0.05
    /// Default minimum repetitions per side (5).
    ///
    /// Why 5: with the exact rank test, 3 vs 3 can never go below p = 0.1,
    /// and 4 vs 4 reaches α = 0.05 only with complete separation
    /// (p = 2/70 ≈ 0.029; one swapped pair gives 0.057), so a single noisy
    /// repetition decides the verdict. 5 vs 5 bottoms out at 2/252 ≈ 0.0079
    /// and stays significant with up to two swapped pairs (U ≤ 2, p ≈ 0.032).
    public static let defaultMinimumRepetitions = 5

    /// Significance level for the two-sided Mann–Whitney test, in (0, 1).
    public var alpha: Double
    /// Minimum |Δmedian| / |base median| (e.g. 0.10 for 10 %); `nil` disables
    /// the relative gate. When the base median is 0 the relative change is
    /// undefined (any non-zero change is infinitely large relative to 0), so
    /// this gate passes for any non-zero change and ``minAbsoluteChange`` is
    /// what limits the effect size.
    public var minRelativeChange: Double?
    /// Minimum |Δmedian| in the metric's own unit (e.g. 0.5 ms); `nil`
    /// disables the absolute gate. Useful for tiny metrics where a large
    /// relative change is still below measurement resolution.
    public var minAbsoluteChange: Double?
    /// Fewer values than this on either side yields
    /// ``RegressionVerdict/insufficientData``.
    public var minimumRepetitions: Int
    /// Confidence level of the bootstrap interval; `nil` means 1 − ``alpha``
    /// so that both tests work at the same error rate.
    public var bootstrapConfidence: Double?
    /// Number of bootstrap rounds.
    public var bootstrapResamples: Int
    /// Seed of the bootstrap generator; fixed by default so that the same
    /// reports always give the same verdict.
    public var bootstrapSeed: UInt64

    /// Creates a policy; every parameter has the documented default.
    public init(
        alpha: Double = ComparisonPolicy.defaultAlpha,
        minRelativeChange: Double? = ComparisonPolicy.defaultMinRelativeChange,
        minAbsoluteChange: Double? = nil,
        minimumRepetitions: Int = ComparisonPolicy.defaultMinimumRepetitions,
        bootstrapConfidence: Double? = nil,
        bootstrapResamples: Int = BootstrapInterval.defaultResamples,
        bootstrapSeed: UInt64 = BootstrapInterval.defaultSeed
    ) {
        self.alpha = alpha
        self.minRelativeChange = minRelativeChange
        self.minAbsoluteChange = minAbsoluteChange
        self.minimumRepetitions = minimumRepetitions
        self.bootstrapConfidence = bootstrapConfidence
        self.bootstrapResamples = bootstrapResamples
        self.bootstrapSeed = bootstrapSeed
    }

    /// The default policy: α = 0.05, ≥ 5 % median change, ≥ 5 repetitions
    /// per side, 95 % bootstrap interval from 2000 resamples.
    public static let `default` = ComparisonPolicy()

    /// Whether `base` and `head` values are enough to compare. Both sides at
    /// ``minimumRepetitions`` always are. One fewer on a side (never less) is
    /// enough when the other side is large enough that the exact rank test stays
    /// significant at ``alpha`` with two swapped pairs (U ≤ 2: two-sided
    /// p = 2 · 4 / C(n + m, n)), as 5 against 5 does (p ≈ 0.032): 4 against 6
    /// (0.038) or 4 against a baseline of 10 (0.008), not 4 against 5 (0.063).
    /// The test's power follows n·m/(n + m): 2.9 for 4 against 10, 2.5 for 5
    /// against 5. So CI can run 4 repetitions against a stored baseline of 10
    /// (scripts/check-regressions.sh), a fifth fewer runs at no loss of power.
    public func repetitionsSuffice(base: Int, head: Int) -> Bool {
        if base >= minimumRepetitions && head >= minimumRepetitions { return true }
        let smaller = Swift.min(base, head), larger = Swift.max(base, head)
        guard smaller >= Swift.max(2, minimumRepetitions - 1) else { return false }
        return Self.twoSwappedPairsPValue(smaller, larger) <= alpha
    }

    /// The exact two-sided Mann–Whitney p-value of U ≤ 2 for samples of `n` and
    /// `m` (both ≥ 2): 4 of the C(n + m, n) equally likely orderings have U ≤ 2
    /// (U = 0, U = 1, and the two ways to make U = 2), doubled.
    static func twoSwappedPairsPValue(_ n: Int, _ m: Int) -> Double {
        Swift.min(1, 4 * MannWhitneyUTest.smallestAchievablePValue(firstCount: n, secondCount: m))
    }

    /// What ``repetitionsSuffice(base:head:)`` asks, in words for reports.
    public var repetitionRule: String {
        "at least \(minimumRepetitions) repetitions per side, or \(Swift.max(2, minimumRepetitions - 1)) against enough that two swapped pairs stay significant"
    }

    /// The bootstrap confidence actually used.
    public var effectiveBootstrapConfidence: Double { bootstrapConfidence ?? 1 - alpha }

    /// Throws ``StatisticsError/invalidParameter(name:value:requirement:)``
    /// for the first out-of-range setting.
    public func validate() throws {
        try StatisticsInput.requireOpenUnitInterval(alpha, name: "alpha")
        try StatisticsInput.requireOpenUnitInterval(effectiveBootstrapConfidence, name: "bootstrapConfidence")
        for (name, value) in [("minRelativeChange", minRelativeChange), ("minAbsoluteChange", minAbsoluteChange)] {
            if let value, !(value.isFinite && value >= 0) {
                throw StatisticsError.invalidParameter(name: name, value: value, requirement: "must be finite and ≥ 0")
            }
        }
        guard minimumRepetitions >= 1 else {
            throw StatisticsError.invalidParameter(
                name: "minimumRepetitions", value: Double(minimumRepetitions), requirement: "must be at least 1")
        }
        guard bootstrapResamples >= 1 else {
            throw StatisticsError.invalidParameter(
                name: "bootstrapResamples", value: Double(bootstrapResamples), requirement: "must be at least 1")
        }
    }
}
