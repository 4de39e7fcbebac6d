/// Turns a run's scheduler events into attributed wakeups. Pure, so it is tested on events
/// built by hand.
///
/// A wakeup is a thread of the run going to sleep (`sched_switch` with it as `prev`, not
/// runnable: what `/proc`'s voluntary context switches count) and then running again. The
/// tracer sees only what happens *on* the run's threads (its events are counted on the run's
/// cgroup), so a wakeup's cause is found from both sides:
///  - a thread of the run that woke it shows up as the `sched_waking` it fired, with its stack:
///    the cause is another thread (or process), at the app's innermost frame on that stack;
///  - otherwise the woken thread's waiting system call says what ended the wait when it
///    returns (`raw_syscalls:sys_exit`): 0 from epoll/poll or `ETIMEDOUT` from a futex is a
///    timer, events from epoll/poll are I/O readiness, `EINTR` a signal. A timer wakes a thread
///    to run something: the cause is named from what the thread did before it slept again (the
///    stack of the first thread it woke in turn, or of a wait it made), else from where it waited.
public enum WakeupAttributor {
    public static let source = "perf:sched:sched_switch+sched:sched_waking+raw_syscalls:sys_exit (run cgroup, user callchains)"
    /// How long before a thread's switch to sleep a wakeup fired at it still counts as the one
    /// that ends that sleep (it was on its way to sleep when woken), ns.
    static let earlyWakeWindow: UInt64 = 2_000_000
    /// Wakeups kept one by one in a record; more are counted in `droppedWakeups`.
    public static let wakeupCap = 500_000

    /// libdispatch's manager thread's functions (src/queue.c, src/event/event_epoll.c).
    static let managerFunctions: Set<String> = ["_dispatch_mgr_thread", "_dispatch_mgr_invoke", "_dispatch_event_loop_drain"]
    /// What the manager runs on its own timer when nothing else is queued (src/event/workqueue.c).
    static let poolMonitor = "_dispatch_workq_monitor_pools"
    static let poolMonitorNote = "libdispatch's manager thread woken by its timer with nothing to hand to a worker: on Linux that is the 1 Hz pool monitor (_dispatch_workq_monitor_pools, src/event/workqueue.c), whose handler makes no system call while the pools are empty"

    /// Modules whose frames are never a cause's own (the C library and the dynamic loader):
    /// a cause names the first frame past them.
    public static func isSystemLibrary(_ module: String) -> Bool {
        module.hasPrefix("libc.so") || module.hasPrefix("libc-") || module.hasPrefix("ld-linux") || module.hasPrefix("libpthread")
    }

    /// Modules linked into an app's executable that are the runtime it runs on, not the app:
    /// FrugalKit and what it brings, and the standard library's and Foundation's generic code
    /// specialized into the program. FrugalProbe and FrugalCore stay for apps built before FrugalKit
    /// linked FrugalSystem and FrugalProtocol in their place.
    static let runtimeModules = ["FrugalKit.", "FrugalSystem.", "FrugalProtocol.", "FrugalProbe.", "FrugalCore.", "Swift.", "Foundation.", "Dispatch.", "Synchronization."]

    /// Frames that belong to the runtime the app runs on, not to the app: those whose owner (a
    /// closure's enclosing function, past `static`/`specialized`) is in `runtimeModules`, and
    /// the compiler's thunks. The app's code is the program's frames less these.
    static func isRuntimeSymbol(_ symbol: String) -> Bool {
        if symbol == "main" || symbol.hasPrefix("$s") || symbol.hasPrefix("__swift") || symbol.hasPrefix("swift_") { return true }
        for thunk in ["reabstraction thunk", "thunk for", "partial apply", "merged ", "outlined ", "type metadata", "protocol witness", "value witness"]
        where symbol.hasPrefix(thunk) { return true }
        let function = owner(symbol)
        // The program's entry point (`@main`'s `main()`, the compiler's `$main()`) is on every
        // main-thread stack: it is where everything starts, not a cause.
        if function.hasSuffix(".$main() -> ()") || function.hasSuffix(".main() -> ()") || function.hasSuffix(".main() throws -> ()")
            || function.hasSuffix(".main() async -> ()") || function.hasSuffix(".main() async throws -> ()") { return true }
        return runtimeModules.contains { function.hasPrefix($0) }
    }

