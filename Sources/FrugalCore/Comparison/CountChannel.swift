/// Counts before times: the counters that a program's code fixes (how often a timer-driven app
/// wakes, how many bytes and write calls it makes, how many requests it sends) are compared
/// exactly when they came out the same in every repetition of both sides. A deterministic
/// counter that moved is the code's doing, whatever the machine's load; no rank test is needed,
/// and none could be fooled by one. A counter that varied falls back to the statistics, and the
/// entry says which channel decided (``GateChannel``).
public enum CountChannel {
    /// The counters judged exactly when deterministic, with their absolute tolerance.
    /// Wakeup counts get 2: PAPI's event setup costs a launch one or two voluntary switches
    /// (docs/ARCHITECTURE.md, "Where the counters come from"); every other count is exact.
    public static let tolerances: [String: Double] = [
        MetricName.cpuWakeups: 2,
        MetricName.mainThreadWakeups: 2,
        MetricName.mainThreadHangs: 0,
        MetricName.mainThreadBlockingCalls: 0,
        MetricName.lifecycleSuspendedWakeups: 2,
        MetricName.lifecycleLostChanges: 0,
        MetricName.lifecycleExpiredBackgroundTasks: 0,
        MetricName.lifecycleListeningSocketsWhileSuspended: 0,
        MetricName.networkBytesSent: 0,
        MetricName.networkTransfers: 0,
        "disk.logicalBytesWritten": 0,
        "disk.writeOps": 0,
        "disk.fsyncs": 0,
        "disk.syscallBytesWritten": 0,
        "disk.writeSyscalls": 0,
    ]

    /// The exact verdict for counter `name` when both sides are deterministic (every value of a
    /// side equal) with as many values as a comparison needs (``ComparisonPolicy/repetitionsSuffice(base:head:)``
    /// of a policy of `minimumRepetitions` and `alpha`); nil otherwise (statistics).
    /// The tolerance is the counter's own, or `floor` when larger (a stored baseline's threshold).
    public static func judge(name: String, base: [Double], head: [Double], direction: MetricDirection,
                             minimumRepetitions: Int, alpha: Double = ComparisonPolicy.defaultAlpha,
                             floor: Double = 0) -> (verdict: RegressionVerdict, reason: String, tolerance: Double)? {
        guard let own = tolerances[name],
              ComparisonPolicy(alpha: alpha, minimumRepetitions: minimumRepetitions).repetitionsSuffice(base: base.count, head: head.count),
              let b = base.first, let h = head.first,
              base.allSatisfy({ $0 == b }), head.allSatisfy({ $0 == h }) else { return nil }
        let tolerance = max(own, floor)
        let delta = h - b
        let worse = direction == .lowerIsBetter ? delta : -delta
        let text = "exact count: \(DisplayFormat.number(b)) → \(DisplayFormat.number(h)) in all \(base.count) + \(head.count) runs"
            + " (Δ \(delta >= 0 ? "+" : "")\(DisplayFormat.number(delta)), tolerance \(DisplayFormat.number(tolerance)))"
        if worse > tolerance { return (.regressed, "worse: " + text, tolerance) }
        if -worse > tolerance { return (.improved, "better: " + text, tolerance) }
        return (.unchanged, "within tolerance: " + text, tolerance)
    }

    /// Whether counter `name` is in the table but varied here: the entry says so.
    public static func nondeterministicNote(name: String, base: [Double], head: [Double]) -> String? {
        guard tolerances[name] != nil else { return nil }
        let spread = { (values: [Double]) in (values.max() ?? 0) - (values.min() ?? 0) }
        return "counter varied (base spread \(DisplayFormat.number(spread(base))), head \(DisplayFormat.number(spread(head)))): judged by the statistics"
    }
}
