/// Wakeups by thread: which thread woke, what it is (`ThreadRole`, from evidence the harness
/// took), and which wakeups are the platform's rather than the app's.
///
/// The platform's: on Linux libdispatch has no kernel workqueue, so it watches its own thread
/// pool with a 1 Hz timer on its manager thread (`_dispatch_workq_monitor_pools`, armed with a
/// period of `NSEC_PER_SEC` in `_dispatch_workq_init_once`, swift-corelibs-libdispatch
/// src/event/workqueue.c), from the first use of a global queue (or a Swift concurrency job, or
/// URLSession, which run there) for the rest of the process's life. iOS's kernel workqueue
/// needs no such timer. Those wakeups exist only because the platform under test is Linux, so
/// they are not charged to the app: the manager thread's wakeups in idle time, up to one per
/// monitor period. More than that on the manager thread (the app's own dispatch timers and
/// sources wake it too) and everything every other thread does stay the app's.
extension RunAnalysis {
    /// The pool monitor's period, seconds (`NSEC_PER_SEC`, src/event/workqueue.c).
    public static let poolMonitorPeriodSeconds = 1.0

    /// Why the platform's wakeups are not charged, for the report.
    public static let platformReason = "libdispatch's pool monitor: on Linux, with no kernel workqueue, libdispatch wakes its manager thread every second (_dispatch_workq_monitor_pools, src/event/workqueue.c) from the first use of a global queue, Swift concurrency or URLSession; iOS has no such timer"

    /// The most wakeups the pool monitor can cause over `seconds` of contiguous time.
    public static func platformWakeupAllowance(seconds: Double) -> Int {
        Int((max(0, seconds) / poolMonitorPeriodSeconds).rounded(.down)) + 1
    }

    /// Each thread's role and its evidence, by tid, from the harness's evidence (none for records
    /// made before it took any).
    public var threadRoles: [Int32: (role: ThreadRole, because: String)] {
        var roles: [Int32: (role: ThreadRole, because: String)] = [:]
        for evidence in record.threadEvidence ?? [] { roles[evidence.tid] = ThreadRole.classify(evidence) }
        return roles
    }

    /// The processes whose pool monitor was shown to run, each with the pool thread that shows it
    /// (`ThreadRole.showsMonitoredPool`).
    public var poolMonitorEvidence: [Int32: String] {
        var shown: [Int32: String] = [:]
        for evidence in record.threadEvidence ?? [] where shown[evidence.pid] == nil && ThreadRole.showsMonitoredPool(evidence) {
            shown[evidence.pid] = "thread \(evidence.tid) '\(evidence.name)', a non-overcommit pool thread, arms it"
        }
        return shown
    }

    /// The threads whose idle wakeups may be the platform's: libdispatch's manager, in a process
    /// whose pool monitor was shown to run. Without the monitor (an app of serial queues and
    /// dispatch sources only) the manager wakes for the app's own sources: all charged.
    var platformThreads: Set<Int32> {
        let monitored = Set(poolMonitorEvidence.keys)
        return Set((record.threadEvidence ?? []).filter { evidence in
            ThreadRole.classify(evidence).role.isPlatform && monitored.contains(evidence.pid)
        }.map(\.tid))
    }

    /// The platform's wakeups in one contiguous phase (an inactive one, say): the manager's, up
    /// to the pool monitor's allowance for the phase's length, where the monitor was shown to run.
    public func platformWakeups(in phase: Phase) -> Int {
        let platform = platformThreads
        guard !platform.isEmpty else { return 0 }
        let byThread = Self.wakeupsByThread(from: phase.startSample, to: phase.endSample)
        let allowance = Self.platformWakeupAllowance(seconds: phase.seconds)
        return platform.reduce(0) { $0 + min(byThread[$1] ?? 0, allowance) }
    }

