extension MetricExtraction.Source {
    public static let perfHardware = "perf_event:hardware (user space, every process and thread of the run, inherited)"
}

extension MetricExtraction {
    /// Below this multiplexing ratio the counts are scaled estimates, and the metric says so.
    public static let multiplexingWarningRatio = 0.95

    /// Instructions, cycles, IPC, cache and branch misses for the whole run, or each unavailable
    /// with the reason the machine gave (no PMU in a VM); never 0 for "not counted".
    @Sendable static func hardwareMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let names = [(MetricName.cpuInstructions, "count"), (MetricName.cpuCycles, "count"), (MetricName.cpuInstructionsPerCycle, "ratio"),
                     (MetricName.cpuCacheMisses, "count"), (MetricName.cpuBranchMisses, "count"), (MetricName.cpuCounterMultiplexing, "ratio")]
        guard let reading = analysis.record.hardwareCounters, reading.unavailable == nil else {
            let reason = analysis.record.hardwareCounters?.unavailable ?? "the run's hardware counters were not read"
            for (name, unit) in names { metrics[name] = .unavailable(unit: unit, source: Source.perfHardware, reason: reason) }
            return
        }
        var source = Source.perfHardware
        if let ratio = reading.multiplexingRatio, ratio < multiplexingWarningRatio {
            source += "; multiplexed: the counters ran \(DisplayFormat.number(ratio * 100))% of the time and were scaled"
        }
        func put(_ name: String, _ value: UInt64?, unit: String = "count") {
            metrics[name] = value.map { MetricValue(Double($0), unit: unit, source: source) }
                ?? .unavailable(unit: unit, source: source, reason: "the counter gave no value")
        }
        put(MetricName.cpuInstructions, reading.instructions)
        put(MetricName.cpuCycles, reading.cycles)
        put(MetricName.cpuCacheMisses, reading.cacheMisses)
        put(MetricName.cpuBranchMisses, reading.branchMisses)
        if let instructions = reading.instructions, let cycles = reading.cycles, cycles > 0 {
            metrics[MetricName.cpuInstructionsPerCycle] = MetricValue(Double(instructions) / Double(cycles), unit: "ratio", source: source)
        } else {
            metrics[MetricName.cpuInstructionsPerCycle] = .unavailable(unit: "ratio", source: source, reason: "no cycles were counted")
        }
        metrics[MetricName.cpuCounterMultiplexing] = reading.multiplexingRatio.map { MetricValue($0, unit: "ratio", source: Source.perfHardware) }
            ?? .unavailable(unit: "ratio", source: Source.perfHardware, reason: "the counters were never enabled")
    }
}
