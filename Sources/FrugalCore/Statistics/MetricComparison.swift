import Foundation

/// Outcome of comparing a metric between a baseline and a new run.
public enum RegressionVerdict: String, Codable, Sendable, CaseIterable {
    /// Significantly and materially worse in the metric's bad direction.
    case regressed
    /// Significantly and materially better.
    case improved
    /// No evidence of a material change: not significant, below the minimum
    /// effect size, or the bootstrap interval includes zero.
    case unchanged
    /// Too few repetitions for the test to ever reach significance; says
    /// nothing about whether the metric changed.
    case insufficientData
    /// Too noisy to tell at the practical threshold: the Hodges–Lehmann interval of the shift
    /// contains the minimum effect in the bad direction, so neither "regressed" nor "unchanged"
    /// would be honest. Never fails a gate (its own exit status, docs/COMPARISON.md).
    case inconclusive
}

/// Comparison of one metric between baseline (`base`) and new (`head`)
/// repetitions, with the evidence behind its ``verdict``.
///
/// The verdict is ``RegressionVerdict/regressed`` or
/// ``RegressionVerdict/improved`` only if the change is statistically
/// significant (two-sided Mann–Whitney p ≤ α), at least the policy's minimum
/// effect size, and the bootstrap interval of the median difference excludes
/// zero on the side of the observed change. Every gate is there to stop a
/// different kind of false alarm: the rank test against noise, the effect
/// size against significant-but-irrelevant drift, and the interval against
/// a p-value carried by ties or a lucky ordering.
///
/// All changes are head − base of the medians.
public struct MetricComparison: Codable, Sendable, Equatable {
    /// Which direction is better for this metric.
    public let direction: MetricDirection
    /// The thresholds used.
    public let policy: ComparisonPolicy
    /// Summary of the baseline repetitions; `nil` if there were none.
    public let base: SampleSummary?
    /// Summary of the new repetitions; `nil` if there were none.
    public let head: SampleSummary?
    /// `head.median − base.median`; `nil` if either sample is empty.
    public let absoluteChange: Double?
    /// ``absoluteChange`` / |`base.median`|; `nil` when the base median is 0
    /// (undefined) or a sample is empty.
    public let relativeChange: Double?
    /// Mann–Whitney test of head against base (its `u` counts head > base
    /// pairs); `nil` when the data are insufficient.
    public let rankTest: MannWhitneyUTest?
    /// Bootstrap interval of the median difference; `nil` when the data are
    /// insufficient.
    public let interval: BootstrapInterval?
    /// `rankTest.pValue <= policy.alpha`.
    public let isSignificant: Bool
    /// Whether |change| passes every configured minimum-effect gate (and is
    /// non-zero).
    public let exceedsMinimumEffect: Bool
    /// Whether the bootstrap interval lies entirely on the side of zero that
    /// the observed median change is on.
    public let intervalExcludesZero: Bool
    /// The decision.
    public let verdict: RegressionVerdict
    /// One-line, human-readable justification of ``verdict`` for CI logs.
    public let reason: String
    /// The Hodges–Lehmann shift `head − base` with its (1 − α) interval; nil when the data are
    /// insufficient or too few for an interval at that level.
    public let shift: HodgesLehmannShift?
    /// The practical threshold: the larger of the absolute and the relative minimum change
    /// (relative to |base median|), a magnitude; 0 when the policy sets none.
    public let threshold: Double?

    /// Two-sided Mann–Whitney p-value, if the test was run.
    public var pValue: Double? { rankTest?.pValue }

