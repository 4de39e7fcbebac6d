/// The metric vocabulary (docs/ARCHITECTURE.md, "The user's contract"). Users and CI rely on these strings.
public enum MetricName {
    /// CPU seconds (user + system) of the workload process, all threads.
    public static let cpuTimeSeconds = "cpu.timeSeconds"
    /// Voluntary context switches of all threads: each is a thread that slept and was woken.
    public static let cpuWakeups = "cpu.wakeups"
    /// `cpu.wakeups` divided by the run's wall time.
    public static let cpuWakeupsPerSecond = "cpu.wakeupsPerSecond"
    /// Wakeups per second during idle phases (no event pending from the harness), charged to the
    /// app: the platform's (`cpu.idlePlatformWakeupsPerSecond`) are left out.
    public static let cpuIdleWakeupsPerSecond = "cpu.idleWakeupsPerSecond"
    /// Idle wakeups per second that are the platform's, not the app's: libdispatch's Linux-only
    /// pool monitor on its manager thread (docs/THREADS.md).
    public static let cpuIdlePlatformWakeupsPerSecond = "cpu.idlePlatformWakeupsPerSecond"
    /// Voluntary context switches of the main thread.
    public static let mainThreadWakeups = "mainThread.wakeups"
    /// Hardware counters of the whole run (user space): instructions retired, cycles, their ratio,
    /// cache and branch misses, and the counters' multiplexing ratio (time running ÷ enabled).
    public static let cpuInstructions = "cpu.instructions"
    public static let cpuCycles = "cpu.cycles"
    public static let cpuInstructionsPerCycle = "cpu.instructionsPerCycle"
    public static let cpuCacheMisses = "cpu.cacheMisses"
    public static let cpuBranchMisses = "cpu.branchMisses"
    public static let cpuCounterMultiplexing = "cpu.counterMultiplexing"
    /// The longest single handler on the main run loop.
    public static let mainThreadLongestBlockMs = "mainThread.longestBlockMs"
    /// Handlers of 250 ms or more.
    public static let mainThreadHangs = "mainThread.hangs"
    /// A black-box program's longest off-CPU wait in one blocking call after launch, seen from outside.
    public static let mainThreadLongestWaitMs = "mainThread.longestWaitMs"
    /// Σ max(0, handler − 50 ms) over the run.
    public static let mainThreadBlockedSeconds = "mainThread.blockedSeconds"
    /// Σ max(0, handler − 50 ms) per minute of run time.
    public static let mainThreadBlockingMsPerMinute = "mainThread.blockingMsPerMinute"
    /// The longest the main thread stayed busy answering one input (or in a hang no input
    /// started), less time waiting for a CPU: `main.no-long-blocks`' number.
    public static let mainThreadLongestResponseMs = "mainThread.longestResponseMs"
    /// ms from exec to the first event handled.
    public static let lifecycleLaunchMs = "lifecycle.launchMs"
    /// The run's wall time.
    public static let runWallSeconds = "run.wallSeconds"
    /// Peak resident set size.
    public static let memoryPeakResidentBytes = "memory.peakResidentBytes"
    /// Major page faults of the process.
    public static let memoryMajorFaults = "memory.majorFaults"
    /// Bytes the process caused to be written to storage (`/proc/<pid>/io` write_bytes).
    public static let diskPhysicalBytesWritten = "disk.physicalBytesWritten"
    /// ms in the longest `didEnterBackground`.
    public static let lifecycleBackgroundTransitionMs = "lifecycle.backgroundTransitionMs"
    /// CPU seconds in the background outside background tasks.
    public static let lifecycleBackgroundCpuSeconds = "lifecycle.backgroundCpuSeconds"
    /// Wakeups per second while inactive (interruptions).
    public static let lifecycleInactiveWakeupsPerSecond = "lifecycle.inactiveWakeupsPerSecond"
    /// Preserved values lost across kill-while-suspended and relaunch.
    public static let lifecycleLostChanges = "lifecycle.lostChanges"
    /// Background tasks whose expiration handler was called and that were never ended.
    public static let lifecycleExpiredBackgroundTasks = "lifecycle.expiredBackgroundTasks"
    /// Listening sockets held while suspended (the most at any suspension).
    public static let lifecycleListeningSocketsWhileSuspended = "lifecycle.listeningSocketsWhileSuspended"
    /// ms from resume to the end of `didBecomeActive` (the slowest return to the foreground).
    public static let lifecycleResumeMs = "lifecycle.resumeMs"
    /// ms from the relaunch's spawn to its first event handled.
    public static let lifecycleRelaunchMs = "lifecycle.relaunchMs"
    /// CPU seconds accrued while suspended (all suspensions; 0 when suspension is real).
    public static let lifecycleSuspendedCpuSeconds = "lifecycle.suspendedCpuSeconds"
    /// Wakeups while suspended (all suspensions; 0 when suspension is real).
    public static let lifecycleSuspendedWakeups = "lifecycle.suspendedWakeups"
    /// Off-CPU waiting of the main thread inside handlers, ms.
    public static let mainThreadWaitingMs = "mainThread.waitingMs"
    /// FrugalKit blocking calls (file, network) made on the main thread.
    public static let mainThreadBlockingCalls = "mainThread.blockingCalls"
}

