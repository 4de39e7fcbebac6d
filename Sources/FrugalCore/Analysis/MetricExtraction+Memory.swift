/// Memory metrics: from outside (`smaps_rollup` samples, the harness's deliveries and the
/// cgroup) and from the kit's memory events at boundaries the app crosses anyway.
extension MetricExtraction {
    public enum MemorySource {
        public static let smaps = "proc:smaps_rollup"
        public static let deliveries = "harness:warning-delivery+proc:smaps_rollup"
        /// The footprint as iOS counts it (dirty private memory: smaps_rollup Anonymous − LazyFree),
        /// after FrugalKit has trimmed glibc's arenas where Darwin's allocator gives freed pages back.
        public static let footprint = "proc:smaps_rollup(Anonymous−LazyFree: footprint as iOS counts it, after FrugalKit's malloc_trim)"
        public static let response = "harness:warning-delivery+kit:memory.warningHandled"
        public static let purgeable = "kit:purgeable-cookies"
        public static let mapped = "kit:mapped-touch+rusage:thread.ru_majflt"
        public static let resources = "kit:resources"
        public static let cycles = "proc:smaps_rollup@cycle-ends"
        public static let cgroupEvents = "cgroup:memory.pressure_level"
        public static let oom = "cgroup:memory.oom_control.oom_kill"
    }

    @Sendable static func memoryMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let record = analysis.record
        let memory = MemoryAnalysis(record)
        let breakdowns = record.samples.compactMap(\.memory)
        let noSmaps = "no /proc/<pid>/smaps_rollup sample was taken"
        for (name, key) in [(MetricName.memoryPeakAnonymousBytes, \MemoryBreakdown.anonymousBytes),
                            (MetricName.memoryPeakFileBytes, \MemoryBreakdown.fileBytes),
                            (MetricName.memoryPeakLazyFreeBytes, \MemoryBreakdown.lazyFreeBytes)] {
            metrics[name] = breakdowns.isEmpty ? .unavailable(unit: "bytes", source: MemorySource.smaps, reason: noSmaps)
                : MetricValue(Double(breakdowns.map { $0[keyPath: key] }.max() ?? 0), unit: "bytes", source: MemorySource.smaps)
        }
        guard !record.blackBox else { return }

        let delivered = memory.warnings.compactMap(\.delivery)
        let noWarning = "the scenario delivered no memory warning"
        if let first = delivered.first {
            let missing = "a /proc sample around the warning at \(DisplayFormat.number(analysis.runTime(first.time))) s is missing (the process had exited)"
            metrics[MetricName.memoryFreedOnWarningBytes] = first.freedWithin1s.map { MetricValue(Double($0), unit: "bytes", source: MemorySource.deliveries) }
                ?? .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: missing)
            metrics[MetricName.memoryFreedWithin100msBytes] = first.freedWithin100ms.map { MetricValue(Double($0), unit: "bytes", source: MemorySource.deliveries) }
                ?? .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: missing)
        } else {
            metrics[MetricName.memoryFreedOnWarningBytes] = .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: noWarning)
            metrics[MetricName.memoryFreedWithin100msBytes] = .unavailable(unit: "bytes", source: MemorySource.deliveries, reason: noWarning)
        }
        for (name, measurement) in [(MetricName.memoryWarningRetainedFraction, Audits.warningRetention(analysis)),
                                    (MetricName.memoryBackgroundRetainedFraction, Audits.backgroundRetention(analysis))] {
            switch measurement {
            case .value(let value, _, _): metrics[name] = MetricValue(value, unit: "fraction", source: MemorySource.footprint)
            case .notApplicable(let reason), .unavailable(let reason):
                metrics[name] = .unavailable(unit: "fraction", source: MemorySource.footprint, reason: reason)
            }
        }
        let responses = memory.warnings.compactMap(\.responseMs)
        metrics[MetricName.memoryWarningResponseMs] = responses.max().map { MetricValue($0, unit: "ms", source: MemorySource.response) }
            ?? .unavailable(unit: "ms", source: MemorySource.response,
                            reason: delivered.isEmpty ? noWarning : "the app never reported handling a delivered warning")

        let discards = memory.events.filter { $0.event.kind == .purgeableDiscarded }
        if !discards.isEmpty {
            metrics[MetricName.memoryPurgeableDiscardedPages] = MetricValue(Double(discards.reduce(0) { $0 + ($1.event.pages ?? 0) }),
                                                                            unit: "count", source: MemorySource.purgeable)
        }
        // A re-touch: a touch of a mapped range that found pages missing after an earlier touch.
        var touched = Set<String>()
        var retouches: [MemoryEvent] = []
        for (_, event) in memory.events where event.kind == .mappedTouch {
            let name = event.resource ?? ""
            if touched.contains(name) { retouches.append(event) } else { touched.insert(name) }
        }
        if let worst = retouches.max(by: { ($0.nanoseconds ?? 0) < ($1.nanoseconds ?? 0) }) {
            metrics[MetricName.memoryRetouchMajorFaults] = worst.majorFaults.map { MetricValue(Double($0), unit: "count", source: MemorySource.mapped) }
                ?? .unavailable(unit: "count", source: MemorySource.mapped, reason: "getrusage(RUSAGE_THREAD) failed in the app")
            metrics[MetricName.memoryRetouchMs] = MetricValue(Double(worst.nanoseconds ?? 0) / 1e6, unit: "ms", source: MemorySource.mapped)
        }

        let ends = MemoryAnalysis.cycleEnds(record).map(\.anonymous)
        if let growth = MemoryAnalysis.growthPerCycle(ends) {
            metrics[MetricName.memoryGrowthPerCycleBytes] = MetricValue(growth, unit: "bytes", source: MemorySource.cycles)
        }
        if let launch = analysis.launchNanoseconds {
            let unused = memory.unusedLaunchBytes(launchEnd: record.startTime + launch)
            metrics[MetricName.memoryUnusedLaunchResourceBytes] = MetricValue(Double(unused.bytes), unit: "bytes", source: MemorySource.resources)
        }
        metrics[MetricName.memoryLargeResourceCopyBytes] = MetricValue(Double(memory.peakLargeCopyBytes.bytes), unit: "bytes", source: MemorySource.resources)

        if let facts = record.memory, facts.cgroupController != nil {
            metrics[MetricName.memoryKernelPressureEvents] = MetricValue(Double(facts.pressureEvents.count), unit: "count",
                                                                         source: Set(facts.pressureEvents.map(\.source)).sorted().joined(separator: "+").nilIfEmpty ?? MemorySource.cgroupEvents)
            metrics[MetricName.memoryOOMKilled] = MetricValue(facts.killedByOOM ? 1 : 0, unit: "count", source: MemorySource.oom)
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
