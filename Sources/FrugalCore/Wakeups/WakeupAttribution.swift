/// Every wakeup of a run's threads with its cause, from the kernel's scheduler tracepoints
/// (`WakeupAttributor` over `SchedulerEvent`s): what woke the thread and the Swift function
/// behind it. Stored in the run record; the report keeps only the top causes (`RunWakeupCauses`).
public struct WakeupAttribution: Codable, Sendable, Equatable {
    /// Where the events came from (`perf:sched:sched_switch+sched:sched_waking+raw_syscalls:sys_exit`).
    public var source: String
    /// Why there is no trace (not root, `perf_event_paranoid`, no tracefs, no v2 cgroup); nil when traced.
    public var unavailable: String?
    /// The causes, each once; `wakeups` point into it.
    public var causes: [WakeupCause]
    public var wakeups: [AttributedWakeup]
    /// Samples the kernel dropped because the tracer's buffer was full: wakeups missing from `wakeups`.
    public var lostSamples: UInt64
    /// Wakeups beyond the record's cap (`WakeupAttributor.wakeupCap`), counted but not kept one by one.
    public var droppedWakeups: Int
    /// CPU seconds the harness spent tracing (its reader thread, the last drain, the
    /// attribution); nil when not measured. The kernel's share, in the app's own threads, is not in it.
    public var tracerCPUSeconds: Double?

    public init(source: String, unavailable: String? = nil, causes: [WakeupCause] = [], wakeups: [AttributedWakeup] = [],
                lostSamples: UInt64 = 0, droppedWakeups: Int = 0) {
        self.source = source
        self.unavailable = unavailable
        self.causes = causes
        self.wakeups = wakeups
        self.lostSamples = lostSamples
        self.droppedWakeups = droppedWakeups
    }

    /// The same wakeups with each main-thread wakeup's cause carrying the FrugalKit handler
    /// that started within `window` ns after it (`handlers`: start and name, any order).
    public func namingHandlers(_ handlers: [(start: UInt64, name: String)], window: UInt64 = 50_000_000) -> WakeupAttribution {
        guard !handlers.isEmpty else { return self }
        let starts = handlers.sorted { $0.start < $1.start }
        var result = self
        var index: [WakeupCause: Int] = Dictionary(causes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (position, wakeup) in wakeups.enumerated() where wakeup.tid == wakeup.pid {
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle].start < wakeup.time { low = middle + 1 } else { high = middle }
            }
            guard low < starts.count, starts[low].start - wakeup.time <= window else { continue }
            var cause = result.causes[wakeup.cause]
            cause.handler = starts[low].name
            if let known = index[cause] {
                result.wakeups[position].cause = known
            } else {
                result.causes.append(cause)
                index[cause] = result.causes.count - 1
                result.wakeups[position].cause = result.causes.count - 1
            }
        }
        return result
    }

    /// No trace, and why.
    public static func unavailable(_ reason: String) -> WakeupAttribution {
        WakeupAttribution(source: WakeupAttributor.source, unavailable: reason)
    }
}

/// One wakeup: a thread that had gone to sleep (a voluntary switch) running again.
public struct AttributedWakeup: Codable, Sendable, Equatable {
    /// Monotonic ns when it was woken (the waker's wakeup when the run's own thread woke it,
    /// else when its wait returned).
    public var time: UInt64
    public var pid: Int32
    public var tid: Int32
    /// Index into `WakeupAttribution.causes`.
    public var cause: Int

    public init(time: UInt64, pid: Int32, tid: Int32, cause: Int) {
        (self.time, self.pid, self.tid, self.cause) = (time, pid, tid, cause)
    }
}

/// What woke a thread.
public enum WakeupKind: String, Codable, Sendable, CaseIterable {
    /// A timeout: a wait's deadline passed (epoll/poll returning 0, a timed futex wait timing
    /// out, `nanosleep`).
    case timer
    /// A descriptor became ready (epoll/poll/select returned events) and no thread of the run
    /// made it so: a pipe or socket from outside, a timerfd, an eventfd signalled from outside.
    case io = "I/O readiness"
    /// A signal interrupted the wait (`EINTR`, the kernel's restart codes).
    case signal
    /// Another thread of the same process woke it (a futex wake, an eventfd or pipe write, ...):
    /// the cause is where that thread was.
    case thread = "another thread"
    /// A thread of another process of the run woke it.
    case process = "another process"
    /// Woken from outside the run with no wait result seen (a page fault's I/O, a wait the
    /// tracer does not follow).
    case other
}

/// One cause: a kind and the function it comes down to.
public struct WakeupCause: Codable, Sendable, Equatable, Hashable {
    public var kind: WakeupKind
    /// The function named as the cause: the innermost of the app's own frames on the waker's
    /// stack (another thread), or on what the woken thread did before sleeping again (a timer:
    /// its handler), or where it waited; nil when no frame could be named (not attributed).
    public var symbol: String?
    /// The binary or library holding `symbol`.
    public var module: String?
    /// The system call the woken thread waited in (`epoll_wait`, `futex`), when seen.
    public var via: String?
    /// Which stack named the symbol: `waker`, `handler` (what the woken thread did), `wait`
    /// (where it slept), or `inferred` (a rule about the platform, said in `note`).
    public var from: String?
    /// Why a symbol was inferred rather than read off a stack.
    public var note: String?
    /// The FrugalKit handler the woken main thread ran next (`timer:poll`, `posted:feed-checked`),
    /// from the app's event stream: names a timer whose handler left no frame on a stack the
    /// tracer saw. Nil off the main thread, for a program, or with no handler within 50 ms.
    public var handler: String?

    public init(kind: WakeupKind, symbol: String?, module: String?, via: String? = nil, from: String? = nil, note: String? = nil,
                handler: String? = nil) {
        (self.kind, self.symbol, self.module, self.via, self.from, self.note) = (kind, symbol, module, via, from, note)
        self.handler = handler
    }
}

/// A resolved user-space frame: its file's name and the function, demangled.
public struct TraceFrame: Codable, Sendable, Equatable, Hashable {
    public var module: String
    public var symbol: String?
    public init(module: String, symbol: String?) {
        self.module = module
        self.symbol = symbol
    }
}

/// A scheduler event of a thread in the run, decoded and symbolized.
public struct SchedulerEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `sched_switch` with this thread as `prev`: `state` is `prev_state` (0: preempted, still runnable).
        case sleep(state: Int64)
        /// `sched_waking` fired by this thread, waking `target`.
        case wake(target: Int32)
        /// `raw_syscalls:sys_exit` of a waiting system call (`number`, `result`).
        case syscallExit(number: Int64, result: Int64)
    }
    public var time: UInt64
    public var pid: Int32
    public var tid: Int32
    public var kind: Kind
    /// The thread's user-space stack when the event fired, innermost first (sleeps and wakes).
    public var stack: [TraceFrame]

    public init(time: UInt64, pid: Int32, tid: Int32, kind: Kind, stack: [TraceFrame] = []) {
        (self.time, self.pid, self.tid, self.kind, self.stack) = (time, pid, tid, kind, stack)
    }
}