    /// The function a symbol belongs to: a closure's enclosing function (after its last ` in `
    /// at nesting depth 0), without `static `, `specialized ` or `generic specialization <…> of `.
    static func owner(_ symbol: String) -> String {
        var text = Substring(symbol)
        var depth = 0
        var cut = text.startIndex
        var index = text.startIndex
        // The last top-level " in ": closures nest as `closure #1 in closure #2 in F`.
        while index < text.endIndex {
            let character = text[index]
            if "(<[".contains(character) { depth += 1 } else if ")>]".contains(character) { depth = max(0, depth - 1) }
            if depth == 0, text[index...].hasPrefix(" in ") { cut = text.index(index, offsetBy: 4) }
            index = text.index(after: index)
        }
        text = text[cut...]
        // The optimizer's names: `generic specialization <…> of F`, `function signature
        // specialization <Arg[1] = Dead> of F`, `specialized F`, and `static F`.
        var changed = true
        while changed {
            changed = false
            if let marker = text.range(of: "specialization <"),
               text[..<marker.lowerBound].allSatisfy({ $0.isLowercase || $0 == " " }) {
                var depth = 0
                var index = text.index(before: marker.upperBound)
                while index < text.endIndex {
                    if text[index] == "<" { depth += 1 } else if text[index] == ">" { depth -= 1; if depth == 0 { break } }
                    index = text.index(after: index)
                }
                if index < text.endIndex, text[text.index(after: index)...].hasPrefix(" of ") {
                    text = text[text.index(index, offsetBy: 5)...]
                    changed = true
                }
            }
            for prefix in ["static ", "specialized "] where text.hasPrefix(prefix) {
                text = text.dropFirst(prefix.count)
                changed = true
            }
        }
        return String(text)
    }

    /// Whether `frame` is the app's own code: a named frame of one of `programs` that is not
    /// the runtime's.
    public static func isAppFrame(_ frame: TraceFrame, programs: Set<String>) -> Bool {
        guard let symbol = frame.symbol, programs.contains(frame.module) else { return false }
        return !isRuntimeSymbol(symbol)
    }

    /// The frame of the app's own code that a cause is named after: of the innermost stretch of
    /// app frames in `stack` (compiler thunks between them do not end it), the outermost — the
    /// function the runtime called (a timer's handler closure, a queued block) rather than the
    /// helper it called in turn. Nil when the stack shows none of the app's code.
    public static func appFrame(_ stack: [TraceFrame], programs: Set<String>) -> TraceFrame? {
        appStretch(stack, programs: programs).last
    }

    /// The innermost stretch of the app's frames in `stack`, innermost first.
    static func appStretch(_ stack: [TraceFrame], programs: Set<String>) -> [TraceFrame] {
        guard let first = stack.firstIndex(where: { isAppFrame($0, programs: programs) }) else { return [] }
        var stretch = [stack[first]]
        for frame in stack[(first + 1)...] {
            if isAppFrame(frame, programs: programs) {
                if frame != stretch.last { stretch.append(frame) }
            } else if !(frame.symbol.map(isThunk) ?? false) {
                break
            }
        }
        return stretch
    }

    static func isThunk(_ symbol: String) -> Bool {
        ["reabstraction thunk", "thunk for", "partial apply", "merged ", "outlined "].contains { symbol.hasPrefix($0) }
    }

    /// The innermost named frame that says something: past the C library's, the compiler's
    /// thunks and generic helpers (the standard library's, FrugalSystem's system-call wrapper, or
    /// FrugalProbe's in an app built before it moved), so a run loop's wait is named after the run
    /// loop; failing that, any named frame.
    static func namedFrame(_ stack: [TraceFrame]) -> TraceFrame? {
        stack.first { frame in
            guard let symbol = frame.symbol, !isSystemLibrary(frame.module), !isThunk(symbol) else { return false }
            let function = owner(symbol)
            return !function.hasPrefix("Swift.") && !function.hasPrefix("FrugalSystem.") && !function.hasPrefix("FrugalProbe.")
        } ?? stack.first { $0.symbol != nil && !isSystemLibrary($0.module) } ?? stack.first { $0.symbol != nil }
    }

    /// A wake under way: from its wait's end to the thread's next sleep.
    private struct Wake {
        var time: UInt64
        var pid: Int32
        var tid: Int32
        var kind: WakeupKind
        var via: String?
        var waitStack: [TraceFrame]
        /// The `sched_waking` that woke it, when a thread of the run fired it.
        var waker: SchedulerEvent?
        /// The wake of the waker under way then (an index into `wakes`), to name a cause the
        /// waker's own stack does not.
        var wakerWake: Int?
        /// Stacks of what it did while awake: threads it woke.
        var handlerStack: [TraceFrame]?
    }

