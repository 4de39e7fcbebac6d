/// A black-box program's metrics: the whole process tree from the kernel's exit records and the
/// run's cgroup, the program's own main thread past any wrapper, hangs seen from outside, and
/// every metric an app has that a program cannot, present as unavailable with the reason.
extension MetricExtraction.Source {
    public static let taskstatsVoluntary = "taskstats:nvcsw (every thread of every process of the run, at exit)"
    public static let taskstatsMainVoluntary = "taskstats:nvcsw (the program's main thread, past wrappers, at exit)"
    public static let exitMainVoluntary = "proc:<pid>/status.voluntary_ctxt_switches at exit (waitid WNOWAIT)"
    public static let cgroupCPU = "cgroup:cpu.stat.usage_usec (every process of the run)"
    public static let taskstatsCPU = "taskstats:ac_utime+ac_stime (every thread of every process of the run)"
    public static let taskstatsWriteBytes = "taskstats:write_bytes (every thread of every process of the run)"
    public static let taskstatsWriteCharacters = "proc:io.wchar at exit (main process, reaped descendants included) + taskstats:write_char (orphans, whole KiB)"
    public static let taskstatsWriteSyscalls = "proc:io.syscw at exit (main process, reaped descendants included) + taskstats:write_syscalls (orphans)"
    public static let peakResidentTree = "proc:status.VmHWM + taskstats:hiwater_rss (largest process of the run)"
    public static let syncTracepoints = "perf_event:syscalls:sys_enter_{fsync,fdatasync,sync_file_range} (every process of the run)"
    public static let outsideWatch = "proc:task/<tid>/{status,wchan,syscall} every 25 ms (outside the program)"
    public static let outsideWatchAfterStartup = outsideWatch + ", past its start-up (its main thread's first sustained wait, within the guide's 5 s launch)"
}

extension MetricExtraction {
    /// Metrics only FrugalKit's events give, and why a black-box program has none.
    static let programUnavailable: [(name: String, unit: String, source: String, reason: String)] = [
        (MetricName.mainThreadBlockedSeconds, "s", Source.kitHandlers, "needs the app's event-handler boundaries; a black-box program reports none"),
        (MetricName.mainThreadBlockingMsPerMinute, "ms/min", Source.kitHandlers, "needs the app's event-handler boundaries; a black-box program reports none"),
        (MetricName.mainThreadLongestResponseMs, "ms", Source.kitHandlers, "needs the app's event-handler boundaries; a black-box program reports none"),
        (MetricName.mainThreadWaitingMs, "ms", Source.kitWaiting(cpuSource: nil), "needs the app's event-handler boundaries; a black-box program reports none"),
        (MetricName.mainThreadBlockingCalls, "count", Source.kitBlockingCalls, "needs FrugalKit's blocking-call events"),
        (MetricName.lifecycleLaunchMs, "ms", Source.kitAck, "a black-box program signals no first event handled, so its launch end cannot be seen from outside"),
        (MetricName.memoryFreedOnWarningBytes, "bytes", MemorySource.deliveries, "the scenario sent the program no memory warning (a memoryWarning step, with memoryWarningSignal set in frugal.yml or --memory-warning-signal)"),
        (MetricName.memoryFreedWithin100msBytes, "bytes", MemorySource.deliveries, "the scenario sent the program no memory warning (a memoryWarning step, with memoryWarningSignal set in frugal.yml or --memory-warning-signal)"),
        (MetricName.memoryWarningResponseMs, "ms", "kit:handlers.didReceiveMemoryWarning", "a black-box program reports no warning handler"),
    ]

