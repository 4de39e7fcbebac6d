/// What the harness saw of a run's memory from outside: the cgroup it ran in, the warnings it
/// delivered (with the process's memory around each), the kernel's pressure events, and
/// whether the OOM killer took the workload.
public struct MemoryRunFacts: Codable, Sendable, Equatable {
    /// `v1`, `v2`, or nil when the run had no memory cgroup.
    public var cgroupController: String?
    /// The workload's cgroup directory, when it had one.
    public var cgroupPath: String?
    /// Why there was no cgroup (not root, no controller), when there was none.
    public var cgroupUnavailable: String?
    /// How the workload was placed in its cgroup.
    public var placement: String?
    public var deliveries: [WarningDelivery]
    public var pressureEvents: [PressureEvent]
    public var limitChanges: [LimitChange]
    /// The OOM killer's kill count in the workload's cgroup at the end of the run.
    public var oomKills: Int?
    /// Whether the workload itself was killed by the OOM killer.
    public var killedByOOM: Bool

    public init(cgroupController: String? = nil, cgroupPath: String? = nil, cgroupUnavailable: String? = nil,
                placement: String? = nil, deliveries: [WarningDelivery] = [], pressureEvents: [PressureEvent] = [],
                limitChanges: [LimitChange] = [], oomKills: Int? = nil, killedByOOM: Bool = false) {
        self.cgroupController = cgroupController
        self.cgroupPath = cgroupPath
        self.cgroupUnavailable = cgroupUnavailable
        self.placement = placement
        self.deliveries = deliveries
        self.pressureEvents = pressureEvents
        self.limitChanges = limitChanges
        self.oomKills = oomKills
        self.killedByOOM = killedByOOM
    }
}

/// A warning the harness sent to the app, with the process's memory sampled from outside at
/// delivery, 100 ms and 1 s later.
public struct WarningDelivery: Codable, Sendable, Equatable {
    public var sequence: Int
    public var level: MemoryWarningLevel
    /// `scenario` for a `memoryWarning` step; `kernel:<level>` for a forwarded pressure event.
    public var origin: String
    /// Monotonic ns when the message was written to the control pipe.
    public var time: UInt64
    public var atDelivery: MemoryBreakdown?
    public var after100ms: MemoryBreakdown?
    public var after1s: MemoryBreakdown?

    public init(sequence: Int, level: MemoryWarningLevel, origin: String, time: UInt64, atDelivery: MemoryBreakdown? = nil,
                after100ms: MemoryBreakdown? = nil, after1s: MemoryBreakdown? = nil) {
        self.sequence = sequence
        self.level = level
        self.origin = origin
        self.time = time
        self.atDelivery = atDelivery
        self.after100ms = after100ms
        self.after1s = after1s
    }

    /// Held bytes given back within 100 ms, nil when a sample is missing.
    public var freedWithin100ms: Int? {
        guard let before = atDelivery, let after = after100ms else { return nil }
        return before.heldBytes - after.heldBytes
    }

    /// Held bytes given back within 1 s, nil when a sample is missing.
    public var freedWithin1s: Int? {
        guard let before = atDelivery, let after = after1s else { return nil }
        return before.heldBytes - after.heldBytes
    }
}

/// A kernel memory-pressure notification about the workload's cgroup.
public struct PressureEvent: Codable, Sendable, Equatable {
    public var time: UInt64
    /// `low`, `medium`, `critical` (v1 `memory.pressure_level`) or `psi` (a v2 PSI trigger).
    public var level: String
    /// Where it came from: `cgroup.event_control:memory.pressure_level`, `memory.pressure`.
    public var source: String

    public init(time: UInt64, level: String, source: String) {
        self.time = time
        self.level = level
        self.source = source
    }
}

/// A change of the workload cgroup's limit by a `pressure` step.
public struct LimitChange: Codable, Sendable, Equatable {
    public var time: UInt64
    /// The limit the scenario asked for.
    public var requestedBytes: Int
    /// The limit in force afterwards (v1 refuses a limit below what it cannot reclaim).
    public var appliedBytes: Int?
    /// Cgroup usage just before and just after.
    public var usageBefore: Int?
    public var usageAfter: Int?
    /// What happened, in words (EBUSY, the fallback taken).
    public var note: String?

    public init(time: UInt64, requestedBytes: Int, appliedBytes: Int?, usageBefore: Int?, usageAfter: Int?, note: String?) {
        self.time = time
        self.requestedBytes = requestedBytes
        self.appliedBytes = appliedBytes
        self.usageBefore = usageBefore
        self.usageAfter = usageAfter
        self.note = note
    }
}
