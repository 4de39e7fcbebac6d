/// The smallest change of a metric or audit value that counts as a regression, however
/// significant: below it, a change is reported as unchanged. docs/COMPARISON.md prints
/// this table.
public struct MinimumEffect: Codable, Sendable, Equatable {
    /// Minimum |Δ median| ÷ |base median|.
    public var relative: Double?
    /// Minimum |Δ median| in the value's unit.
    public var absolute: Double?
    /// Whether a regression of this value fails the comparison (exit 2). Values that mostly
    /// measure the machine rather than the code (wall time) are reported but do not fail it.
    public var gating: Bool
    /// Why these numbers.
    public var reason: String

    public init(relative: Double?, absolute: Double?, gating: Bool = true, reason: String) {
        self.relative = relative
        self.absolute = absolute
        self.gating = gating
        self.reason = reason
    }

    /// The policy for a value with this minimum effect.
    public func policy(base: ComparisonPolicy = .default) -> ComparisonPolicy {
        var policy = base
        policy.minRelativeChange = relative
        policy.minAbsoluteChange = absolute
        return policy
    }
}

/// Minimum effect sizes per metric and per audit.
public enum MinimumEffectTable {
    /// Per metric. Counts get a floor of a few events because a run's setup (exec, PAPI's RCU
    /// waits) varies by one or two.
    ///
    /// Timing metrics are compared and reported but do not gate: on a shared machine they
    /// measure its load as much as the code. Measured here: `launch.deferred` spins for 1.5 s of
    /// wall time, and its `cpu.timeSeconds` was 0.2–0.34 s in five runs while two compilers ran
    /// beside it and 0.88–1.3 s in five runs a minute later (the same build). The audits built
    /// on timing (`lifecycle.launch-time`, `main.no-long-blocks`) do gate, with a minimum effect
    /// tied to their control points, which such load does not reach.
    /// Declared with each metric (``MetricCatalogue``).
    public static let metrics: [String: MinimumEffect] = Dictionary(
        MetricCatalogue.all.compactMap { definition in definition.minimumEffect.map { (definition.name, $0) } },
        uniquingKeysWith: { first, _ in first })

    /// Measured here: 40 reports of the same build of `news.coalesced` (5 runs each, 30 s apart,
    /// while other builds came and went) had per-report medians of `cpu.wakeups` from 11 to 21
    /// and of `mainThread.wakeups` from 6 to 16; with a 5-wakeup floor, 52 of the 780 pairs
    /// "regressed". The floor is above that drift; checking ten times as often adds ~90.
    static let wakeupDrift = "50 % and 15 wakeups: whole reports of the same build drift by up to 10 on a shared machine"

    /// For metrics not in the table: reported with a 10 % threshold but never failing a build.
    /// A metric gates only once its noise on this kind of machine has been measured and its
    /// minimum effect written here; an uncalibrated 10 % over dozens of metrics (many of them
    /// timing) would fail builds on noise. The audits built on these metrics still gate.
    public static let defaultMetric = MinimumEffect(relative: 0.10, absolute: nil, gating: false,
                                                    reason: "no minimum effect calibrated yet: reported, never fails (its audits gate)")

    /// The minimum effect for metric `name`.
    public static func metric(_ name: String) -> MinimumEffect { metrics[name] ?? defaultMetric }

    /// The minimum effect for audit `id`'s numeric value: 20 %, and a fifth of the value that
    /// scores 0.9 (so a change that cannot move the score much never fails a build); for a
    /// pass/fail audit, half a unit (any change of a count). 20 % because run-to-run medians
    /// of 5 repetitions moved by up to 15 % on this shared machine with the same build
    /// (`news.polling`'s idle wakeup rate: medians 2.10, 2.40 and 2.30/s in three reports).
    public static func audit(_ id: String) -> MinimumEffect {
        switch RuleCatalogue.rule(id)?.scoring {
        case .logNormal(let good, _)?:
            return MinimumEffect(relative: 0.20, absolute: good / 5, reason: "20 % and a fifth of the 0.9 control point (\(DisplayFormat.number(good)))")
        case .binary?:
            return MinimumEffect(relative: nil, absolute: 0.5, reason: "any change of a pass/fail count")
        case nil:
            return MinimumEffect(relative: 0.10, absolute: nil, reason: "default: 10 %")
        }
    }
}
