/// A thread as the kernel shows it from outside: whether it runs, and where it waits.
public struct ThreadWaitState: Codable, Sendable, Equatable {
    /// The state letter of `/proc/<pid>/task/<tid>/status` (`R` running, `S` sleeping, `D` in
    /// uninterruptible wait, `T` stopped).
    public var state: String
    /// The kernel function the thread sleeps in (`wchan`); nil while it runs or where the
    /// machine hides it.
    public var wchan: String?
    /// The system call it is blocked in (`syscall`'s first field: a number, or `running`); nil
    /// where the machine hides it.
    public var syscall: String?
    public var voluntaryContextSwitches: Int
    public var involuntaryContextSwitches: Int
    public var onCPUNanoseconds: UInt64

    public init(state: String, wchan: String?, syscall: String?, voluntaryContextSwitches: Int, involuntaryContextSwitches: Int,
                onCPUNanoseconds: UInt64) {
        self.state = state
        self.wchan = wchan
        self.syscall = syscall
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.onCPUNanoseconds = onCPUNanoseconds
    }
}

/// A black-box program's main thread unresponsive for at least the hang limit, seen from outside:
/// off the CPU in one blocking wait (no voluntary switch in between), or on it without yielding.
public struct OutsideHang: Codable, Sendable, Equatable {
    /// Monotonic ns of the first and last sample of the stretch.
    public var start: UInt64
    public var end: UInt64
    /// `blocked` (one wait, no wakeup) or `busy` (on the CPU without yielding).
    public var kind: String
    /// The kernel's view of where it waited, from the samples (`wchan`, the syscall number).
    public var wchan: String?
    public var syscall: String?

    public init(start: UInt64, end: UInt64, kind: String, wchan: String?, syscall: String?) {
        self.start = start
        self.end = end
        self.kind = kind
        self.wchan = wchan
        self.syscall = syscall
    }

    public var milliseconds: Double { Double(end &- start) / 1e6 }

    /// The kind of a main thread on the CPU from its spawn for the guide's 5 s launch or more
    /// without once waiting (`OutsideStretchTracker`): its launch never ended.
    public static let neverWaitedKind = "busy from its spawn, never waiting"
}

/// What the outside watch of a black-box program's main thread saw over the run.
public struct OutsideWatchFacts: Codable, Sendable, Equatable {
    public var hangs: [OutsideHang]
    /// The longest stretch on the CPU without a voluntary switch, ms.
    public var longestBusyMs: Double
    /// Samples taken (each a read of the thread's state, `wchan` and `syscall`).
    public var samples: Int
    /// Files the machine would not let the harness read (`wchan`, `syscall`).
    public var unreadable: [String]
    /// The sampling interval, seconds: stretches shorter than it are not seen.
    public var intervalSeconds: Double
    /// The longest off-CPU wait of the main thread in one blocking call after launch (no voluntary
    /// switch in between), with where the kernel saw it wait; hung or idle cannot be told apart
    /// from outside unless an answer was expected, so it is reported, not judged. Nil: none seen.
    public var longestWait: OutsideHang?
    /// The thread(s) judged to be the program's main thread, and why (the thread that runs its main
    /// queue or run loop); nil in records made before the harness judged it (thread 1 was watched).
    public var mainThreads: [MainThreadChoice]?
    /// Where each process's start-up ended (``ProgramStartup``), one per process watched; nil in
    /// records made before the harness judged it (the launch step then ended at the spawn).
    public var startups: [ProgramStartup]?

    public init(hangs: [OutsideHang], longestBusyMs: Double, samples: Int, unreadable: [String], intervalSeconds: Double,
                longestWait: OutsideHang? = nil, mainThreads: [MainThreadChoice]? = nil, startups: [ProgramStartup]? = nil) {
        self.startups = startups
        self.longestWait = longestWait
        self.mainThreads = mainThreads
        self.hangs = hangs
        self.longestBusyMs = longestBusyMs
        self.samples = samples
        self.unreadable = unreadable
        self.intervalSeconds = intervalSeconds
    }
}