    static func programMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let record = analysis.record
        let wall = analysis.wallSeconds
        let containment = record.containment
        let exits = containment?.taskExits
        if let exits {
            // Less the spawned processes' switches before their exec: the harness's setup in them.
            let wakeups = Double(max(0, exits.reduce(0) { $0 + $1.voluntarySwitches } - switchesBeforeExec(record)))
            metrics[MetricName.cpuWakeups] = MetricValue(wakeups, unit: "count", source: Source.taskstatsVoluntary)
            if wall > 0 { metrics[MetricName.cpuWakeupsPerSecond] = MetricValue(wakeups / wall, unit: "1/s", source: Source.taskstatsVoluntary) }
            let storageBytes = Double(exits.reduce(0) { $0 + $1.writeBytes })
            metrics[MetricName.diskPhysicalBytesWritten] = MetricValue(storageBytes, unit: "bytes", source: Source.taskstatsWriteBytes)
            // The budget counts what reached storage: write characters (wchar) count every write
            // call, to sockets and pipes too, so a program that only talks to the network would be
            // charged its uploads as disk writes. One definition of the per-day figure (perDay): a
            // run shorter than a day is judged on what it wrote, not extrapolated.
            if wall > 0 {
                metrics[MetricName.diskBytesWrittenPerDay] = MetricValue(perDay(storageBytes, days: wall / 86_400), unit: "bytes/day",
                                                                         source: Source.taskstatsWriteBytes)
            }
            // Writes through a wrapper are its child's. A main process's `/proc/<pid>/io` at exit is
            // exact and holds what every descendant it (or they) reaped wrote; orphans' writes went
            // to no one, so they come from their exit records (which round down to whole KiB).
            // By parent at exit only: a re-parented process's writes did not go to the main process.
            let reaped = Set((record.processes ?? []).flatMap { ProcessTree(root: $0.pid, exits: exits).threadsByProcess.keys })
            let others = exits.filter { !reaped.contains($0.tgid) }
            let characters = others.compactMap(\.writeCharacters), calls = others.compactMap(\.writeSyscalls)
            if characters.count == others.count && calls.count == others.count,
               let mainCharacters = record.finalIO?.charactersWritten, let mainCalls = record.finalIO?.writeSyscalls {
                let total = Double(mainCharacters + characters.reduce(0, +))
                let calls = mainCalls + calls.reduce(0, +)
                metrics[MetricName.diskSyscallBytesWritten] = MetricValue(total, unit: "bytes", source: Source.taskstatsWriteCharacters)
                metrics[MetricName.diskWriteSyscalls] = MetricValue(Double(calls), unit: "count", source: Source.taskstatsWriteSyscalls)
            }
            if let peak = ([exits.map(\.peakResidentBytes).max()] + record.samples.map(\.peakResidentBytes)).compactMap({ $0 }).max() {
                metrics[MetricName.memoryPeakResidentBytes] = MetricValue(Double(peak), unit: "bytes", source: Source.peakResidentTree)
            }
        }
        if let seconds = containment?.cgroupCPUSeconds {
            metrics[MetricName.cpuTimeSeconds] = MetricValue(seconds, unit: "s", source: Source.cgroupCPU)
        } else if let exits {
            metrics[MetricName.cpuTimeSeconds] = MetricValue(exits.reduce(0) { $0 + $1.cpuSeconds }, unit: "s", source: Source.taskstatsCPU)
        }
        metrics[MetricName.mainThreadWakeups] = programMainThreadWakeups(record) ?? metrics[MetricName.mainThreadWakeups]
        if let syncs = record.syncCalls {
            metrics[MetricName.diskFsyncs] = syncs.total.map { MetricValue(Double($0), unit: "count", source: Source.syncTracepoints) }
                ?? .unavailable(unit: "count", source: Source.syncTracepoints, reason: syncs.unavailable ?? "not counted")
        }

