/// Lifecycle and main-thread-waiting metrics. A metric is added only when the scenario had the
/// thing it measures (an interruption, a background phase, a relaunch); otherwise it is absent.
extension MetricExtraction.Source {
    public static let kitBackgroundHandler = "kit:handlers.didEnterBackground"
    public static let procBackground = "proc:task/*/schedstat (background, no task open)"
    public static let procInactive = "proc:task/*/status.voluntary_ctxt_switches (inactive phases)"
    public static let kitPreservedState = "kit:preservedState (background vs relaunch)"
    public static let kitBackgroundTasks = "kit:backgroundTask events"
    public static let procListeners = "proc:net/tcp{,6} LISTEN ∩ fd/* socket inodes (while suspended)"
    public static let harnessResume = "harness:SIGCONT→kit:handlers.didBecomeActive"
    public static let kitRelaunchAck = "kit:ack-first-event (relaunched process)"
    public static let procSuspendedCPU = "proc:task/*/schedstat (SIGSTOP→SIGCONT)"
    public static let procSuspendedWakeups = "proc:task/*/status.voluntary_ctxt_switches (SIGSTOP→SIGCONT)"
    /// Off-CPU waiting in handlers. `cpuSource` is where the handlers' CPU time came from, as the
    /// app's runtime reported it (`papi:perf::TASK-CLOCK+…`, or `rusage:thread` where PAPI cannot
    /// count): naming PAPI always, it once claimed `perf::TASK-CLOCK` on a machine whose PAPI
    /// counted nothing.
    public static func kitWaiting(cpuSource: String?) -> String {
        "kit:handlers but willTerminate (wall − CPU time from \(cpuSource ?? "the app's thread counters") − schedstat run delay, when ru_nvcsw > 0)"
    }
    public static let kitBlockingCalls = "kit:blockingCall events (main thread)"
}

extension MetricExtraction {
    /// The least inactive time judged when requests in flight took the rest of the
    /// interruptions: under it a rate is a sample slice's few wakeups (avoid-polling's 1 s).
    static let minimumInactiveSecondsBesideRequests = 1.0