    /// Compares `head` against `base`.
    ///
    /// - Parameters:
    ///   - base: Baseline repetitions of the metric.
    ///   - head: New repetitions of the metric.
    ///   - direction: Which way is better.
    ///   - policy: Thresholds; ``ComparisonPolicy/default`` if omitted.
    /// - Throws: ``StatisticsError/nonFiniteValue(sample:index:value:)`` naming
    ///   the first NaN/infinite value (sample `"base"` or `"head"`), or
    ///   ``StatisticsError/invalidParameter(name:value:requirement:)`` for a
    ///   bad policy. Too few values is not an error but
    ///   ``RegressionVerdict/insufficientData``.
    public init(
        base baseValues: [Double],
        head headValues: [Double],
        direction: MetricDirection,
        policy: ComparisonPolicy = .default
    ) throws {
        try StatisticsInput.requireFinite(baseValues, sample: "base")
        try StatisticsInput.requireFinite(headValues, sample: "head")
        try policy.validate()

        self.direction = direction
        self.policy = policy
        let base = try SampleSummary(baseValues, sampleName: "base")
        let head = try SampleSummary(headValues, sampleName: "head")
        self.base = base
        self.head = head

        var change: Double?
        var relative: Double?
        if let base, let head {
            let delta = head.median - base.median
            change = delta
            relative = base.median == 0 ? nil : delta / abs(base.median)
        }
        self.absoluteChange = change
        self.relativeChange = relative
        let effect = Self.effectGate(change: change, relative: relative, policy: policy)
        self.exceedsMinimumEffect = effect.passes
        self.threshold = base.map { Self.practicalThreshold(baseMedian: $0.median, policy: policy) }

        if let shortage = Self.repetitionShortage(baseCount: baseValues.count, headCount: headValues.count, policy: policy) {
            self.rankTest = nil
            self.interval = nil
            self.isSignificant = false
            self.intervalExcludesZero = false
            self.verdict = .insufficientData
            self.reason = shortage
            self.shift = nil
            return
        }

        // Both samples are non-empty here: minimumRepetitions ≥ 1.
        let delta = change ?? 0
        let test = try MannWhitneyUTest(headValues, baseValues)
        let interval = try BootstrapInterval(
            base: baseValues,
            head: headValues,
            confidence: policy.effectiveBootstrapConfidence,
            resamples: policy.bootstrapResamples,
            seed: policy.bootstrapSeed)
        self.rankTest = test
        self.interval = interval
        self.isSignificant = test.pValue <= policy.alpha
        self.intervalExcludesZero = (delta > 0 && interval.lower > 0) || (delta < 0 && interval.upper < 0)

        let pText = "p = \(Self.format(test.pValue)) (\(test.method.rawValue))"
        let intervalText = "\(Self.format(interval.confidence * 100))% CI [\(Self.format(interval.lower)), \(Self.format(interval.upper))]"
        var verdict: RegressionVerdict
        var reason: String
        if !isSignificant {
            verdict = .unchanged
            reason = "not significant: \(pText) > α = \(Self.format(policy.alpha))"
        } else if !exceedsMinimumEffect {
            verdict = .unchanged
            reason = "below minimum effect: \(effect.description)"
        } else if !intervalExcludesZero {
            verdict = .unchanged
            reason = "bootstrap \(intervalText) of the median change does not exclude zero"
        } else {
            let isWorse = (delta > 0) == (direction == .lowerIsBetter)
            verdict = isWorse ? .regressed : .improved
            reason = "\(isWorse ? "worse" : "better"): \(Self.describeChange(delta, relative)), \(pText), \(intervalText)"
        }
        let shift = try HodgesLehmannShift(base: baseValues, head: headValues, confidence: 1 - policy.alpha)
        self.shift = shift
        (verdict, reason) = Self.threeWay(verdict, reason, shift: shift, threshold: threshold ?? 0, direction: direction)
        self.verdict = verdict
        self.reason = reason
    }

    /// The practical threshold for a base median: max(absolute, relative × |median|).
    public static func practicalThreshold(baseMedian: Double, policy: ComparisonPolicy) -> Double {
        max(policy.minAbsoluteChange ?? 0, (policy.minRelativeChange ?? 0) * abs(baseMedian))
    }

