import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// What one watch of a program's main thread saw (one per process of the run).
struct OutsideWatchResult {
    var hangs: [OutsideHang]
    var longestBusyNanoseconds: UInt64
    var longestWait: OutsideHang?
    var samples: Int
    var unreadable: [String]
    /// The threads judged to be the main one, and why (``MainThreadJudge``).
    var mainThreads: [MainThreadChoice] = []
    /// Where the process's start-up ended (``StartupJudge``).
    var startup: ProgramStartup?
}

/// Watches a black-box program's main thread from outside, every `interval`, through
/// `/proc/<pid>/task/<tid>/{status,wchan,syscall,schedstat}`: the program is never signalled or
/// traced. A stretch of at least the hang limit without a voluntary context switch is a hang when
/// the thread was on the CPU all along (busy: it could answer nothing), in an uninterruptible wait
/// (`D`: not even a signal reaches it), or blocked while the scenario expected an answer (after a
/// signal, a resume); the kernel's view of where it waited (`wchan`, the syscall) is kept. An idle
/// program blocked in its event wait is not hung. Which thread is "main": in the program's process,
/// past wrappers (a process with exactly one child, as `sh -c`, `perf stat`), the thread that runs
/// its main queue or run loop (``MainThreadJudge``: under `dispatchMain()` a pool thread), else its first.
final class OutsideHangWatcher: Sendable {
    private let root: pid_t
    private let members: @Sendable () -> [pid_t]
    private let interval: Double
    private let limitNanoseconds: UInt64
    /// What the watching thread and the session share.
    private struct Shared {
        var stopped = false
        var paused = false
        var expectingFrom: UInt64 = 0
        var expectingUntil: UInt64 = 0
        var hangs: [OutsideHang] = []
        var longestBusy: UInt64 = 0
        var longestWait: OutsideHang?
        var samplesTaken = 0
        var unreadable: Set<String> = []
        var mainThreads: [MainThreadChoice] = []
        var startup: ProgramStartup?
        /// The program's exit (monotonic ns), once known.
        var exitTime: UInt64?
    }

    /// Wakes the watching thread from its wait between samples: the watch is stopped, paused or
    /// resumed, or an answer is now expected.
    private let stopSignal = DispatchSemaphore(value: 0)
    /// Signalled by the watching thread once it has closed the last stretch.
    private let finished = DispatchSemaphore(value: 0)

    private let shared = Mutex(Shared())

    /// System calls that wait for the next event (x86-64 and arm64 numbers): a thread blocked in
    /// one is idle and answers the next event, not hung.
    static let eventWaitCalls: Set<String> = {
        #if arch(x86_64)
        // poll, select, pause, rt_sigtimedwait, rt_sigsuspend, epoll_wait, pselect6, ppoll, epoll_pwait, io_uring_enter, epoll_pwait2
        return ["7", "23", "34", "128", "130", "232", "270", "271", "281", "426", "441"]
        #else
        // epoll_pwait, pselect6, ppoll, rt_sigsuspend, rt_sigtimedwait, io_uring_enter, epoll_pwait2
        return ["22", "72", "73", "133", "137", "426", "441"]
        #endif
    }()

    init(root: pid_t, members: @escaping @Sendable () -> [pid_t], interval: Double = 0.025,
         limitMilliseconds: Double = Thresholds.hangMilliseconds) {
        self.root = root
        self.members = members
        self.interval = interval
        self.limitNanoseconds = UInt64(limitMilliseconds * 1e6)
        let thread = Thread { [self] in loop() }
        thread.name = "frugal-outside-hangs-\(root)"
        thread.start()
    }

    /// Pausing and resuming take effect at once: the watcher's wait (up to ``longestIdleWait``) is cut short.
    func setPaused(_ value: Bool) {
        shared.withLock { $0.paused = value }
        stopSignal.signal()
    }
    /// Ends the watch and waits until its last stretch is closed, at `exitTime` (the program's exit
    /// from its exit record, monotonic ns) when given: a spin that lasts until the exit is a hang
    /// like any other, so `result` read after this has it.
    func stop(exitTime: UInt64? = nil) {
        let first = shared.withLock { shared -> Bool in
            defer { shared.stopped = true }
            if let exitTime { shared.exitTime = exitTime }
            return !shared.stopped
        }
        guard first else { return }
        stopSignal.signal()
        finished.wait()
    }