    static func lifecycleMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let record = analysis.record
        // Black-box runs too: their suspensions and background time are the harness's to measure.
        let backgroundHandlers = analysis.handlers.filter { $0.name == "didEnterBackground" }
        if let longest = backgroundHandlers.map(\.duration).max() {
            metrics[MetricName.lifecycleBackgroundTransitionMs] = MetricValue(Double(longest) / 1e6, unit: "ms", source: Source.kitBackgroundHandler)
        }
        if let work = analysis.backgroundWorkOutsideTasks, work.backgroundSeconds > 0 {
            metrics[MetricName.lifecycleBackgroundCpuSeconds] = MetricValue(work.cpuSeconds, unit: "s", source: Source.procBackground)
        }
        // The interruptions less the moments a network request was in flight (the guide allows
        // them while inactive: RunAnalysis+Inactive) or the app was finishing what an input
        // before it started (RunAnalysis+Coalescing), and less the platform's wakeups
        // (libdispatch's Linux pool monitor, RunAnalysis+Threads), as for idle.
        let inactive = analysis.inactiveAccounts
        let inactiveSeconds = inactive.reduce(0) { $0 + $1.judgedSeconds }
        let excludedSeconds = inactive.reduce(0) { $0 + $1.requestSeconds + $1.followUpSeconds }
        if inactiveSeconds > 0, excludedSeconds == 0 || inactiveSeconds >= Self.minimumInactiveSecondsBesideRequests {
            let wakeups = inactive.reduce(0) { $0 + $1.chargedWakeups }
            metrics[MetricName.lifecycleInactiveWakeupsPerSecond] = MetricValue(Double(wakeups) / inactiveSeconds, unit: "1/s", source: Source.procInactive)
        }
        let checks = analysis.preservationChecks
        if !checks.isEmpty {
            metrics[MetricName.lifecycleLostChanges] = MetricValue(Double(checks.reduce(0) { $0 + $1.lost.count }), unit: "count", source: Source.kitPreservedState)
        }
        let tasks = analysis.backgroundTasks
        if !tasks.isEmpty {
            metrics[MetricName.lifecycleExpiredBackgroundTasks] = MetricValue(Double(tasks.filter(\.reachedExpirationUnended).count),
                                                                              unit: "count", source: Source.kitBackgroundTasks)
        }
        let suspensions = record.suspensions ?? []
        if !suspensions.isEmpty {
            metrics[MetricName.lifecycleListeningSocketsWhileSuspended] = MetricValue(Double(suspensions.map(\.listeningSockets.count).max() ?? 0),
                                                                                      unit: "count", source: Source.procListeners)
            let measured = suspensions.filter { $0.cpuNanoseconds != nil }
            if measured.isEmpty {
                let reason = "no suspension had /proc samples at both ends"
                metrics[MetricName.lifecycleSuspendedCpuSeconds] = .unavailable(unit: "s", source: Source.procSuspendedCPU, reason: reason)
                metrics[MetricName.lifecycleSuspendedWakeups] = .unavailable(unit: "count", source: Source.procSuspendedWakeups, reason: reason)
            } else {
                metrics[MetricName.lifecycleSuspendedCpuSeconds] = MetricValue(Double(measured.reduce(0) { $0 + ($1.cpuNanoseconds ?? 0) }) / 1e9,
                                                                               unit: "s", source: Source.procSuspendedCPU)
                metrics[MetricName.lifecycleSuspendedWakeups] = MetricValue(Double(measured.reduce(0) { $0 + ($1.wakeups ?? 0) }),
                                                                            unit: "count", source: Source.procSuspendedWakeups)
            }
        }
        if let slowest = analysis.resumes.map(\.milliseconds).max() {
            metrics[MetricName.lifecycleResumeMs] = MetricValue(slowest, unit: "ms", source: Source.harnessResume)
        }
        if let processes = record.processes, processes.count > 1 {
            let relaunch = processes[processes.count - 1]
            let ack = record.events.first { event in
                if case .ack = event.body { return event.time >= relaunch.startTime }
                return false
            }
            metrics[MetricName.lifecycleRelaunchMs] = ack.map { MetricValue(Double($0.time - relaunch.startTime) / 1e6, unit: "ms", source: Source.kitRelaunchAck) }
                ?? .unavailable(unit: "ms", source: Source.kitRelaunchAck, reason: "the relaunched app never handled its first event")
        }
        if !analysis.handlers.isEmpty {
            // willTerminate's waits are the save the guide asks for there (RunAnalysis.isTermination).
            let counted = analysis.handlers.filter { !RunAnalysis.isTermination($0) }
            let waits = counted.compactMap(\.offCPUWaitingNanoseconds)
            let cpuSources = Set(counted.filter { $0.offCPUWaitingNanoseconds != nil }.compactMap(\.counterSource))
            let source = Source.kitWaiting(cpuSource: cpuSources.isEmpty ? nil : cpuSources.sorted().joined(separator: " and "))
            metrics[MetricName.mainThreadWaitingMs] = waits.isEmpty && !counted.isEmpty
                ? .unavailable(unit: "ms", source: source, reason: "the runtime could not read the main thread's CPU time and voluntary switches")
                : MetricValue(Double(waits.reduce(0, +)) / 1e6, unit: "ms", source: source)
            metrics[MetricName.mainThreadBlockingCalls] = MetricValue(Double(analysis.mainThreadBlockingCalls.count), unit: "count", source: Source.kitBlockingCalls)
        }
    }
}

extension RunAnalysis {
    /// FrugalKit blocking calls made on the main thread, in order.
    public var mainThreadBlockingCalls: [BlockingCall] {
        record.events.compactMap { event in
            if case .blockingCall(let call) = event.body, call.onMainThread { return call }
            return nil
        }
    }
}