extension MetricName {
    /// Bytes the device sent through the shaping proxy (headers and bodies).
    public static let networkBytesSent = "network.bytesSent"
    /// Bytes the device received through the shaping proxy.
    public static let networkBytesReceived = "network.bytesReceived"
    /// HTTP requests the origin server answered.
    public static let networkTransfers = "network.transfers"
    /// Seconds the radio was up because of traffic: promotion, active and tail.
    public static let networkRadioActiveSeconds = "network.radioActiveSeconds"
    /// The tail part of `network.radioActiveSeconds`: up after the last byte, waiting for a timer.
    public static let networkRadioTailSeconds = "network.radioTailSeconds"
    /// Radio energy the traffic caused (promotion + active + tail; the idle baseline left out).
    public static let networkRadioJoules = "network.radioJoules"
    /// Radio promotions (idle → connected).
    public static let networkRadioPromotions = "network.radioPromotions"
    /// Bytes of held memory (anonymous + file, from outside) given back within 1 s of the first warning.
    public static let memoryFreedOnWarningBytes = "memory.freedOnWarningBytes"
    /// The same within 100 ms.
    public static let memoryFreedWithin100msBytes = "memory.freedWithinHundredMsBytes"
    /// The worst warning's fraction of the footprint gained since launch still held 1 s later
    /// (`memory.respond-to-warnings`' number).
    public static let memoryWarningRetainedFraction = "memory.warningRetainedFraction"
    /// The median background interval's fraction of the footprint gained since launch still held
    /// late in the background (`memory.free-on-background`'s number).
    public static let memoryBackgroundRetainedFraction = "memory.backgroundRetainedFraction"
    /// The slowest warning: ms from delivery to the handler's return.
    public static let memoryWarningResponseMs = "memory.warningResponseMs"
    /// Peak held anonymous bytes (`Anonymous − LazyFree` of smaps_rollup).
    public static let memoryPeakAnonymousBytes = "memory.peakAnonymousBytes"
    /// Peak file-backed resident bytes.
    public static let memoryPeakFileBytes = "memory.peakFileBytes"
    /// Peak `LazyFree` bytes (MADV_FREE pages not yet taken).
    public static let memoryPeakLazyFreeBytes = "memory.peakLazyFreeBytes"
    /// Purgeable pages the kernel discarded, found by their cookies.
    public static let memoryPurgeableDiscardedPages = "memory.purgeableDiscardedPages"
    /// Major faults of re-touching a mapped range after its pages were dropped.
    public static let memoryRetouchMajorFaults = "memory.retouchMajorFaults"
    /// ms to re-touch a mapped range after its pages were dropped (the rebuild cost).
    public static let memoryRetouchMs = "memory.retouchMs"
    /// Held anonymous growth per identical cycle (median).
    public static let memoryGrowthPerCycleBytes = "memory.growthPerCycleBytes"
    /// Bytes of resources loaded at launch and never used.
    public static let memoryUnusedLaunchResourceBytes = "memory.unusedLaunchResourceBytes"
    /// Peak bytes held in whole-file copies of resources over 1 MiB.
    public static let memoryLargeResourceCopyBytes = "memory.largeResourceCopyBytes"
    /// Kernel memory-pressure events on the workload's cgroup.
    public static let memoryKernelPressureEvents = "memory.kernelPressureEvents"
    /// 1 when the OOM killer took the workload under real pressure, else 0.
    public static let memoryOOMKilled = "memory.oomKilled"
}
