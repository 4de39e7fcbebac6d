extension Audits {
    /// Main-thread audits.
    static let responsiveness: [Audit] = [
        Audit("main.no-long-blocks") { analysis, metrics in
            switch Audit.require(metrics, MetricName.mainThreadBlockingMsPerMinute) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let perMinute):
                let hangs = analysis.handlers(atLeast: Thresholds.hangMilliseconds)
                let evidence = hangs.prefix(20).map { handler in
                    Evidence(time: analysis.runTime(handler.start), durationMs: Double(handler.duration) / 1e6,
                             description: "hang: \(handler.name) ran \(DisplayFormat.number(Double(handler.duration) / 1e6)) ms on the main thread")
                }
                let blockedMs = Double(analysis.blockingNanoseconds) / 1e6
                return .value(perMinute, display: "\(DisplayFormat.number(perMinute)) ms/min blocked (\(DisplayFormat.number(blockedMs)) ms in all, \(hangs.count) hang\(hangs.count == 1 ? "" : "s"))",
                              evidence: Array(evidence))
            }
        },
    ]
}
