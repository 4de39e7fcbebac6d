/// One look at a process from outside, through `/proc/<pid>/task/*` (taken by the harness,
/// so the workload never wakes up to be measured).
public struct ProcessSample: Codable, Sendable, Equatable {
    /// Monotonic nanoseconds when the sample was taken.
    public var time: UInt64
    public var threads: [ThreadSample]
    /// `VmRSS` from `/proc/<pid>/status`, bytes.
    public var residentBytes: Int?
    /// `VmHWM` from `/proc/<pid>/status`: the process's peak resident bytes so far.
    public var peakResidentBytes: Int?
    /// `write_bytes` from `/proc/<pid>/io`.
    public var physicalBytesWritten: Int?
    /// `wchar` from `/proc/<pid>/io`: bytes passed to write system calls (files, pipes, terminals).
    public var charactersWritten: Int?
    /// `syscw` from `/proc/<pid>/io`: write system calls.
    public var writeSyscalls: Int?

    /// Resident memory by kind from `/proc/<pid>/smaps_rollup` (nil where it could not be read).
    public var memory: MemoryBreakdown?

    public init(time: UInt64, threads: [ThreadSample], residentBytes: Int? = nil, physicalBytesWritten: Int? = nil,
                charactersWritten: Int? = nil, writeSyscalls: Int? = nil, memory: MemoryBreakdown? = nil) {
        self.time = time
        self.threads = threads
        self.residentBytes = residentBytes
        self.physicalBytesWritten = physicalBytesWritten
        self.charactersWritten = charactersWritten
        self.writeSyscalls = writeSyscalls
        self.memory = memory
    }

    /// Whether every thread is off the CPU: the app has finished reacting to what it was sent.
    public var isQuiet: Bool { threads.allSatisfy(\.isQuiet) }

    /// Sum of voluntary context switches over the sampled threads.
    public var voluntaryContextSwitches: Int { threads.reduce(0) { $0 + $1.voluntaryContextSwitches } }

    /// Sum of on-CPU nanoseconds over the sampled threads.
    public var onCPUNanoseconds: UInt64 { threads.reduce(0) { $0 + $1.onCPUNanoseconds } }

    /// Wakeups between `earlier` and this sample: per-thread voluntary switch deltas; a thread
    /// born in between counts from zero. Threads that died in between are lost (an undercount
    /// that `wait4`'s totals do not have).
    public func wakeups(since earlier: ProcessSample) -> Int {
        let before = Dictionary(earlier.threads.map { ($0.tid, $0.voluntaryContextSwitches) }, uniquingKeysWith: { a, _ in a })
        return threads.reduce(0) { sum, thread in
            sum + max(0, thread.voluntaryContextSwitches - (before[thread.tid] ?? 0))
        }
    }

    /// On-CPU nanoseconds between `earlier` and this sample, with the same thread rules.
    public func onCPUNanoseconds(since earlier: ProcessSample) -> UInt64 {
        let before = Dictionary(earlier.threads.map { ($0.tid, $0.onCPUNanoseconds) }, uniquingKeysWith: { a, _ in a })
        return threads.reduce(0) { sum, thread in
            let previous = before[thread.tid] ?? 0
            return sum + (thread.onCPUNanoseconds > previous ? thread.onCPUNanoseconds - previous : 0)
        }
    }
}

/// One thread's counters from `/proc/<pid>/task/<tid>/{status,schedstat}`.
public struct ThreadSample: Codable, Sendable, Equatable {
    public var tid: Int32
    /// `comm`, the thread's name.
    public var name: String
    public var voluntaryContextSwitches: Int
    public var involuntaryContextSwitches: Int
    /// First field of `schedstat`: time spent on the CPU, ns.
    public var onCPUNanoseconds: UInt64
    /// The scheduler state letter from `status` (`R` running, `S` sleeping, `D` disk wait, `T` stopped).
    public var state: String?

    public init(tid: Int32, name: String, voluntaryContextSwitches: Int, involuntaryContextSwitches: Int,
                onCPUNanoseconds: UInt64, state: String? = nil) {
        self.tid = tid
        self.name = name
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.onCPUNanoseconds = onCPUNanoseconds
        self.state = state
    }

    /// Whether the thread is off the CPU waiting (sleeping, in disk wait, or stopped).
    public var isQuiet: Bool { state.map { $0 != "R" } ?? false }
}