        if let watch = record.outsideWatch {
            let hangs = analysis.programHangs.judged
            metrics[MetricName.mainThreadHangs] = MetricValue(Double(hangs.count), unit: "count", source: Source.outsideWatchAfterStartup)
            // A busy stretch of the hang limit or more is one of the hangs, judged or start-up's;
            // a shorter one is not a hang anywhere.
            let shortBusy = watch.longestBusyMs < Thresholds.hangMilliseconds ? watch.longestBusyMs : 0
            let longest = max(shortBusy, hangs.map(\.milliseconds).max() ?? 0)
            metrics[MetricName.mainThreadLongestBlockMs] = MetricValue(longest, unit: "ms", source: Source.outsideWatchAfterStartup)
            metrics[MetricName.mainThreadLongestWaitMs] = MetricValue(watch.longestWait?.milliseconds ?? 0, unit: "ms", source: Source.outsideWatch)
        } else {
            let reason = "the program's main thread was not watched from outside (no sample of it was taken)"
            metrics[MetricName.mainThreadHangs] = .unavailable(unit: "count", source: Source.outsideWatch, reason: reason)
            metrics[MetricName.mainThreadLongestBlockMs] = .unavailable(unit: "ms", source: Source.outsideWatch, reason: reason)
            metrics[MetricName.mainThreadLongestWaitMs] = .unavailable(unit: "ms", source: Source.outsideWatch, reason: reason)
        }

        // A program is told of the proxy (http_proxy, HTTP_PROXY, FRUGAL_PROXY) but need not use it:
        // nothing through it is "not seen", not zero.
        if let network = record.network, network.trace.totalBytes(.uplink) == 0, network.trace.totalBytes(.downlink) == 0,
           network.origin.requests == 0 {
            let unseen = Set((network.unseenConnections ?? []).map(\.remoteAddress)).sorted()
            let reason = unseen.isEmpty
                ? "no traffic went through the run's proxy; a program that ignores http_proxy/HTTP_PROXY/FRUGAL_PROXY is not seen, so this is not zero"
                : "the program's connections went past the proxy (to \(unseen.prefix(3).joined(separator: ", "))\(unseen.count > 3 ? ", ..." : "")): unseen traffic, not zero"
            metrics[MetricName.networkBytesSent] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkBytesReceived] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkTransfers] = .unavailable(unit: "count", source: Source.originRequests, reason: reason)
        }
        programSignalMetrics(analysis, &metrics)
        for entry in programUnavailable where metrics[entry.name] == nil {
            metrics[entry.name] = .unavailable(unit: entry.unit, source: entry.source, reason: entry.reason)
        }
    }

    /// The voluntary switches the spawned processes took before their exec (the harness's setup
    /// in the held child), summed over the run's processes: in the kernel's exit records, not the program's.
    static func switchesBeforeExec(_ record: RunRecord) -> Int {
        (record.processes ?? []).reduce(0) { $0 + ($1.voluntarySwitchesBeforeExec ?? 0) }
    }

    /// The program's main thread's final voluntary switches, summed over the run's processes
    /// (relaunches): from the kernel's exit records past any wrapper, else the spawned process's
    /// own at exit. Nil when neither was read.
    static func programMainThreadWakeups(_ record: RunRecord) -> MetricValue? {
        guard let processes = record.processes, !processes.isEmpty else { return nil }
        if let exits = record.containment?.taskExits {
            var total = 0
            for segment in processes {
                let tree = ProcessTree(root: segment.pid, exits: exits, stragglers: Set(record.containment?.stragglers.map(\.pid) ?? []),
                                       parentsSeen: record.containment?.parentsSeen ?? [:])
                guard let program = tree.programChain.last, let main = tree.mainThread(of: program) else { return nil }
                // The spawned process's count starts at its execve (a wrapper's child was forked
                // by the wrapper: its start is the wrapper's, as `perf stat`'s is).
                let setup = program == segment.pid ? segment.voluntarySwitchesBeforeExec ?? 0 : 0
                total += max(0, main.voluntarySwitches - setup)
            }
            return MetricValue(Double(total), unit: "count", source: Source.taskstatsMainVoluntary)
        }
        let counts = processes.compactMap(\.mainThreadWakeupsAtExit)
        guard counts.count == processes.count else { return nil }
        return MetricValue(Double(counts.reduce(0, +)), unit: "count", source: Source.exitMainVoluntary)
    }
}