    /// The slices of `phase` between consecutive `/proc` samples (its own at both ends, those of
    /// the record between), each sampled at both ends: what idle and inactive time are cut into.
    func sampleSlices(of phase: Phase) -> [Phase] {
        var points = [phase.startSample]
        points += record.samples.filter { $0.time > phase.start && $0.time < phase.end }.sorted { $0.time < $1.time }
        points.append(phase.endSample)
        return zip(points, points.dropFirst()).filter { $0.1.time > $0.0.time }.map { earlier, later in
            Phase(start: earlier.time, end: later.time, startSample: earlier, endSample: later)
        }
    }

    /// A stretch of contiguous slices that count: its seconds and the platform threads' wakeups,
    /// capped at the pool monitor's allowance for the stretch (``platformWakeupAllowance(seconds:)``)
    /// when it ends.
    struct PlatformStretch {
        private var seconds = 0.0
        private var wakeups: [Int32: Int] = [:]

        /// Adds a slice of `seconds` and the platform threads' wakeups in it.
        mutating func add(seconds: Double, platformWakeups: [Int32: Int]) {
            self.seconds += seconds
            for (tid, count) in platformWakeups { wakeups[tid, default: 0] += count }
        }

        /// Ends the stretch: each platform thread's wakeups up to the allowance; starts anew.
        mutating func end() -> [Int32: Int] {
            let allowance = RunAnalysis.platformWakeupAllowance(seconds: seconds)
            defer { self = PlatformStretch() }
            return wakeups.mapValues { min($0, allowance) }
        }
    }

    /// Wakeups per thread between two samples (a thread born in between counts from zero).
    static func wakeupsByThread(from earlier: ProcessSample, to later: ProcessSample) -> [Int32: Int] {
        let before = Dictionary(earlier.threads.map { ($0.tid, $0.voluntaryContextSwitches) }, uniquingKeysWith: { a, _ in a })
        var result: [Int32: Int] = [:]
        for thread in later.threads {
            let delta = max(0, thread.voluntaryContextSwitches - (before[thread.tid] ?? 0))
            if delta > 0 { result[thread.tid, default: 0] += delta }
        }
        return result
    }

    /// The per-thread table: every thread seen in the run's samples, most wakeups first.
    public var threadActivity: [ThreadActivity] {
        let roles = threadRoles
        let monitors = poolMonitorEvidence
        let evidence = Dictionary((record.threadEvidence ?? []).map { ($0.tid, $0) }, uniquingKeysWith: { a, _ in a })
        var first: [Int32: ThreadSample] = [:], last: [Int32: ThreadSample] = [:]
        for sample in record.samples.sorted(by: { $0.time < $1.time }) {
            for thread in sample.threads {
                if first[thread.tid] == nil { first[thread.tid] = thread }
                last[thread.tid] = thread
            }
        }
        let firstTime = record.samples.map(\.time).min()
        let bornLater = Set(record.samples.filter { $0.time != firstTime }.flatMap { $0.threads.map(\.tid) })
            .subtracting(record.samples.filter { $0.time == firstTime }.flatMap { $0.threads.map(\.tid) })
        var idle: [Int32: Int] = [:], platform: [Int32: Int] = [:]
        for account in idleAccounts {
            for (tid, count) in account.wakeupsByThread { idle[tid, default: 0] += count }
            for (tid, count) in account.platformWakeupsByThread { platform[tid, default: 0] += count }
        }
        return last.map { tid, end in
            let start = first[tid] ?? end
            // A thread first seen after the run's first sample was born in between: count from zero.
            let born = bornLater.contains(tid)
            let wakeups = born ? end.voluntaryContextSwitches : end.voluntaryContextSwitches - start.voluntaryContextSwitches
            let cpu = born ? end.onCPUNanoseconds : end.onCPUNanoseconds &- min(start.onCPUNanoseconds, end.onCPUNanoseconds)
            var role = roles[tid] ?? (tid == record.pid || record.processes?.contains { $0.pid == tid } == true
                ? (.main, "its thread id is the process id")
                : (.unknown, "no evidence was taken (the thread came and went between looks)"))
            if role.role == .dispatchManager, let pid = evidence[tid]?.pid {
                role.because += monitors[pid].map { "; pool monitor: \($0)" }
                    ?? "; no non-overcommit pool thread seen, so no pool monitor: its wakeups are the app's"
            }
            return ThreadActivity(pid: evidence[tid]?.pid, tid: tid, name: end.name, role: role.role, evidence: role.because,
                                  wakeups: max(0, wakeups), cpuSeconds: Double(cpu) / 1e9,
                                  idleWakeups: idle[tid] ?? 0, platformWakeups: platform[tid] ?? 0)
        }.sorted { ($0.wakeups, $0.cpuSeconds, -$0.tid) > ($1.wakeups, $1.cpuSeconds, -$1.tid) }
    }
}

