extension Audits {
    /// Power (CPU) audits.
    static let power: [Audit] = [
        Audit("power.avoid-polling") { analysis, metrics in
            guard !analysis.idlePhases.isEmpty else {
                return .notApplicable("the scenario has no idle phase")
            }
            switch Audit.require(metrics, MetricName.cpuIdleWakeupsPerSecond) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let rate):
                let evidence = analysis.idlePhases.map { phase in
                    Evidence(time: analysis.runTime(phase.start), durationMs: phase.seconds * 1000,
                             description: "\(phase.wakeups) wakeups in \(DisplayFormat.number(phase.seconds)) s idle")
                }
                return .value(rate, display: "\(DisplayFormat.number(rate)) wakeups/s while idle", evidence: evidence)
            }
        },
    ]
}