    /// The wakeups of `events` (any order: sorted by time here) with their causes. `programs`
    /// are the file names of the run's executables: their frames, less the runtime's, are the
    /// app's own code.
    public static func attribute(_ events: [SchedulerEvent], programs: Set<String>, lostSamples: UInt64 = 0) -> WakeupAttribution {
        let sorted = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var wakes: [Wake] = []
        /// Per thread: its sleep not yet ended (the switch event) and who woke it, if seen.
        var asleep: [Int32: (sleep: SchedulerEvent, waker: SchedulerEvent?, wakerWake: Int?)] = [:]
        /// Per thread: its wake under way (index into `wakes`).
        var awake: [Int32: Int] = [:]
        /// Per thread: a wakeup fired at it while it was not yet seen asleep. A thread on its way
        /// to sleep (its state set, not yet switched out) can be woken first: the waker's
        /// `sched_waking` then comes before the sleeper's `sched_switch`, on another CPU.
        var early: [Int32: (wake: SchedulerEvent, wakerWake: Int?)] = [:]

        func end(_ tid: Int32, at time: UInt64, exit: (number: Int64, result: Int64)?) {
            guard let pending = asleep.removeValue(forKey: tid) else { return }
            let sleep = pending.sleep
            var kind: WakeupKind
            var via: String?
            if let exit {
                via = SystemCallNames.name(exit.number)
                kind = SystemCallNames.kind(number: exit.number, result: exit.result)
            } else {
                kind = .other
            }
            if let waker = pending.waker {
                kind = waker.pid == sleep.pid ? .thread : .process
            } else if kind == .thread {
                // A futex wake from outside the run (the harness's own threads cannot reach it):
                // another process sharing the futex.
                kind = .process
            }
            wakes.append(Wake(time: pending.waker?.time ?? time, pid: sleep.pid, tid: tid, kind: kind, via: via,
                              waitStack: sleep.stack, waker: pending.waker, wakerWake: pending.wakerWake))
            awake[tid] = wakes.count - 1
        }

        for event in sorted {
            switch event.kind {
            case .sleep(let state):
                // Preempted (still runnable) is not a sleep: no wakeup follows it.
                guard state & 0xff != 0 else { continue }
                // A sleep whose end was not seen (a wait the tracer does not follow) ended by now.
                end(event.tid, at: event.time, exit: nil)
                awake[event.tid] = nil
                if let first = early.removeValue(forKey: event.tid), event.time &- first.wake.time <= Self.earlyWakeWindow {
                    asleep[event.tid] = (event, first.wake, first.wakerWake)
                } else {
                    asleep[event.tid] = (event, nil, nil)
                }
            case .wake(let target):
                // The first thread it woke names what it was doing; one whose stack shows the app's
                // code beats one that does not (the runtime's report of a handler's end, say).
                if let current = awake[event.tid], !event.stack.isEmpty {
                    let kept = wakes[current].handlerStack
                    if kept == nil || (appFrame(kept!, programs: programs) == nil && appFrame(event.stack, programs: programs) != nil) {
                        wakes[current].handlerStack = event.stack
                    }
                }
                if let pending = asleep[target] {
                    if pending.waker == nil { asleep[target] = (pending.sleep, event, awake[event.tid]) }
                } else {
                    early[target] = (event, awake[event.tid])
                }
            case .syscallExit(let number, let result):
                end(event.tid, at: event.time, exit: (number, result))
            }
        }
        // Threads still asleep at the end were not woken in the run: no wakeup.

        var causes: [WakeupCause] = []
        var causeIndex: [WakeupCause: Int] = [:]
        var resolved: [WakeupCause] = []
        resolved.reserveCapacity(wakes.count)
        var wakeups: [AttributedWakeup] = []
        for wake in wakes {
            let cause = Self.cause(of: wake, resolved: resolved, programs: programs)
            resolved.append(cause)
            let index: Int
            if let known = causeIndex[cause] {
                index = known
            } else {
                index = causes.count
                causes.append(cause)
                causeIndex[cause] = index
            }
            if wakeups.count < wakeupCap { wakeups.append(AttributedWakeup(time: wake.time, pid: wake.pid, tid: wake.tid, cause: index)) }
        }
        return WakeupAttribution(source: source, causes: causes, wakeups: wakeups, lostSamples: lostSamples,
                                 droppedWakeups: max(0, wakes.count - wakeupCap))
    }

