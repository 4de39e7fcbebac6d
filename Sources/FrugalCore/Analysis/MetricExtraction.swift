/// Turns a run's raw facts into named metrics, each with its source. What could not be
/// measured is reported as unavailable with the reason, never as zero.
public enum MetricExtraction {
    /// Source names, so that reports and tests agree on them.
    public enum Source {
        public static let wait4CPU = "rusage:wait4.ru_utime+ru_stime"
        public static let wait4Voluntary = "rusage:wait4.ru_nvcsw"
        public static let procPeakResident = "proc:status.VmHWM"
        public static let wait4MajorFaults = "rusage:wait4.ru_majflt"
        public static let procVoluntary = "proc:task/*/status.voluntary_ctxt_switches"
        public static let procMainVoluntary = "proc:task/<pid>/status.voluntary_ctxt_switches"
        /// Per-thread switches, with the thread's role from its stack (`ThreadEvidence`).
        public static let procThreadVoluntary = "proc:task/<tid>/status.voluntary_ctxt_switches+stack"
        public static let procWriteBytes = "proc:io.write_bytes"
        public static let kitHandlers = "kit:handlers"
        public static let kitAck = "kit:ack-first-event"
        public static let harnessClock = "harness:monotonic-clock"
    }

    /// Every metric this version derives from a run.
    public static func metrics(of analysis: RunAnalysis) -> [String: MetricValue] {
        var metrics: [String: MetricValue] = [:]
        let record = analysis.record
        let wall = analysis.wallSeconds
        metrics[MetricName.runWallSeconds] = MetricValue(wall, unit: "s", source: Source.harnessClock)

        if let usage = record.resourceUsage {
            metrics[MetricName.cpuTimeSeconds] = MetricValue(usage.userSeconds + usage.systemSeconds, unit: "s", source: Source.wait4CPU)
            // From the exec on: the held child's setup before it is the harness's (``ProcessSegment``).
            let wakeups = Double(max(0, usage.voluntaryContextSwitches - switchesBeforeExec(record)))
            metrics[MetricName.cpuWakeups] = MetricValue(wakeups, unit: "count", source: Source.wait4Voluntary)
            metrics[MetricName.cpuWakeupsPerSecond] = wall > 0
                ? MetricValue(wakeups / wall, unit: "1/s", source: Source.wait4Voluntary)
                : .unavailable(unit: "1/s", source: Source.wait4Voluntary, reason: "the run had no duration")
            metrics[MetricName.memoryMajorFaults] = MetricValue(Double(usage.majorFaults), unit: "count", source: Source.wait4MajorFaults)
        } else {
            let reason = "the process was not reaped by the harness, so wait4 gave no totals"
            for (name, unit, source) in [(MetricName.cpuTimeSeconds, "s", Source.wait4CPU),
                                         (MetricName.cpuWakeups, "count", Source.wait4Voluntary),
                                         (MetricName.cpuWakeupsPerSecond, "1/s", Source.wait4Voluntary),
                                         (MetricName.memoryMajorFaults, "count", Source.wait4MajorFaults)] {
                metrics[name] = .unavailable(unit: unit, source: source, reason: reason)
            }
        }

        metrics[MetricName.cpuIdleWakeupsPerSecond] = idleWakeupsPerSecond(analysis)
        metrics[MetricName.cpuIdlePlatformWakeupsPerSecond] = idlePlatformWakeupsPerSecond(analysis)
        metrics[MetricName.memoryPeakResidentBytes] = peakResidentBytes(record)

        // The main thread's voluntary switches from the last /proc sample (tid == pid) of each process.
        let pids = record.processes?.map(\.pid) ?? record.pid.map { [$0] } ?? []
        let atExit = record.processes?.compactMap(\.mainThreadWakeupsAtExit) ?? []
        let mainThreads = pids.compactMap { pid in
            record.samples.last(where: { $0.threads.contains { $0.tid == pid } })?.threads.first(where: { $0.tid == pid })
        }
        if !atExit.isEmpty && atExit.count == pids.count {
            // Read at exit, before the reap: the final count, which the last periodic sample is not.
            metrics[MetricName.mainThreadWakeups] = MetricValue(Double(atExit.reduce(0, +)), unit: "count", source: Source.exitMainVoluntary)
        } else if !mainThreads.isEmpty {
            // From the exec on, as above: the held child's wait before it is the harness's.
            let counted = mainThreads.reduce(0) { $0 + $1.voluntaryContextSwitches } - switchesBeforeExec(record)
            metrics[MetricName.mainThreadWakeups] = MetricValue(Double(max(0, counted)), unit: "count", source: Source.procMainVoluntary)
        } else {
            metrics[MetricName.mainThreadWakeups] = .unavailable(unit: "count", source: Source.procMainVoluntary,
                                                                 reason: "no /proc sample of the main thread was taken")
        }
        for area in areaMetrics { area(analysis, &metrics) }
        if record.blackBox {
            programMetrics(analysis, &metrics)
            return metrics
        }
        if analysis.handlers.isEmpty {
            let reason = "the workload reported no handler (it never reached its run loop)"
            metrics[MetricName.mainThreadLongestBlockMs] = .unavailable(unit: "ms", source: Source.kitHandlers, reason: reason)
            metrics[MetricName.mainThreadHangs] = .unavailable(unit: "count", source: Source.kitHandlers, reason: reason)
            metrics[MetricName.mainThreadBlockedSeconds] = .unavailable(unit: "s", source: Source.kitHandlers, reason: reason)
            metrics[MetricName.mainThreadBlockingMsPerMinute] = .unavailable(unit: "ms/min", source: Source.kitHandlers, reason: reason)
            // A watchdog that killed the app inside its first handler leaves only that handler's start.
            metrics[MetricName.mainThreadLongestResponseMs] = analysis.unfinishedHandlers.isEmpty
                ? .unavailable(unit: "ms", source: Source.kitHandlers, reason: reason)
                : MetricValue(analysis.longestResponseMs, unit: "ms", source: Source.kitHandlers)
        } else {
            metrics[MetricName.mainThreadLongestResponseMs] = MetricValue(analysis.longestResponseMs, unit: "ms", source: Source.kitHandlers)
            let longest = analysis.handlers.map(\.duration).max() ?? 0
            metrics[MetricName.mainThreadLongestBlockMs] = MetricValue(Double(longest) / 1e6, unit: "ms", source: Source.kitHandlers)
            metrics[MetricName.mainThreadHangs] = MetricValue(Double(analysis.handlers(atLeast: Thresholds.hangMilliseconds).count),
                                                              unit: "count", source: Source.kitHandlers)
            let blocked = Double(analysis.blockingNanoseconds) / 1e9
            metrics[MetricName.mainThreadBlockedSeconds] = MetricValue(blocked, unit: "s", source: Source.kitHandlers)
            // A run shorter than a minute counts as one minute (as disk.avoid-frequent-writes
            // does): tens of ms of blocking in a 3 s run are not "600 ms per minute".
            metrics[MetricName.mainThreadBlockingMsPerMinute] = wall > 0
                ? MetricValue(blocked * 1000 / (max(wall, 60) / 60), unit: "ms/min", source: Source.kitHandlers)
                : .unavailable(unit: "ms/min", source: Source.kitHandlers, reason: "the run had no duration")
        }
        if let launch = analysis.launchNanoseconds {
            metrics[MetricName.lifecycleLaunchMs] = MetricValue(Double(launch) / 1e6, unit: "ms", source: Source.kitAck)
        } else {
            metrics[MetricName.lifecycleLaunchMs] = .unavailable(unit: "ms", source: Source.kitAck,
                reason: "the app never handled its first event (\(record.outcome.rawValue)\(record.outcomeDetail.map { ": " + $0 } ?? ""))")
        }
        return metrics
    }