/// One thread's row in the report: what it is, how often it woke, what was charged to the app.
public struct ThreadActivity: Codable, Sendable, Equatable {
    /// The process it belongs to (nil where the harness took no evidence of it).
    public var pid: Int32?
    public var tid: Int32
    /// `comm` at the last look.
    public var name: String
    public var role: ThreadRole
    /// What showed the role (the thread id, a function on its stack, its name), in words.
    public var evidence: String
    /// Voluntary context switches over the run, from `/proc/<pid>/task/<tid>/status` (from its
    /// first sample, or from zero when born after the run's first sample).
    public var wakeups: Int
    /// CPU time over the run, from `schedstat`, seconds.
    public var cpuSeconds: Double
    /// Wakeups in the idle slices `power.avoid-polling` judges.
    public var idleWakeups: Int
    /// Of `idleWakeups`, those not charged to the app (libdispatch's pool monitor).
    public var platformWakeups: Int

    public init(pid: Int32?, tid: Int32, name: String, role: ThreadRole, evidence: String, wakeups: Int, cpuSeconds: Double,
                idleWakeups: Int, platformWakeups: Int) {
        self.pid = pid
        self.tid = tid
        self.name = name
        self.role = role
        self.evidence = evidence
        self.wakeups = wakeups
        self.cpuSeconds = cpuSeconds
        self.idleWakeups = idleWakeups
        self.platformWakeups = platformWakeups
    }
}

/// A run's threads for the report: the top threads by wakeups, and what was the platform's.
public struct RunThreadsSummary: Codable, Sendable, Equatable {
    /// The threads with the most wakeups over the run, most first (at most `limit`).
    public var threads: [ThreadActivity]
    /// Threads seen but left out of `threads` (fewer wakeups than the last one listed).
    public var omitted: Int
    /// Idle wakeups not charged to the app, over every idle slice.
    public var platformIdleWakeups: Int
    /// Idle wakeups charged to the app (what `power.avoid-polling` judges).
    public var appIdleWakeups: Int
    /// Why the platform's wakeups are not the app's (nil when there were none).
    public var platformReason: String?
    /// Whether the harness took evidence of the threads' roles (false: every role but main is unknown).
    public var rolesFromEvidence: Bool

    /// Rows kept in the report.
    public static let limit = 20

    public init(threads: [ThreadActivity], omitted: Int, platformIdleWakeups: Int, appIdleWakeups: Int,
                platformReason: String?, rolesFromEvidence: Bool) {
        self.threads = threads
        self.omitted = omitted
        self.platformIdleWakeups = platformIdleWakeups
        self.appIdleWakeups = appIdleWakeups
        self.platformReason = platformReason
        self.rolesFromEvidence = rolesFromEvidence
    }

    /// The summary of a run, or nil when it has no `/proc` sample.
    public init?(_ analysis: RunAnalysis) {
        let all = analysis.threadActivity
        guard !all.isEmpty else { return nil }
        let accounts = analysis.idleAccounts
        let platform = accounts.reduce(0) { $0 + $1.platformWakeups }
        self.init(threads: Array(all.prefix(Self.limit)), omitted: max(0, all.count - Self.limit),
                  platformIdleWakeups: platform, appIdleWakeups: accounts.reduce(0) { $0 + $1.idleWakeups },
                  platformReason: platform > 0 ? RunAnalysis.platformReason : nil,
                  rolesFromEvidence: analysis.record.threadEvidence != nil)
    }
}