    /// The cause of `wake`; `resolved` holds the causes of the wakes before it.
    private static func cause(of wake: Wake, resolved: [WakeupCause], programs: Set<String>) -> WakeupCause {
        func named(_ frame: TraceFrame, from: String) -> WakeupCause {
            WakeupCause(kind: wake.kind, symbol: frame.symbol, module: frame.module, via: wake.via, from: from)
        }
        if let waker = wake.waker {
            if let frame = appFrame(waker.stack, programs: programs) { return named(frame, from: "waker") }
            // The waker was itself woken for something: a worker finishing the job a timer's
            // handler queued wakes the main thread for that handler's sake.
            if let earlier = wake.wakerWake, earlier < resolved.count, resolved[earlier].symbol != nil,
               resolved[earlier].from != "inferred", let symbol = resolved[earlier].symbol {
                return WakeupCause(kind: wake.kind, symbol: symbol, module: resolved[earlier].module, via: wake.via, from: "waker")
            }
            if let frame = namedFrame(waker.stack) { return named(frame, from: "waker") }
        }
        if let handler = wake.handlerStack, let frame = appFrame(handler, programs: programs) { return named(frame, from: "handler") }
        if let frame = appFrame(wake.waitStack, programs: programs) { return named(frame, from: "wait") }
        let symbols = Set(wake.waitStack.compactMap(\.symbol))
        if wake.waker == nil, wake.handlerStack == nil, [.timer, .io].contains(wake.kind), !symbols.isDisjoint(with: managerFunctions) {
            let module = wake.waitStack.first { $0.symbol.map(managerFunctions.contains) ?? false }?.module
            return WakeupCause(kind: wake.kind, symbol: poolMonitor, module: module, via: wake.via, from: "inferred", note: poolMonitorNote)
        }
        if let handler = wake.handlerStack, let frame = namedFrame(handler) { return named(frame, from: "handler") }
        if let frame = namedFrame(wake.waitStack) { return named(frame, from: "wait") }
        return WakeupCause(kind: wake.kind, symbol: nil, module: nil, via: wake.via)
    }
}

/// The waiting system calls the tracer follows, by number on this machine's architecture, and
/// what their results say ended the wait.
public enum SystemCallNames {
    #if arch(arm64)
    static let numbers: [Int64: String] = [
        22: "epoll_pwait", 441: "epoll_pwait2", 73: "ppoll", 72: "pselect6", 98: "futex", 449: "futex_waitv",
        101: "nanosleep", 115: "clock_nanosleep", 137: "rt_sigtimedwait", 260: "wait4", 95: "waitid",
    ]
    #else
    static let numbers: [Int64: String] = [
        232: "epoll_wait", 281: "epoll_pwait", 441: "epoll_pwait2", 7: "poll", 271: "ppoll", 23: "select", 270: "pselect6",
        202: "futex", 449: "futex_waitv", 35: "nanosleep", 230: "clock_nanosleep", 34: "pause", 128: "rt_sigtimedwait",
        61: "wait4", 247: "waitid",
    ]
    #endif

    /// The numbers followed, for the tracer's kernel filter.
    public static var followed: [Int64] { numbers.keys.sorted() }

    /// The tracepoint filter that keeps only their exits (`id == 232 || ...`).
    public static var filter: String { followed.map { "id == \($0)" }.joined(separator: " || ") }

    public static func name(_ number: Int64) -> String? { numbers[number] }

    /// What ended a wait in system call `number` that returned `result`, with no thread of the
    /// run seen waking it.
    public static func kind(number: Int64, result: Int64) -> WakeupKind {
        // EINTR, and the kernel's restart codes (ERESTARTSYS ... ERESTART_RESTARTBLOCK) a
        // tracepoint sees before the signal is delivered.
        if result == -4 || (-516 ... -512).contains(result) { return .signal }
        guard let name = numbers[number] else { return .other }
        switch name {
        case "futex", "futex_waitv":
            return result == -110 ? .timer : .thread
        case "nanosleep", "clock_nanosleep", "pause":
            return .timer
        case "rt_sigtimedwait":
            return result == -11 ? .timer : .signal
        case "wait4", "waitid":
            // A child changed state (ended, stopped): another process; 0 is WNOHANG's nothing.
            return result >= 0 ? .process : .other
        default:
            // epoll, poll, select: 0 is the timeout, a count is ready descriptors.
            return result == 0 ? .timer : (result > 0 ? .io : .other)
        }
    }
}