    /// Metrics of each area (disk, memory, network, lifecycle), each defined in its own
    /// `MetricExtraction+<Area>.swift`, then each ``MetricFamily``'s. They run for black-box runs
    /// too, so each must say "unavailable" itself where its facts are missing.
    static let areaMetrics: [@Sendable (RunAnalysis, inout [String: MetricValue]) -> Void] = [diskMetrics, lifecycleMetrics, networkMetrics,
                                                                                              memoryMetrics, hardwareMetrics,
                                                                                              mainThreadHardwareMetrics, measuredEnergyMetrics]
        + MetricFamily.all.map(\.extract)

    /// The app's peak resident size: the largest `VmHWM` seen from outside (it only rises, so the
    /// last sample of each process holds its peak up to then). Not `wait4`'s `ru_maxrss`: glibc's
    /// posix_spawn runs the child in the harness's address space until exec (CLONE_VM), and the
    /// kernel folds that address space's peak into the child's, so it reported the harness.
    static func peakResidentBytes(_ record: RunRecord) -> MetricValue {
        guard let peak = record.samples.compactMap(\.peakResidentBytes).max() else {
            return .unavailable(unit: "bytes", source: Source.procPeakResident, reason: "no /proc sample of the process was taken")
        }
        return MetricValue(Double(peak), unit: "bytes", source: Source.procPeakResident)
    }

    /// Wakeups per second over the idle slices of every wait together (`RunAnalysis+Idle`).
    static func idleWakeupsPerSecond(_ analysis: RunAnalysis) -> MetricValue {
        guard !analysis.idlePhases.isEmpty else {
            return .unavailable(unit: "1/s", source: Source.procVoluntary, reason: "the scenario has no idle phase (no completed wait step)")
        }
        let accounts = analysis.idleAccounts
        let seconds = accounts.reduce(0) { $0 + $1.idleSeconds }
        guard seconds > 0 else {
            return .unavailable(unit: "1/s", source: Source.procVoluntary, reason: "the app had work of its own under way through every wait (requests, writes or frames)")
        }
        let wakeups = accounts.reduce(0) { $0 + $1.idleWakeups }
        return MetricValue(Double(wakeups) / seconds, unit: "1/s", source: Source.procVoluntary)
    }

    /// The idle wakeups per second not charged to the app (`RunAnalysis+Threads`): libdispatch's
    /// Linux-only pool monitor on its manager thread, shown by the thread's stack.
    static func idlePlatformWakeupsPerSecond(_ analysis: RunAnalysis) -> MetricValue {
        let source = Source.procThreadVoluntary
        guard !analysis.idlePhases.isEmpty else {
            return .unavailable(unit: "1/s", source: source, reason: "the scenario has no idle phase (no completed wait step)")
        }
        guard analysis.record.threadEvidence != nil else {
            return .unavailable(unit: "1/s", source: source, reason: "the harness took no evidence of the threads' roles in this run")
        }
        let accounts = analysis.idleAccounts
        let seconds = accounts.reduce(0) { $0 + $1.idleSeconds }
        guard seconds > 0 else {
            return .unavailable(unit: "1/s", source: source, reason: "the app had work of its own under way through every wait (requests, writes or frames)")
        }
        return MetricValue(Double(accounts.reduce(0) { $0 + $1.platformWakeups }) / seconds, unit: "1/s", source: source)
    }
}