    /// The scenario expects the program to respond until `deadline` (monotonic ns).
    func expectResponse(until deadline: UInt64) {
        shared.withLock { shared in
            if MonotonicClock.now() > shared.expectingUntil { shared.expectingFrom = MonotonicClock.now() }
            shared.expectingUntil = max(shared.expectingUntil, deadline)
        }
        // Sampled fast from now on: the watcher may be in a long wait beside a sleeping thread.
        stopSignal.signal()
    }

    /// What was seen: the hangs, the longest busy stretch (ns), samples taken, and the files the
    /// machine would not let the harness read.
    var result: OutsideWatchResult {
        shared.withLock { OutsideWatchResult(hangs: $0.hangs, longestBusyNanoseconds: $0.longestBusy, longestWait: $0.longestWait,
                                             samples: $0.samplesTaken, unreadable: $0.unreadable.sorted(), mainThreads: $0.mainThreads,
                                             startup: $0.startup) }
    }

    /// The program's process: from the spawned one down while a process has exactly one child.
    /// Reads each member's parent only when the members changed since the last call (`cache`),
    /// or a second has passed: a parent changes when it exits, and then it leaves the members
    /// (a zombie still listed is what the second is for).
    private func programProcess(cache: inout (members: [pid_t], program: pid_t, time: UInt64)?, now: UInt64) -> pid_t {
        let all = members()
        if let cache, cache.members == all, now &- cache.time < 1_000_000_000 { return cache.program }
        let program = programProcess(of: all)
        cache = (all, program, now)
        return program
    }

