import Foundation
import Synchronization
import FrugalSystem
import FrugalProtocol
import CFrugalSystem
import CFrugalMainLoop

/// The workload's main run loop: one thread sleeping in `epoll_wait` until a timer is due, a
/// file descriptor is readable (the control pipe) or another thread posts work. Like
/// `NSRunLoop`, it wakes only when there is something to do.
///
/// The loop runs on the process's main thread, so it and everything it calls are isolated to
/// the `MainActor`: timers, read sources and the app's delegate run there, one at a time.
///
/// It is also the main thread's dispatch queue, main actor and Foundation run loop, as an iOS
/// main thread is (`MainRunLoop+Platform.swift`): the same wait holds libdispatch's main-queue
/// eventfd (`DispatchQueue.main`, `OperationQueue.main`, URLSession delegate queues on main,
/// and Swift concurrency's main actor, whose executor enqueues on the main queue on Linux) and
/// the epoll set CoreFoundation's main run loop waits on (`RunLoop.main`'s timers, `perform`,
/// sources). Each drain or pass is one measured handler.
@MainActor
public final class MainRunLoop {
    private nonisolated let epollFD: Int32
    /// Other threads write here to wake the loop for posted work.
    private nonisolated let wakeFD: Int32
    private var timers: [RunLoopTimer] = []
    /// Each watched descriptor: the handler's name (nil for the runtime's control pipe, whose
    /// messages are measured one by one) and the handler.
    private var readSources: [Int32: (name: String?, handler: (Int32) -> Void)] = [:]
    /// Work posted from any thread, waiting for the loop.
    private nonisolated let posted = Mutex<[(name: String, block: @MainActor @Sendable () -> Void)]>([])
    private var running = false
    let meter: HandlerMeter
    /// libdispatch's main queue and CoreFoundation's main run loop, as this loop services them.
    let platform: PlatformQueues

    init(meter: HandlerMeter) throws {
        self.meter = meter
        epollFD = try SystemCall.retrying("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        wakeFD = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        platform = PlatformQueues()
        try register(fd: wakeFD)
        try register(fd: platform.mainQueueFD)
        if let cf = platform.runLoopWaitSetFD { try register(fd: cf) }
    }

    deinit {
        // Nothing can be done about a failed close of the loop's own descriptors at its end.
        try? SystemCall.close(wakeFD, subject: "run loop eventfd")
        try? SystemCall.close(epollFD, subject: "run loop epoll")
    }

    private func register(fd: Int32) throws {
        var event = epoll_event()
        event.events = UInt32(EPOLLIN.rawValue)
        frugal_epoll_event_set_fd(&event, fd)
        try SystemCall.retrying("epoll_ctl", subject: "ADD \(fd)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) }
    }

    /// Calls `handler` on the main thread whenever `fd` is readable (a listening socket, a pipe),
    /// as a run-loop source: the loop sleeps until the descriptor has something. Call on the main thread.
    public func addReadSource(fd: Int32, name: String, handler: @escaping (Int32) -> Void) throws {
        try register(fd: fd)
        readSources[fd] = (name, handler)
    }

    /// The runtime's own source (the control pipe): not measured as one handler.
    func addControlSource(fd: Int32, handler: @escaping (Int32) -> Void) throws {
        try register(fd: fd)
        readSources[fd] = (nil, handler)
    }

    /// Stops watching `fd`. Call on the main thread.
    public func removeReadSource(fd: Int32) {
        readSources[fd] = nil
        // It fails only for a descriptor no longer registered (closed already): nothing to undo.
        _ = try? SystemCall.retrying("epoll_ctl", subject: "DEL \(fd)") { epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil) }
    }

    /// Schedules a timer. Call on the main thread.
    ///
    /// The runtime marks the timer's creation (`timer-scheduled`: its interval, tolerance and
    /// creation site), so a report can check it as Apple's energy guide asks (a repeating timer's
    /// tolerance at least 10% of its interval; `--rules apple-limits`).
    @discardableResult
    public func scheduleTimer(name: String, interval: Double, repeats: Bool, tolerance: Double = 0,
                              file: String = #fileID, line: Int = #line,
                              handler: @escaping (RunLoopTimer) -> Void) -> RunLoopTimer {
        let first = MonotonicClock.now() + UInt64(max(0, interval) * 1e9)
        let timer = RunLoopTimer(name: name, interval: interval, repeats: repeats, tolerance: tolerance,
                                 firstFire: first, handler: handler)
        timers.append(timer)
        meter.emitter.emit(.mark(Mark(name: TimerCreation.markName,
                                      detail: TimerCreation(name: name, interval: interval, tolerance: timer.tolerance, repeats: repeats,
                                                            site: "\(file):\(line)").detail)))
        return timer
    }

    /// Schedules a repeating timer that draws frames, like a `CADisplayLink`: its handlers are
    /// recorded as `frame:<name>`. Frugal does not count the time it runs while the app is active
    /// as idle (`power.avoid-polling`): an app animating on screen is in use, not polling (a
    /// Foundation `Timer` that redraws is recognised too, from outside: its main thread waking at
    /// a frame rate while active, `RunAnalysis+Drawing`). Stop it
    /// in `willResignActive` (`lifecycle.quiesce-when-inactive` judges an inactive app's frames).
    /// Call on the main thread.
    @discardableResult
    public func scheduleFrameTimer(name: String, framesPerSecond: Double, handler: @escaping (RunLoopTimer) -> Void) -> RunLoopTimer {
        let interval = 1 / max(framesPerSecond, 0.001)
        let timer = RunLoopTimer(name: name, interval: interval, repeats: true, tolerance: 0,
                                 firstFire: MonotonicClock.now() + UInt64(interval * 1e9), drawsFrames: true, handler: handler)
        timers.append(timer)
        return timer
    }

    /// Runs `block` on the main thread as the handler `name`. Safe from any thread; wakes the loop.
    public nonisolated func perform(_ name: String, _ block: @escaping @MainActor @Sendable () -> Void) {
        posted.withLock { $0.append((name, block)) }
        var one: UInt64 = 1
        // EAGAIN only when the counter is already at its maximum: the loop is woken anyway.
        _ = try? SystemCall.retrying("write", subject: "run loop eventfd") { write(wakeFD, &one, 8) }
    }

    /// Makes `run()` return after the current handler.
    public func stop() { running = false }

    /// Runs until `stop()`, or until the monotonic time `deadline` (a unit test running the loop
    /// for a while); throws when the loop cannot wait any more (`epoll_wait` failed with anything
    /// but EINTR, which is retried), so the app ends with the error instead of a trap.
    package func run(until deadline: UInt64? = nil) throws {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 8)
        defer { if deadline == nil { reportUnrunWork() } }
        while running {
            var timeout = nextTimeoutMilliseconds()
            if let deadline {
                let now = MonotonicClock.now()
                guard now < deadline else { return }
                let left = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            let count = try events.withUnsafeMutableBufferPointer { buffer in
                try SystemCall.retrying("epoll_wait") { epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout) }
            }
            // Whether app code ran in this wakeup outside a run-loop pass: it may have queued
            // `RunLoop.main.perform` blocks, which wake nothing (`runPerformedBlocks`).
            var ranAppCode = false
            // Whether a pass of `RunLoop.main` ran: its timers' callouts may invalidate others.
            var ranRunLoopPass = false
            for index in 0..<Int(count) {
                let fd = frugal_epoll_event_fd(&events[index])
                if fd == platform.mainQueueFD {
                    platform.drainMainQueue(meter: meter)
                    ranAppCode = true
                } else if fd == platform.runLoopWaitSetFD {
                    platform.runLoopPass(meter: meter)
                    ranRunLoopPass = true
                } else if fd == wakeFD {
                    var value: UInt64 = 0
                    // EAGAIN: another wakeup was read already; the posted work is run either way.
                    _ = try? SystemCall.retrying("read", subject: "run loop eventfd") { read(wakeFD, &value, 8) }
                    runPosted()
                    ranAppCode = true
                } else if let source = readSources[fd] {
                    ranAppCode = true
                    if let name = source.name {
                        meter.measure("source:\(name)") { source.handler(fd) }
                    } else {
                        source.handler(fd)
                    }
                }
                if !running { return }
            }
            if fireDueTimers() { ranAppCode = true }
            if ranAppCode && running { platform.runPerformedBlocks(meter: meter) }
            if ranAppCode || ranRunLoopPass { platform.disarmStaleRunLoopTimer() }
        }
    }

