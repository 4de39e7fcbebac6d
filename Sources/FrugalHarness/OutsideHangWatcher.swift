import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// Watches a black-box program's main thread from outside, every `interval`, through
/// `/proc/<pid>/task/<tid>/{status,wchan,syscall,schedstat}`: the program is never signalled or
/// traced. A stretch of at least the hang limit without a voluntary context switch is a hang when
/// the thread was on the CPU all along (busy: it could answer nothing), in an uninterruptible wait
/// (`D`: not even a signal reaches it), or blocked while the scenario expected an answer (after a
/// signal, a resume); the kernel's view of where it waited (`wchan`, the syscall) is kept. An idle
/// program blocked in its event wait is not hung. Which thread is "main": the main thread of the
/// program's process, past wrappers (a process with exactly one child, as `sh -c`, `perf stat`).
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
        var samplesTaken = 0
        var unreadable: Set<String> = []
        /// Whether the main thread has slept once (launch is over).
        var launched = false
    }

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

    func setPaused(_ value: Bool) { shared.withLock { $0.paused = value } }
    func stop() { shared.withLock { $0.stopped = true } }

    /// The scenario expects the program to respond until `deadline` (monotonic ns).
    func expectResponse(until deadline: UInt64) {
        shared.withLock { shared in
            if MonotonicClock.now() > shared.expectingUntil { shared.expectingFrom = MonotonicClock.now() }
            shared.expectingUntil = max(shared.expectingUntil, deadline)
        }
    }

    /// What was seen: the hangs, the longest busy stretch (ns), samples taken, and the files the
    /// machine would not let the harness read.
    var result: (hangs: [OutsideHang], longestBusyNanoseconds: UInt64, samples: Int, unreadable: [String]) {
        shared.withLock { ($0.hangs, $0.longestBusy, $0.samplesTaken, $0.unreadable.sorted()) }
    }

    /// The program's process: from the spawned one down while a process has exactly one child.
    private func programProcess() -> pid_t {
        let all = members()
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
        var stretch: Stretch?
        var lastMembersCheck: UInt64 = 0
        var pid = root
        while true {
            let (done, isPaused, expecting) = shared.withLock { ($0.stopped, $0.paused, ($0.expectingFrom, $0.expectingUntil)) }
            if done { break }
            let now = MonotonicClock.now()
            if now - lastMembersCheck > 200_000_000 {
                pid = programProcess()
                lastMembersCheck = now
            }
            if isPaused {
                stretch = nil
            } else if let state = ProcFS.waitState(pid: pid, tid: pid) {
                shared.withLock { shared in
                    shared.samplesTaken += 1
                    if state.wchan == nil && state.state != "R" { shared.unreadable.insert("wchan") }
                    if state.syscall == nil { shared.unreadable.insert("syscall") }
                }
                let running = state.state == "R"
                if !running { shared.withLock { $0.launched = true } }
                if var current = stretch, current.pid == pid, current.switches == state.voluntaryContextSwitches {
                    current.busy = current.busy && running
                    current.uninterruptible = current.uninterruptible && state.state == "D"
                    current.onCPUEnd = state.onCPUNanoseconds
                    if !running {
                        current.wchan = state.wchan ?? current.wchan
                        current.syscall = state.syscall ?? current.syscall
                    }
                    stretch = current
                } else {
                    if let finished = stretch { close(finished, at: now, expecting: expecting) }
                    stretch = Stretch(pid: pid, start: now, switches: state.voluntaryContextSwitches, busy: running,
                                      uninterruptible: state.state == "D", wchan: running ? nil : state.wchan,
                                      syscall: running ? nil : state.syscall, onCPUStart: state.onCPUNanoseconds,
                                      onCPUEnd: state.onCPUNanoseconds, duringLaunch: !shared.withLock { $0.launched })
                }
            } else {
                if let finished = stretch { close(finished, at: now, expecting: expecting) }
                stretch = nil
            }
            Thread.sleep(forTimeInterval: interval)
        }
        if let finished = stretch { close(finished, at: MonotonicClock.now(), expecting: shared.withLock { ($0.expectingFrom, $0.expectingUntil) }) }
    }

    /// One run of samples with no voluntary switch of the watched thread.
    struct Stretch {
        var pid: pid_t
        var start: UInt64
        var switches: Int
        var busy: Bool
        var uninterruptible: Bool
        var wchan: String?
        var syscall: String?
        var onCPUStart: UInt64
        var onCPUEnd: UInt64
        var duringLaunch: Bool
    }

    private func close(_ stretch: Stretch, at end: UInt64, expecting: (from: UInt64, until: UInt64)) {
        let length = end - stretch.start
        let onCPU = stretch.onCPUEnd &- stretch.onCPUStart
        let limitNanoseconds = self.limitNanoseconds
        shared.withLock { shared in
            if stretch.busy && !stretch.duringLaunch {
                shared.longestBusy = max(shared.longestBusy, onCPU)
                if onCPU >= limitNanoseconds {
                    shared.hangs.append(OutsideHang(start: stretch.start, end: end, kind: "busy", wchan: nil, syscall: nil))
                }
                return
            }
            guard length >= limitNanoseconds, !stretch.busy else { return }
            if stretch.uninterruptible {
                shared.hangs.append(OutsideHang(start: stretch.start, end: end, kind: "uninterruptible", wchan: stretch.wchan, syscall: stretch.syscall))
                return
            }
            if let call = stretch.syscall, Self.eventWaitCalls.contains(call) { return }
            // Blocked: only the part while an answer was expected counts.
            let start = max(stretch.start, expecting.from)
            let stop = min(end, expecting.until)
            if stop > start && stop - start >= limitNanoseconds {
                shared.hangs.append(OutsideHang(start: start, end: stop, kind: "blocked", wchan: stretch.wchan, syscall: stretch.syscall))
            }
        }
    }
}