    private func programProcess(of all: [pid_t]) -> pid_t {
        var parents: [pid_t: [pid_t]] = [:]
        for pid in all where pid != root {
            guard let text = try? FileReader.readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[parent, default: []].append(pid) }
        }
        var current = root
        var depth = 0
        while let children = parents[current], children.count == 1, depth < 16 {
            current = children[0]
            depth += 1
        }
        return current
    }

    private func loop() {
        var tracker = OutsideStretchTracker(limitNanoseconds: limitNanoseconds)
        var startup = StartupJudge(start: MonotonicClock.now())
        var judge = MainThreadJudge()
        // Under `dispatchMain()`, while the main queue is idle: every thread as the last sample saw it,
        // so the pool thread that takes the queue next has a sample from before its drain began.
        var baselines: [Int32: OutsideStretchTracker.Sample] = [:]
        var lastMembersCheck: UInt64 = 0
        var membersCache: (members: [pid_t], program: pid_t, time: UInt64)?
        // The watched thread's current sleep: its switch count and the first sample that saw it.
        var asleep: (tid: Int32, switches: Int, since: UInt64)?
        var pid = root
        var wait = interval
        // The watched thread's files, kept open while it stays the one watched.
        var reader: ThreadWaitReader?
        // Not while an answer is expected: then a blocked wait is judged, and its end is when
        // `status` says so (``ThreadWaitReader/read(quietWhileAsleep:)``).
        func waitState(pid: Int32, tid: Int32, quiet: Bool) -> ThreadWaitState? {
            if reader?.pid != pid || reader?.tid != tid { reader = ThreadWaitReader(pid: pid, tid: tid) }
            guard let state = reader?.read(quietWhileAsleep: quiet) else {
                reader = nil
                return nil
            }
            return state
        }
        while true {
            let (done, isPaused, expecting) = shared.withLock { ($0.stopped, $0.paused, ($0.expectingFrom, $0.expectingUntil)) }
            if done { break }
            let now = MonotonicClock.now()
            if now - lastMembersCheck > 200_000_000 {
                pid = programProcess(cache: &membersCache, now: now)
                lastMembersCheck = now
            }
            var (tid, idle) = isPaused ? (pid, false) : judge.choose(pid: pid, now: now)
            let quiet = now > expecting.1
            var watched = isPaused ? nil : waitState(pid: pid, tid: tid, quiet: quiet)
            if watched == nil && tid != pid {
                // The pool thread that last drained the main queue has left: the main thread is idle.
                judge.forget(tid)
                (tid, idle) = (pid, true)
                watched = waitState(pid: pid, tid: pid, quiet: quiet)
            }
            if isPaused {
                tracker.pause()
            } else if let state = watched {
                shared.withLock { shared in
                    shared.samplesTaken += 1
                    if state.wchan == nil && state.state != "R" { shared.unreadable.insert("wchan") }
                    if state.syscall == nil { shared.unreadable.insert("syscall") }
                }
                if !idle, let baseline = baselines[tid] { tracker.assumePrevious(baseline) }
                tracker.observe(.init(pid: tid, time: now, state: state, idle: idle), expecting: expecting)
                if startup.end == nil {
                    startup.observe(tid: tid, time: now, state: state, idle: idle)
                    let judged = startup.result
                    shared.withLock { $0.startup = judged }
                }
                baselines = idle && judge.unbound ? Self.baselines(pid: pid, time: now) : [:]
                // Asleep (interruptible) while no answer is expected, the thread can start no hang
                // without running first, and a spin's length is its on-CPU time from the last sample
                // that saw it asleep, however late the next sample comes (one that began and ended
                // between two sleeping samples too: OutsideStretchTracker.hiddenSpin): sample 4 times
                // less often (a harness beside an idle program woke 40 times a second for nothing).
                // A wait is measured from the first sample that sees it to the first that sees it
                // over, so a short one (a 300 ms poll) keeps those 4 intervals; one that has lasted
                // past a second is sampled every tenth of its length so far, up to 0.2 s (the period
                // at which the program's process is looked for again): its end is seen within a
                // tenth of its length. Blocked waits matter only while an answer is expected (which
                // wakes the watch at once), and uninterruptible ones (D) always. An idle main queue
                // (dispatchMain) keeps the 4 intervals.
                if state.state == "S" && now > expecting.1 {
                    if asleep?.tid != tid || asleep?.switches != state.voluntaryContextSwitches {
                        asleep = (tid, state.voluntaryContextSwitches, now)
                    }
                    // Not while the main queue is idle: a pool thread started to drain it has no
                    // earlier sample, so its hang is short by up to one wait.
                    wait = idle ? interval * 4 : Self.idleWait(interval: interval, asleepNanoseconds: now &- (asleep?.since ?? now))
                } else {
                    asleep = nil
                    wait = interval
                }
            } else {
                tracker.lost(at: now)
            }
            publish(tracker)
            let choices = judge.choices
            shared.withLock { $0.mainThreads = choices }
            _ = stopSignal.wait(timeout: .now() + wait)
        }
        // The last look for the main queue, if still under way, so the judgement says what it found.
        judge.conclude(timeout: 500_000_000)
        let choices = judge.choices
        shared.withLock { $0.mainThreads = choices }
        let (exitTime, expecting) = shared.withLock { ($0.exitTime, ($0.expectingFrom, $0.expectingUntil)) }
        tracker.finish(exitTime: exitTime, now: MonotonicClock.now(), expecting: expecting)
        let judged = startup.result
        shared.withLock { $0.startup = judged }
        publish(tracker)
        finished.signal()
    }

    /// The wait before the next sample while the watched thread sleeps and no answer is expected,
    /// seconds: 4 intervals, or a tenth of the time it has slept in this one wait, at most
    /// ``longestIdleWait``.
    static func idleWait(interval: Double, asleepNanoseconds: UInt64) -> Double {
        min(max(longestIdleWait, interval * 4), max(interval * 4, Double(asleepNanoseconds) / 1e9 / 10))
    }

    /// The slowest the watch samples a sleeping thread: the period at which it looks for the
    /// program's process again (a wrapper's child), so a child is followed no later than before.
    static let longestIdleWait = 0.2

    /// Every thread of `pid` now (its state, switches and on-CPU time), as samples.
    private static func baselines(pid: Int32, time: UInt64) -> [Int32: OutsideStretchTracker.Sample] {
        var result: [Int32: OutsideStretchTracker.Sample] = [:]
        for tid in (try? ProcFS.threadIDs(pid: pid)) ?? [] where tid != pid {
            guard let thread = try? ProcFS.threadSample(pid: pid, tid: tid) else { continue }
            result[tid] = .init(pid: tid, time: time, state: ThreadWaitState(state: thread.state ?? "?", wchan: nil, syscall: nil,
                                                                          voluntaryContextSwitches: thread.voluntaryContextSwitches,
                                                                          involuntaryContextSwitches: thread.involuntaryContextSwitches,
                                                                          onCPUNanoseconds: thread.onCPUNanoseconds))
        }
        return result
    }

    private func publish(_ tracker: OutsideStretchTracker) {
        shared.withLock { shared in
            shared.hangs = tracker.hangs
            shared.longestBusy = tracker.longestBusy
            shared.longestWait = tracker.longestWait
        }
    }
}
