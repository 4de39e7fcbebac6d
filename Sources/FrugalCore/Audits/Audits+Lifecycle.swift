extension Audits {
    /// Lifecycle audits.
    static let lifecycle: [Audit] = [
        Audit("lifecycle.launch-time") { analysis, metrics in
            if analysis.record.outcome == .killedWatchdog, analysis.launchNanoseconds == nil {
                // Killed before handling an event: the launch took at least the watchdog's limit.
                let limit = Thresholds.launchWatchdogSeconds * 1000
                return .value(limit, display: "killed by the launch watchdog after \(DisplayFormat.number(limit)) ms",
                              evidence: [Evidence(time: Thresholds.launchWatchdogSeconds, description: analysis.record.outcomeDetail ?? "launch watchdog")])
            }
            switch Audit.require(metrics, MetricName.lifecycleLaunchMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let launchHandlers = analysis.handlers.filter { $0.name == "didFinishLaunching" || $0.name == "didBecomeActive" }
                let evidence = launchHandlers.map {
                    Evidence(time: analysis.runTime($0.start), durationMs: Double($0.duration) / 1e6,
                             description: "\($0.name) took \(DisplayFormat.number(Double($0.duration) / 1e6)) ms")
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms to the first event handled", evidence: evidence)
            }
        },
    ]
}