    /// Work the loop stopped with and will never run: a finding with its name, never a silent
    /// pass (the run ends after this loop).
    private func reportUnrunWork() {
        let left = posted.withLock { $0.map(\.name) }
        if !left.isEmpty {
            meter.emitter.emit(.mark(Mark(name: "work-never-ran", detail: "runLoop.perform: " + left.joined(separator: ", "))))
        }
        if platform.mainQueueHasWork() {
            meter.emitter.emit(.mark(Mark(name: "work-never-ran",
                                          detail: "main-queue: blocks or main-actor jobs still queued on DispatchQueue.main when the app terminated")))
        }
    }

    private func runPosted() {
        var work = posted.withLock { posted in
            defer { posted.removeAll() }
            return posted
        }[...]
        while running, let (name, block) = work.popFirst() {
            meter.measure("posted:\(name)", block)
        }
        // Stopped mid-way: what is left goes back, first, for `reportUnrunWork` to name.
        if !work.isEmpty { posted.withLock { $0.insert(contentsOf: work, at: 0) } }
    }

    /// The wait until the earliest time some timer must fire (fire time + tolerance): timers
    /// whose windows overlap that moment fire together, one wakeup for all.
    private func nextTimeoutMilliseconds() -> Int32 {
        timers.removeAll { !$0.isValid }
        guard let deadline = timers.map(\.latestFireTime).min() else { return -1 }
        let now = MonotonicClock.now()
        if deadline <= now { return 0 }
        // Round up: waking a fraction of a millisecond early would be a wasted wakeup.
        let milliseconds = (deadline - now + 999_999) / 1_000_000
        return Int32(min(milliseconds, UInt64(Int32.max)))
    }

    /// Fires the timers that are due; true when one fired.
    private func fireDueTimers() -> Bool {
        let now = MonotonicClock.now()
        let due = timers.filter { $0.isValid && $0.fireTime <= now }.sorted { $0.fireTime < $1.fireTime }
        for timer in due {
            guard running, timer.isValid else { continue }
            meter.measure(timer.handlerName) { timer.handler(timer) }
            if timer.repeats && timer.isValid {
                let step = UInt64(max(timer.interval, 0.001) * 1e9)
                var next = timer.fireTime + step
                // Missed firings are skipped, as NSTimer does, not replayed in a burst.
                while next <= now { next += step }
                timer.fireTime = next
            } else {
                timer.invalidate()
            }
        }
        return !due.isEmpty
    }
}
