/// Everything Frugal says of a metric beyond its value, declared once: its name (from
/// ``MetricName``), its unit, which way is better, and the smallest change a comparison counts.
/// Extraction (`MetricExtraction+<Area>.swift`) gives each value with this unit and its source;
/// comparisons (`ReportComparator`) read the direction and the minimum effect from here, and
/// `MetricCatalogueTests` hold every extracted metric to its declaration. Adding a metric: one
/// file with its name, declaration and extractor as a ``MetricFamily``, and its line in
/// ``MetricFamily/all`` (docs/EXTENDING.md).
public struct MetricDefinition: Sendable, Equatable {
    /// The metric's name (`area.camelCase`), as in report.json.
    public var name: String
    /// The unit every value of it is in.
    public var unit: String
    /// Which way is an improvement.
    public var direction: MetricDirection
    /// The smallest change a comparison counts, and whether it gates; nil: reported with a 10 %
    /// threshold, never gating (``MinimumEffectTable/defaultMetric``).
    public var minimumEffect: MinimumEffect?
    /// Where every value of it comes from (`proc:<pid>/task (sampled)`), when one source gives
    /// them all; nil where the extractor picks among sources (the older areas' metrics).
    /// `MetricCatalogueTests` holds each extracted value to it.
    public var source: String?
    /// Which runs have it and when it is unavailable instead (apps and programs alike, or apps
    /// only; "no sample listed the threads"); nil where not declared (the older areas' metrics).
    public var availability: String?

    public init(_ name: String, unit: String, direction: MetricDirection, minimumEffect: MinimumEffect? = nil,
                source: String? = nil, availability: String? = nil) {
        self.name = name
        self.unit = unit
        self.direction = direction
        self.minimumEffect = minimumEffect
        self.source = source
        self.availability = availability
    }

    /// `value` in the declared unit, from the declared source (one declared, or ``MetricValue/source`` is empty).
    public func value(_ value: Double) -> MetricValue {
        MetricValue(value, unit: unit, source: source ?? "")
    }

    /// Unavailable, with `reason`, in the declared unit and from the declared source.
    public func unavailable(_ reason: String) -> MetricValue {
        .unavailable(unit: unit, source: source ?? "", reason: reason)
    }
}

/// The declared metrics, by area.
public enum MetricCatalogue {
    /// Every metric Frugal reports.
    public static let all: [MetricDefinition] = cpu + mainThread + lifecycle + run + memory + disk + network + energy
        + MetricFamily.all.flatMap(\.definitions)

    private static let byName: [String: MetricDefinition] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The declaration of `name`, if it is a metric Frugal reports.
    public static func named(_ name: String) -> MetricDefinition? { byName[name] }

    /// Which way `name` is better: lower for a metric not declared (time, bytes, wakeups).
    public static func direction(of name: String) -> MetricDirection { byName[name]?.direction ?? .lowerIsBetter }

