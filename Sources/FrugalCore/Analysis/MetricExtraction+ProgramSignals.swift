/// A black-box program's life as an app's: the memory it gave back after the configured warning
/// signal (from the harness's `smaps_rollup` samples around it, as an app's), and idle wakeups that
/// leave out what the harness's own signals set off (`RunAnalysis+ProgramSignals`).
extension MetricExtraction {
    /// The idle-wakeup source of a program the harness sent signals: what was left out, said where the number is.
    public static let idleWithoutHarnessSignals = Source.procVoluntary
        + " (idle slices; the \(DisplayFormat.number(RunAnalysis.harnessSignalWindowSeconds)) s after each signal the harness sent, a memory warning or an input, left out)"

    static func programSignalMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let record = analysis.record
        let deliveries = (record.memory?.deliveries ?? []).filter { $0.level != .normal }
        if let first = deliveries.first {
            let missing = "a /proc sample around the warning at \(DisplayFormat.number(analysis.runTime(first.time))) s is missing (the process had exited)"
            metrics[MetricName.memoryFreedOnWarningBytes] = first.freedWithin1s.map { MetricValue(Double($0), unit: "bytes", source: MemorySource.deliveries) }
                ?? .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: missing)
            metrics[MetricName.memoryFreedWithin100msBytes] = first.freedWithin100ms.map { MetricValue(Double($0), unit: "bytes", source: MemorySource.deliveries) }
                ?? .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: missing)
        } else if let problem = record.steps.first(where: { $0.step.name == "memoryWarning" && $0.problem != nil })?.problem {
            // A memoryWarning step that could not reach the program says why (no signal configured).
            metrics[MetricName.memoryFreedOnWarningBytes] = .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: problem)
            metrics[MetricName.memoryFreedWithin100msBytes] = .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: problem)
        }
        if analysis.sentProgramSignals, let idle = metrics[MetricName.cpuIdleWakeupsPerSecond] {
            var relabelled = idle
            relabelled.source = idleWithoutHarnessSignals
            metrics[MetricName.cpuIdleWakeupsPerSecond] = relabelled
        }
        if !analysis.startupIntervals.isEmpty, var idle = metrics[MetricName.cpuIdleWakeupsPerSecond] {
            // The program's start-up is not idle time (RunAnalysis+Startup): the source says it was left out.
            idle.source += " (start-up, from the spawn to the main thread's first sustained wait, left out)"
            metrics[MetricName.cpuIdleWakeupsPerSecond] = idle
        }
    }
}
