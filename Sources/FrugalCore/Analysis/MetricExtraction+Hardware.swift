extension MetricExtraction.Source {
    public static let perfHardware = "perf_event:hardware (user space, every process and thread of the run, inherited)"
    /// The main thread's hardware counts, summed over its handlers; `counterSource` is the
    /// handlers' (`papi:perf::INSTRUCTIONS:u=1:k=0+…`).
    public static func kitThreadHardware(_ counterSource: String) -> String {
        "\(counterSource) (main thread, in handlers, user space)"
    }
}

extension MetricExtraction {
    /// Below this multiplexing ratio the counts are scaled estimates, and the metric says so.
    public static let multiplexingWarningRatio = 0.95

    /// The metric names of one hardware reading: the whole run's or the main thread's.
    struct HardwareMetricNames {
        var instructions, cycles, instructionsPerCycle, cacheMisses, branchMisses, multiplexing: String
        static let run = HardwareMetricNames(instructions: MetricName.cpuInstructions, cycles: MetricName.cpuCycles,
                                             instructionsPerCycle: MetricName.cpuInstructionsPerCycle, cacheMisses: MetricName.cpuCacheMisses,
                                             branchMisses: MetricName.cpuBranchMisses, multiplexing: MetricName.cpuCounterMultiplexing)
        static let mainThread = HardwareMetricNames(instructions: MetricName.mainThreadInstructions, cycles: MetricName.mainThreadCycles,
                                                    instructionsPerCycle: MetricName.mainThreadInstructionsPerCycle,
                                                    cacheMisses: MetricName.mainThreadCacheMisses, branchMisses: MetricName.mainThreadBranchMisses,
                                                    multiplexing: MetricName.mainThreadCounterMultiplexing)
        var withUnits: [(String, String)] {
            [(instructions, "count"), (cycles, "count"), (instructionsPerCycle, "ratio"), (cacheMisses, "count"), (branchMisses, "count"),
             (multiplexing, "ratio")]
        }
    }

    /// Instructions, cycles, IPC, cache and branch misses for the whole run, or each unavailable
    /// with the reason the machine gave (no PMU in a VM); never 0 for "not counted".
    @Sendable static func hardwareMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        putHardware(analysis.record.hardwareCounters, names: .run, source: Source.perfHardware,
                    missing: "the run's hardware counters were not read", into: &metrics)
    }

    /// The six metrics of `reading` under `names`: each unavailable with the reading's reason (or
    /// `missing` when there is no reading); a multiplexed reading says so in every source.
    static func putHardware(_ reading: HardwareCounterReading?, names: HardwareMetricNames, source baseSource: String, missing: String,
                            into metrics: inout [String: MetricValue]) {
        guard let reading, reading.unavailable == nil else {
            let reason = reading?.unavailable ?? missing
            for (name, unit) in names.withUnits { metrics[name] = .unavailable(unit: unit, source: baseSource, reason: reason) }
            return
        }
        var source = baseSource
        if let ratio = reading.multiplexingRatio, ratio < multiplexingWarningRatio {
            source += "; multiplexed: the counters ran \(DisplayFormat.number(ratio * 100))% of the time and were scaled"
        }
        func put(_ name: String, _ value: UInt64?, unit: String = "count") {
            metrics[name] = value.map { MetricValue(Double($0), unit: unit, source: source) }
                ?? .unavailable(unit: unit, source: source, reason: "the counter gave no value")
        }
        put(names.instructions, reading.instructions)
        put(names.cycles, reading.cycles)
        put(names.cacheMisses, reading.cacheMisses)
        put(names.branchMisses, reading.branchMisses)
        if let instructions = reading.instructions, let cycles = reading.cycles, cycles > 0 {
            metrics[names.instructionsPerCycle] = MetricValue(Double(instructions) / Double(cycles), unit: "ratio", source: source)
        } else {
            metrics[names.instructionsPerCycle] = .unavailable(unit: "ratio", source: source, reason: "no cycles were counted")
        }
        metrics[names.multiplexing] = reading.multiplexingRatio.map { MetricValue($0, unit: "ratio", source: baseSource) }
            ?? .unavailable(unit: "ratio", source: baseSource, reason: "the counters were never enabled")
    }
}
