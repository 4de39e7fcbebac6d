/// Where a black-box program's start-up ended, judged from outside (its main thread's samples),
/// and why. A program signals no "first event handled" the way a FrugalKit app does, so its
/// launch step ends at the spawn; what follows it — loading, reading configuration — is start-up
/// work, not idle time, until the program first waits for something to happen.
///
/// The guide asks an app to "start handling events in less than 5 seconds": launch ends when the
/// app waits for its events. From outside, Linux shows that moment on any program: the main thread
/// asleep interruptibly (`S` in `/proc/<pid>/task/<tid>/status`: a wait for an event, a timer, a
/// pipe or socket — not the disk, which is `D`) and not run at all from one sample to the next
/// (its on-CPU time from `schedstat` and its voluntary switches unchanged), so the wait lasted at
/// least the sampling interval. A thread loading files or parsing runs, or waits on the disk, or
/// sleeps for well under a 25 ms interval between reads of the page cache; a main thread waiting
/// for a worker that loads (a `futex`) or for a child (`wait4`) is not waiting for events.
public struct ProgramStartup: Codable, Sendable, Equatable {
    /// Monotonic ns when the watch of the process began (its spawn).
    public var start: UInt64
    /// Monotonic ns of the first sample of the first sustained wait; nil when none was seen (the
    /// program never waited a whole interval, or its thread could not be read).
    public var end: UInt64?
    /// Where the kernel saw the thread wait (`wchan`, and the system call's number).
    public var wchan: String?
    public var syscall: String?
    /// The judgement in words, for the report.
    public var reason: String

    public init(start: UInt64, end: UInt64?, wchan: String?, syscall: String?, reason: String) {
        self.start = start
        self.end = end
        self.wchan = wchan
        self.syscall = syscall
        self.reason = reason
    }
}

/// Finds a program's start-up end in its main thread's samples, in time order (``ProgramStartup``).
/// Pure, so the harness's watcher and the tests share it.
public struct StartupJudge: Sendable {
    public let start: UInt64
    private var previous: (time: UInt64, state: ThreadWaitState, tid: Int32)?
    public private(set) var end: (time: UInt64, state: ThreadWaitState)?

    public init(start: UInt64) { self.start = start }

    /// Whether a sample shows the thread waiting for an event: `S`, or (under `dispatchMain()`)
    /// the main queue not being drained by any thread. Two interruptible waits are not for events:
    /// for a child process (`wait4`, `waitid`: `do_wait` in the kernel) — a wrapper shell waits so
    /// while the program it started is still loading, and the watch moves to that program once it
    /// sees it — and for another thread (`futex`: a join or a lock), as a main thread does while a
    /// worker loads for it. A program whose main thread only ever waits so has no start-up end
    /// seen, and all its time is judged as before.
    static func waiting(_ state: ThreadWaitState, idle: Bool) -> Bool {
        if idle { return true }
        guard state.state == "S" else { return false }
        return state.wchan != "do_wait" && !(state.syscall.map(notEventWaits.contains) ?? false)
    }

    /// `wait4`, `waitid`, `futex`, `futex_waitv` (x86-64 and arm64 numbers).
    static let notEventWaits: Set<String> = {
        #if arch(x86_64)
        return ["61", "247", "202", "449"]
        #else
        return ["260", "95", "98", "449"]
        #endif
    }()

    /// One sample of the watched main thread (`tid`: a new thread id starts over).
    public mutating func observe(tid: Int32, time: UInt64, state: ThreadWaitState, idle: Bool = false) {
        guard end == nil else { return }
        let waiting = Self.waiting(state, idle: idle)
        if waiting, let previous, previous.tid == tid, Self.waiting(previous.state, idle: idle), time > previous.time,
           state.onCPUNanoseconds == previous.state.onCPUNanoseconds,
           state.voluntaryContextSwitches == previous.state.voluntaryContextSwitches {
            end = (previous.time, previous.state)
            return
        }
        previous = waiting ? (time, state, tid) : nil
    }

    /// The judgement so far.
    public var result: ProgramStartup {
        guard let end else {
            return ProgramStartup(start: start, end: nil, wchan: nil, syscall: nil,
                                  reason: "no sustained wait of the main thread was seen (it never slept a whole sampling interval without running)")
        }
        let place = [end.state.wchan.map { "in \($0)" }, end.state.syscall.map { "system call \($0)" }].compactMap { $0 }.joined(separator: ", ")
        let seconds = Double(end.time &- start) / 1e9
        return ProgramStartup(start: start, end: end.time, wchan: end.state.wchan, syscall: end.state.syscall,
                              reason: "start-up ended \(DisplayFormat.number(seconds)) s after the spawn, at the main thread's first sustained wait"
                                + (place.isEmpty ? "" : " (\(place))")
                                + ": asleep interruptibly and not run from one sample to the next, so it waited for an event, not for work")
    }
}
