extension Audits {
    /// Main-thread audits.
    static let responsiveness: [Audit] = [
        Audit("main.no-long-blocks") { analysis, metrics in
            switch Audit.require(metrics, MetricName.mainThreadBlockingMsPerMinute) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let perMinute):
                let hangs = analysis.hangs
                let evidence = hangs.prefix(20).map { hang in
                    let ms = Double(hang.handler.duration) / 1e6
                    let stack = hang.stack.map { "; main thread's stack while it hung: \($0.summary())" } ?? "; no stack was captured"
                    return Evidence(time: analysis.runTime(hang.handler.start), durationMs: ms,
                                    description: "hang: \(hang.handler.name) ran \(HumanUnits.format(ms, unit: "ms")) on the main thread\(stack)")
                }
                let blockedMs = Double(analysis.blockingNanoseconds) / 1e6
                return .value(perMinute, display: "\(DisplayFormat.number(perMinute)) ms/min blocked (\(DisplayFormat.number(blockedMs)) ms in all, \(hangs.count) hang\(hangs.count == 1 ? "" : "s"))",
                              evidence: Array(evidence))
            }
        },
        Audit("main.no-waiting-on-main") { analysis, metrics in
            switch Audit.require(metrics, MetricName.mainThreadWaitingMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let waiting = analysis.handlers.filter { ($0.offCPUWaitingNanoseconds ?? 0) >= 1_000_000 }
                    .sorted { ($0.offCPUWaitingNanoseconds ?? 0) > ($1.offCPUWaitingNanoseconds ?? 0) }
                var evidence = waiting.prefix(10).map { handler in
                    Evidence(time: analysis.runTime(handler.start), durationMs: Double(handler.offCPUWaitingNanoseconds ?? 0) / 1e6,
                             description: "\(handler.name): \(DisplayFormat.number(Double(handler.duration) / 1e6)) ms wall, "
                                 + "\(DisplayFormat.number(Double(handler.cpuNanoseconds ?? 0) / 1e6)) ms on CPU, "
                                 + "\(handler.voluntaryContextSwitches ?? 0) voluntary switch\((handler.voluntaryContextSwitches ?? 0) == 1 ? "" : "es")")
                }
                evidence += analysis.mainThreadBlockingCalls.prefix(10).map { call in
                    Evidence(time: analysis.runTime(call.start), durationMs: Double(call.end &- call.start) / 1e6,
                             description: "\(call.kind) \(call.detail) on the main thread at \(call.callSite)")
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms waiting off the CPU on the main thread", evidence: evidence)
            }
        },
    ]
}