    static let cpu: [MetricDefinition] = [
        MetricDefinition(MetricName.cpuTimeSeconds, unit: "s", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0.02, gating: false, reason: "timing (reported, never fails); 10 % and 20 ms of CPU: shared-runner jitter is a few ms per run")),
        MetricDefinition(MetricName.cpuWakeups, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.50, absolute: 15, reason: MinimumEffectTable.wakeupDrift)),
        MetricDefinition(MetricName.cpuWakeupsPerSecond, unit: "1/s", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.20, absolute: 0.25, gating: false, reason: "divided by wall time, so it moves with the machine's load (reported, never fails); cpu.wakeups gates; 20 % and 0.25/s")),
        MetricDefinition(MetricName.cpuIdleWakeupsPerSecond, unit: "1/s", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.20, absolute: 0.1, reason: "20 % and 0.1/s (one wakeup in a 10 s idle phase)")),
        MetricDefinition(MetricName.cpuIdlePlatformWakeupsPerSecond, unit: "1/s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.cpuInstructions, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.01, absolute: 0, reason: "instructions retired hardly vary with the machine's load: 1 % more is more work done")),
        MetricDefinition(MetricName.cpuCycles, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.05, absolute: 0, gating: false, reason: "cycles follow frequency and contention like time (reported, never fails)")),
        MetricDefinition(MetricName.cpuInstructionsPerCycle, unit: "ratio", direction: .higherIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.05, absolute: 0, gating: false, reason: "a ratio of a count and a timing (reported, never fails)")),
        MetricDefinition(MetricName.cpuCacheMisses, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0, gating: false, reason: "misses depend on what else shares the caches (reported, never fails)")),
        MetricDefinition(MetricName.cpuBranchMisses, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0, gating: false, reason: "reported, never fails")),
        MetricDefinition(MetricName.cpuCounterMultiplexing, unit: "ratio", direction: .higherIsBetter,
                         minimumEffect: MinimumEffect(relative: nil, absolute: 0.05, gating: false, reason: "a property of the measurement, not of the app")),
    ]

    static let mainThread: [MetricDefinition] = [
        MetricDefinition(MetricName.mainThreadWakeups, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.50, absolute: 15, reason: MinimumEffectTable.wakeupDrift)),
        MetricDefinition(MetricName.mainThreadLongestBlockMs, unit: "ms", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 20, gating: false, reason: "timing (reported, never fails); 10 % and 20 ms: below a frame or two nobody sees it")),
        MetricDefinition(MetricName.mainThreadHangs, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: nil, absolute: 1, reason: "one more hang")),
        MetricDefinition(MetricName.mainThreadLongestWaitMs, unit: "ms", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 20, gating: false, reason: "timing (reported, never fails); a program's idle wait and a blocked one look alike from outside")),
        MetricDefinition(MetricName.mainThreadBlockedSeconds, unit: "s", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0.05, gating: false, reason: "timing (reported, never fails); 10 % and 50 ms")),
        MetricDefinition(MetricName.mainThreadBlockingMsPerMinute, unit: "ms/min", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 50, gating: false, reason: "timing (reported, never fails); 10 % and 50 ms/min")),
        MetricDefinition(MetricName.mainThreadLongestResponseMs, unit: "ms", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 20, gating: false, reason: "timing (reported, never fails); 10 % and 20 ms: the audit's own curve gates, with its 50 ms / 100 ms control points")),
        MetricDefinition(MetricName.mainThreadWaitingMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.mainThreadBlockingCalls, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.mainThreadInstructions, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.01, absolute: 0, reason: "the main thread's instructions retired in handlers: 1 % more is more work on the main thread")),
        MetricDefinition(MetricName.mainThreadCycles, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.05, absolute: 0, gating: false, reason: "cycles follow frequency and contention like time (reported, never fails)")),
        MetricDefinition(MetricName.mainThreadInstructionsPerCycle, unit: "ratio", direction: .higherIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.05, absolute: 0, gating: false, reason: "a ratio of a count and a timing (reported, never fails)")),
        MetricDefinition(MetricName.mainThreadCacheMisses, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0, gating: false, reason: "misses depend on what else shares the caches (reported, never fails)")),
        MetricDefinition(MetricName.mainThreadBranchMisses, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0, gating: false, reason: "reported, never fails")),
        MetricDefinition(MetricName.mainThreadCounterMultiplexing, unit: "ratio", direction: .higherIsBetter,
                         minimumEffect: MinimumEffect(relative: nil, absolute: 0.05, gating: false, reason: "a property of the measurement, not of the app")),
    ]

    static let lifecycle: [MetricDefinition] = [
        MetricDefinition(MetricName.lifecycleLaunchMs, unit: "ms", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 20, gating: false, reason: "timing (reported, never fails); 10 % and 20 ms: exec and dynamic linking vary by several ms")),
        MetricDefinition(MetricName.lifecycleBackgroundTransitionMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleBackgroundCpuSeconds, unit: "s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleInactiveWakeupsPerSecond, unit: "1/s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleLostChanges, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleExpiredBackgroundTasks, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleListeningSocketsWhileSuspended, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleResumeMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleRelaunchMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleSuspendedCpuSeconds, unit: "s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.lifecycleSuspendedWakeups, unit: "count", direction: .lowerIsBetter),
    ]

    static let run: [MetricDefinition] = [
        MetricDefinition(MetricName.runWallSeconds, unit: "s", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.05, absolute: 0.25, gating: false, reason: "mostly the scenario's own length; reported, never fails")),
    ]

    static let memory: [MetricDefinition] = [
        MetricDefinition(MetricName.memoryPeakResidentBytes, unit: "bytes", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 1_048_576, reason: "10 % and 1 MiB")),
        MetricDefinition(MetricName.memoryMajorFaults, unit: "count", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.50, absolute: 10, gating: false, reason: "depends on the page cache of the machine; reported, never fails")),
        MetricDefinition(MetricName.memoryFreedOnWarningBytes, unit: "bytes", direction: .higherIsBetter),
        MetricDefinition(MetricName.memoryFreedWithin100msBytes, unit: "bytes", direction: .higherIsBetter),
        MetricDefinition(MetricName.memoryWarningRetainedFraction, unit: "fraction", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: nil, absolute: 0.1, reason: "a tenth of the footprint gained since launch")),
        MetricDefinition(MetricName.memoryBackgroundRetainedFraction, unit: "fraction", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: nil, absolute: 0.1, reason: "a tenth of the footprint gained since launch")),
        MetricDefinition(MetricName.memoryWarningResponseMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryPeakAnonymousBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryPeakFileBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryPeakLazyFreeBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryPurgeableDiscardedPages, unit: "pages", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryRetouchMajorFaults, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryRetouchMs, unit: "ms", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryGrowthPerCycleBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryUnusedLaunchResourceBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryLargeResourceCopyBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryKernelPressureEvents, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.memoryOOMKilled, unit: "count", direction: .lowerIsBetter),
    ]

    static let disk: [MetricDefinition] = [
        MetricDefinition(MetricName.diskPhysicalBytesWritten, unit: "bytes", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 65_536, reason: "10 % and 64 KiB")),
        MetricDefinition(MetricName.diskLogicalBytesWritten, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskWriteOps, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskFsyncs, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskSyscallBytesWritten, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskWriteSyscalls, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskEventStreamBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskUnjournaledBytesWritten, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskWriteAmplification, unit: "×", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskWriteOpsBusiestMinute, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskBytesWrittenPerDay, unit: "bytes/day", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskCacheBytesWritten, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskBackupBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskRecreatableBackupBytes, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.diskTmpBytesAtEnd, unit: "bytes", direction: .lowerIsBetter),
    ]

    static let network: [MetricDefinition] = [
        MetricDefinition(MetricName.networkBytesSent, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkBytesReceived, unit: "bytes", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkTransfers, unit: "count", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkRadioActiveSeconds, unit: "s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkRadioTailSeconds, unit: "s", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkRadioJoules, unit: "J", direction: .lowerIsBetter),
        MetricDefinition(MetricName.networkRadioPromotions, unit: "count", direction: .lowerIsBetter),
    ]

    static let energy: [MetricDefinition] = [
        MetricDefinition(MetricName.energyMeasuredJoules, unit: "J", direction: .lowerIsBetter,
                         minimumEffect: MinimumEffect(relative: 0.10, absolute: 0, gating: false, reason: "the whole package's energy, every process on it: the machine's load moves it (reported, never fails)")),
    ]
}
