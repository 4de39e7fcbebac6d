/// A report against a baseline: per workload and scenario, every audit and metric compared over
/// the repetitions, and the regressions worst first.
public struct ReportComparison: Codable, Sendable, Equatable {
    /// Where the baseline came from (its path, as given).
    public var baseline: String
    /// The baseline report's `generatedAt`.
    public var baselineGeneratedAt: String
    /// Significance level and the other shared settings; each entry has its own effect sizes.
    public var alpha: Double
    public var minimumRepetitions: Int
    public var results: [WorkloadComparison]
    /// Gating regressions, worst first. Non-empty means the comparison fails (exit 2).
    public var regressions: [ComparisonEntry]
    /// Workload · scenario pairs in only one of the reports.
    public var unmatched: [String]
    /// Set when some values had too few repetitions to test: says so instead of "unchanged".
    public var insufficientRepetitions: String?
    /// Set when the baseline was measured on another machine: what differs.
    public var machineWarning: String?
    /// Gating values whose Hodges–Lehmann interval contains the practical threshold: too noisy
    /// to tell (never a failure; their own exit status). Nil in reports written before it.
    public var inconclusive: [ComparisonEntry]?
    /// The noise calibration the thresholds were widened by (`frugal calibrate`), when one was used.
    public var calibration: String?

    public init(baseline: String, baselineGeneratedAt: String, alpha: Double, minimumRepetitions: Int,
                results: [WorkloadComparison], regressions: [ComparisonEntry], unmatched: [String],
                insufficientRepetitions: String?) {
        self.baseline = baseline
        self.baselineGeneratedAt = baselineGeneratedAt
        self.alpha = alpha
        self.minimumRepetitions = minimumRepetitions
        self.results = results
        self.regressions = regressions
        self.unmatched = unmatched
        self.insufficientRepetitions = insufficientRepetitions
    }
}

/// One workload under one scenario in both reports.
public struct WorkloadComparison: Codable, Sendable, Equatable {
    public var workload: String
    public var scenario: String
    public var baseRepetitions: Int
    public var headRepetitions: Int
    public var baseScore: Double?
    public var headScore: Double?
    public var audits: [ComparisonEntry]
    public var metrics: [ComparisonEntry]

    public init(workload: String, scenario: String, baseRepetitions: Int, headRepetitions: Int, baseScore: Double?,
                headScore: Double?, audits: [ComparisonEntry], metrics: [ComparisonEntry]) {
        self.workload = workload
        self.scenario = scenario
        self.baseRepetitions = baseRepetitions
        self.headRepetitions = headRepetitions
        self.baseScore = baseScore
        self.headScore = headScore
        self.audits = audits
        self.metrics = metrics
    }
}

/// One audit's or metric's values in both reports, the change, and the verdict with its reason.
public struct ComparisonEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case audit, metric }
    public var kind: Kind
    public var workload: String
    public var scenario: String
    /// The audit id or metric name.
    public var name: String
    public var unit: String
    public var direction: MetricDirection
    public var base: SampleSummary?
    public var head: SampleSummary?
    /// Median score of the audit in each report (audits only).
    public var baseScore: Double?
    public var headScore: Double?
    /// head − base of the medians.
    public var absoluteChange: Double?
    /// absoluteChange ÷ |base median|; nil when the base median is 0.
    public var relativeChange: Double?
    /// Two-sided Mann–Whitney p-value; nil when the test could not run.
    public var pValue: Double?
    /// The test's method (`exact` or `normalApproximation`).
    public var test: String?
    /// Bootstrap interval of the median change.
    public var intervalLower: Double?
    public var intervalUpper: Double?
    public var minimumEffect: MinimumEffect
    public var verdict: RegressionVerdict
    public var reason: String
    /// The Hodges–Lehmann shift head − base and its 95 % interval (distribution-free, from the
    /// Mann–Whitney test's inversion); nil when not computed.
    public var shiftEstimate: Double?
    public var shiftLower: Double?
    public var shiftUpper: Double?
    /// The practical threshold the interval was held against (a magnitude, in the value's unit).
    public var threshold: Double?
    /// Which channel decided: an exact count, or the statistics (``GateChannel``).
    public var channel: GateChannel?
    /// When the threshold was widened to 3× the measured noise: the threshold as configured and
    /// the noise (``NoiseCalibration``).
    public var configuredThreshold: Double?
    public var noise: Double?

    public init(kind: Kind, workload: String, scenario: String, name: String, unit: String, comparison: MetricComparison,
                minimumEffect: MinimumEffect, baseScore: Double? = nil, headScore: Double? = nil) {
        self.kind = kind
        self.workload = workload
        self.scenario = scenario
        self.name = name
        self.unit = unit
        self.direction = comparison.direction
        self.base = comparison.base
        self.head = comparison.head
        self.baseScore = baseScore
        self.headScore = headScore
        self.absoluteChange = comparison.absoluteChange
        self.relativeChange = comparison.relativeChange
        self.pValue = comparison.pValue
        self.test = comparison.rankTest?.method.rawValue
        self.intervalLower = comparison.interval?.lower
        self.intervalUpper = comparison.interval?.upper
        self.minimumEffect = minimumEffect
        self.verdict = comparison.verdict
        self.reason = comparison.reason
        self.shiftEstimate = comparison.shift?.estimate
        self.shiftLower = comparison.shift?.lower
        self.shiftUpper = comparison.shift?.upper
        self.threshold = comparison.threshold
        self.channel = .statistics
    }

    /// How bad a regression is, for sorting worst first: the relative change (infinite from a
    /// zero base), then the absolute change.
    public var severity: (Double, Double) {
        let sign = direction == .lowerIsBetter ? 1.0 : -1.0
        let absolute = (absoluteChange ?? 0) * sign
        guard let relativeChange else { return (absolute > 0 ? .infinity : 0, absolute) }
        return (relativeChange * sign, absolute)
    }
}

/// How a value was judged. Counts before times: a counter that came out the same in every
/// repetition of both sides (a timer-driven app's wakeups, bytes written, write calls) is
/// compared exactly, with an absolute tolerance; everything else goes through the statistics.
public enum GateChannel: String, Codable, Sendable {
    /// A deterministic counter, compared exactly within its tolerance.
    case count
    /// Mann–Whitney U, the bootstrap and the Hodges–Lehmann interval against the threshold.
    case statistics
}

extension ComparisonEntry {
    /// The entry in one line: "name (workload · scenario): shift +x unit, 95% interval [l, u]",
    /// or the exact counts when it was judged as a count.
    public var oneLine: String {
        var text = "\(name) (\(workload) · \(scenario))"
        if channel == .count {
            text += ": exact count \(base.map { DisplayFormat.number($0.median) } ?? "–") → \(head.map { DisplayFormat.number($0.median) } ?? "–")"
        } else if let estimate = shiftEstimate, let lower = shiftLower, let upper = shiftUpper {
            let signed = { (value: Double) in (value >= 0 ? "+" : "") + DisplayFormat.number(value) }
            text += ": shift \(signed(estimate)) \(unit), 95% interval [\(signed(lower)), \(signed(upper))]"
        }
        return text
    }
}
