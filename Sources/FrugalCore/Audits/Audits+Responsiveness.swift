extension Audits {
    /// Main-thread audits.
    static let responsiveness: [Audit] = [
        Audit("main.no-long-blocks") { analysis, metrics in
            switch Audit.require(metrics, MetricName.mainThreadLongestResponseMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let longest):
                let responses = analysis.inputResponses
                let unprompted = analysis.unpromptedHangs
                let hangs = analysis.hangs
                /// The stack taken while a handler of [start, end] hung, when one was.
                func stack(_ start: UInt64, _ end: UInt64) -> String {
                    guard let hang = hangs.first(where: { $0.handler.start >= start && $0.handler.start <= end && $0.stack != nil }),
                          let stack = hang.stack else { return "" }
                    return "; main thread's stack while \(hang.handler.name) hung: \(stack.summary())"
                }
                var stretches: [(ms: Double, evidence: Evidence)] = unprompted.map { hang in
                    let ms = Double(hang.busyNanoseconds) / 1e6
                    return (ms, Evidence(time: analysis.runTime(hang.start), durationMs: ms,
                                         description: "hang no input started: \(HumanUnits.format(ms, unit: "ms")) busy (\(Audits.handlerList(hang.handlers)))" + stack(hang.start, hang.end)))
                }
                // Responses of 50 ms or more (RAIL's budget for handling an input), or the longest when none is.
                let slow = responses.filter { $0.blockedMs >= 50 }
                let listed = slow.isEmpty && unprompted.isEmpty ? Array(responses.sorted { $0.blockedNanoseconds > $1.blockedNanoseconds }.prefix(1)) : slow
                stretches += listed.map { response in
                    (response.blockedMs, Evidence(time: analysis.runTime(response.time), durationMs: response.blockedMs,
                                                  description: "input(\(response.kind)): the main thread was busy \(HumanUnits.format(response.blockedMs, unit: "ms")) before it returned to idle (\(response.handlers.count) handler\(response.handlers.count == 1 ? "" : "s"): \(Audits.handlerList(response.handlers)))" + stack(response.time, response.end)))
                }
                let evidence = stretches.sorted { $0.ms > $1.ms }.prefix(20).map(\.evidence)
                let blockedMs = Double(analysis.blockingNanoseconds) / 1e6
                let display = responses.isEmpty && unprompted.isEmpty
                    ? "no input and no main-thread stretch of \(DisplayFormat.number(Thresholds.hangMilliseconds)) ms or more"
                    : "\(DisplayFormat.number(longest)) ms the longest the main thread kept one input (or a hang) waiting (\(responses.count) input\(responses.count == 1 ? "" : "s"); \(DisplayFormat.number(blockedMs)) ms past 50 ms in all handlers)"
                return .value(longest, display: display, evidence: Array(evidence))
            }
        },
        Audit("main.no-waiting-on-main") { analysis, metrics in
            switch Audit.require(metrics, MetricName.mainThreadWaitingMs) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let ms):
                let terminating = analysis.handlers.filter(RunAnalysis.isTermination)
                let waiting = analysis.handlers.filter { ($0.offCPUWaitingNanoseconds ?? 0) >= 1_000_000 && !RunAnalysis.isTermination($0) }
                    .sorted { ($0.offCPUWaitingNanoseconds ?? 0) > ($1.offCPUWaitingNanoseconds ?? 0) }
                var evidence = waiting.prefix(10).map { handler in
                    Evidence(time: analysis.runTime(handler.start), durationMs: Double(handler.offCPUWaitingNanoseconds ?? 0) / 1e6,
                             description: "\(handler.name): \(DisplayFormat.number(Double(handler.duration) / 1e6)) ms wall, "
                                 + "\(DisplayFormat.number(Double(handler.cpuNanoseconds ?? 0) / 1e6)) ms on CPU, "
                                 + "\(handler.voluntaryContextSwitches ?? 0) voluntary switch\((handler.voluntaryContextSwitches ?? 0) == 1 ? "" : "es")")
                }
                let inTermination = { (call: BlockingCall) in terminating.contains { $0.start <= call.start && call.start <= $0.end } }
                evidence += analysis.mainThreadBlockingCalls.filter { !inTermination($0) }.prefix(10).map { call in
                    Evidence(time: analysis.runTime(call.start), durationMs: Double(call.end &- call.start) / 1e6,
                             description: "\(call.kind) \(call.detail) on the main thread at \(call.callSite)")
                }
                // Said, not hidden: the save the guide asks for in willTerminate waited this long.
                evidence += terminating.filter { ($0.offCPUWaitingNanoseconds ?? 0) >= 1_000_000 }.map { handler in
                    Evidence(time: analysis.runTime(handler.start), durationMs: Double(handler.offCPUWaitingNanoseconds ?? 0) / 1e6,
                             description: "\(handler.name): \(DisplayFormat.number(Double(handler.offCPUWaitingNanoseconds ?? 0) / 1e6)) ms waiting, "
                                 + "not counted: the guide's place to save before quitting, which nobody waits on")
                }
                return .value(ms, display: "\(DisplayFormat.number(ms)) ms waiting off the CPU on the main thread", evidence: evidence)
            }
        },
    ]

    /// `a, b, c` or `a, b, … (n in all)` for a chain's handler names.
    static func handlerList(_ names: [String]) -> String {
        names.count <= 4 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + ", … (\(names.count) in all)"
    }
}
