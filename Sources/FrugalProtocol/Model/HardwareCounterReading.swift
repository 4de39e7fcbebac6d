/// A run's hardware counters: what the CPU counted for the run's processes in user space
/// (instructions retired, cycles, cache misses, branch misses), with how long the counters ran
/// against how long they were enabled (the multiplexing ratio). Instructions retired are the
/// steadiest regression signal on a noisy machine: another job's load changes the time a
/// workload takes, not the instructions it executes.
public struct HardwareCounterReading: Codable, Sendable, Equatable {
    /// The events in the order they are opened.
    public static let events = ["instructions", "cycles", "cache-misses", "branch-misses"]

    public var instructions: UInt64?
    public var cycles: UInt64?
    public var cacheMisses: UInt64?
    public var branchMisses: UInt64?
    public var timeEnabledNanoseconds: UInt64?
    public var timeRunningNanoseconds: UInt64?
    /// Why there are no counts (no PMU, a paranoid kernel); nil when counted.
    public var unavailable: String?

    public init(instructions: UInt64, cycles: UInt64, cacheMisses: UInt64, branchMisses: UInt64,
                timeEnabledNanoseconds: UInt64, timeRunningNanoseconds: UInt64) {
        self.instructions = instructions
        self.cycles = cycles
        self.cacheMisses = cacheMisses
        self.branchMisses = branchMisses
        self.timeEnabledNanoseconds = timeEnabledNanoseconds
        self.timeRunningNanoseconds = timeRunningNanoseconds
    }

    public init(unavailable reason: String) {
        unavailable = reason
    }

    /// Time running ÷ time enabled: 1 when the counters had the PMU to themselves; below it the
    /// kernel multiplexed them and scaled the counts (as `perf stat` does).
    public var multiplexingRatio: Double? {
        guard let enabled = timeEnabledNanoseconds, let running = timeRunningNanoseconds, enabled > 0 else { return nil }
        return Double(running) / Double(enabled)
    }

    /// The counts of two processes of one run (a relaunch) together; unavailable if either is.
    public func adding(_ other: HardwareCounterReading) -> HardwareCounterReading {
        combined(with: other) { a, b in a.flatMap { a in b.map { a.addingReportingOverflow($0).partialValue } } }
    }
}

/// A black-box program's calls that force data to storage, counted by the kernel's syscall
/// tracepoints over every process of the run (FrugalKit apps report theirs in the journal).
public struct SyncCallFacts: Codable, Sendable, Equatable {
    public var fsync: Int?
    public var fdatasync: Int?
    public var syncFileRange: Int?
    /// Why they could not be counted (no tracefs, no privilege); nil when counted.
    public var unavailable: String?

    public init(fsync: Int, fdatasync: Int, syncFileRange: Int) {
        self.fsync = fsync
        self.fdatasync = fdatasync
        self.syncFileRange = syncFileRange
    }

    public init(unavailable reason: String) { unavailable = reason }

    /// Two processes of one run (a relaunch) together; unavailable if either is.
    public func adding(_ other: SyncCallFacts) -> SyncCallFacts {
        if let reason = unavailable ?? other.unavailable { return SyncCallFacts(unavailable: reason) }
        return SyncCallFacts(fsync: (fsync ?? 0) + (other.fsync ?? 0), fdatasync: (fdatasync ?? 0) + (other.fdatasync ?? 0),
                             syncFileRange: (syncFileRange ?? 0) + (other.syncFileRange ?? 0))
    }

    /// All three together; nil when not counted.
    public var total: Int? {
        guard unavailable == nil, let fsync, let fdatasync, let syncFileRange else { return nil }
        return fsync + fdatasync + syncFileRange
    }
}