    /// The three answers: a verdict of the rank test and the bootstrap, checked against the
    /// Hodges–Lehmann interval and the practical threshold T in the bad direction. An interval
    /// that contains T is inconclusive whatever the point estimate says (a gate never fails on
    /// it, and "unchanged" would claim more than the data show); "regressed" needs the whole
    /// interval beyond T. With no threshold (T = 0) every change counts and the verdict stands.
    static func threeWay(_ verdict: RegressionVerdict, _ reason: String, shift: HodgesLehmannShift?, threshold: Double,
                         direction: MetricDirection) -> (RegressionVerdict, String) {
        guard let shift, threshold > 0 else { return (verdict, reason) }
        let bad = direction == .lowerIsBetter ? threshold : -threshold
        let shiftText = "Hodges–Lehmann shift \(signed(shift.estimate)), \(format(shift.confidence * 100))% interval "
            + "[\(signed(shift.lower)), \(signed(shift.upper))]"
        let beyond = direction == .lowerIsBetter ? shift.lower > bad : shift.upper < bad
        switch verdict {
        case .improved, .insufficientData, .inconclusive:
            return (verdict, reason)
        case .regressed where beyond:
            return (.regressed, reason + "; \(shiftText) beyond the threshold \(signed(bad))")
        case .regressed, .unchanged:
            if shift.contains(bad) {
                return (.inconclusive, "inconclusive: \(shiftText) contains the practical threshold \(signed(bad))")
            }
            if verdict == .unchanged, beyond {
                // The rank test or the bootstrap did not confirm what the interval shows.
                return (.inconclusive, "inconclusive: \(shiftText) lies beyond the threshold \(signed(bad)), but \(reason)")
            }
            // The whole interval is on the good side of the threshold.
            return (.unchanged, verdict == .unchanged ? reason + "; \(shiftText) within the threshold \(signed(bad))"
                    : "below the practical threshold: \(shiftText) within \(signed(bad))")
        }
    }

    private static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + format(value) }

    /// Reason for ``RegressionVerdict/insufficientData``, or `nil` if the
    /// sample sizes allow a meaningful test.
    private static func repetitionShortage(baseCount: Int, headCount: Int, policy: ComparisonPolicy) -> String? {
        if !policy.repetitionsSuffice(base: baseCount, head: headCount) {
            return "insufficient repetitions: base has \(baseCount), head has \(headCount); need \(policy.repetitionRule)"
        }
        // Even with a lowered minimum, refuse sizes whose most extreme
        // possible outcome cannot reach α: "unchanged" would be a lie.
        let floor = MannWhitneyUTest.smallestAchievablePValue(firstCount: headCount, secondCount: baseCount)
        if floor > policy.alpha {
            return "insufficient repetitions: with \(baseCount) vs \(headCount) the smallest possible p-value is "
                + "\(format(floor)) > α = \(format(policy.alpha))"
        }
        return nil
    }

    /// Applies the minimum-effect gates; `description` explains the outcome.
    private static func effectGate(
        change: Double?, relative: Double?, policy: ComparisonPolicy
    ) -> (passes: Bool, description: String) {
        guard let change else { return (false, "no change can be computed") }
        let changeText = describeChange(change, relative)
        if change == 0 {
            return (false, "median change is zero")
        }
        if let minAbsolute = policy.minAbsoluteChange, abs(change) < minAbsolute {
            return (false, "\(changeText) is under the minimum absolute change \(format(minAbsolute))")
        }
        // A zero base median leaves `relative` nil: the change is infinitely
        // large relative to 0, so the relative gate passes (see the policy).
        if let minRelative = policy.minRelativeChange, let relative, abs(relative) < minRelative {
            return (false, "\(changeText) is under the minimum relative change \(format(minRelative * 100))%")
        }
        return (true, changeText)
    }

    private static func describeChange(_ change: Double, _ relative: Double?) -> String {
        let absolute = "median Δ = \(change >= 0 ? "+" : "")\(format(change))"
        guard let relative else { return absolute + " (relative change undefined: base median is 0)" }
        return absolute + " (" + String(format: "%+.2f%%", relative * 100) + ")"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.4g", value)
    }
}
