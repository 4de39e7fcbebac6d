import XCTest
@testable import FrugalCore

/// Wakeups attributed from scheduler events built by hand: who woke each thread, and which
/// function of the app the cause is named after.
final class WakeupAttributorTests: XCTestCase {
    static let program = "NewsApp"
    static let programs: Set<String> = [program]

    static func app(_ symbol: String) -> TraceFrame { TraceFrame(module: program, symbol: symbol) }
    static let epollWait = TraceFrame(module: "libc.so.6", symbol: "epoll_wait")
    static let runLoop = app("FrugalKit.MainRunLoop.run() throws -> ()")
    static let entry = app("static NewsApp.Main.$main() -> ()")
    static let timerClosure = app("closure #1 (FrugalKit.RunLoopTimer) -> () in NewsApp.Poller.start(FrugalKit.Application) -> ()")
    static let check = app("NewsApp.Feed.check() -> ()")
    static let mainWait = [epollWait, app("static FrugalSystem.SystemCall.retrying<A>(_: Swift.String, _: () -> A) throws -> A"), runLoop, entry]

    static func sleep(_ time: UInt64, tid: Int32, stack: [TraceFrame] = mainWait, state: Int64 = 1) -> SchedulerEvent {
        SchedulerEvent(time: time, pid: 100, tid: tid, kind: .sleep(state: state), stack: stack)
    }
    static func exit(_ time: UInt64, tid: Int32, call: Int64, result: Int64) -> SchedulerEvent {
        SchedulerEvent(time: time, pid: 100, tid: tid, kind: .syscallExit(number: call, result: result))
    }

    #if arch(x86_64)
    static let epollNumber: Int64 = 232, futexNumber: Int64 = 202
    #else
    static let epollNumber: Int64 = 22, futexNumber: Int64 = 98
    #endif

    /// A 1 s timer on the main thread (100) whose handler queues work on a pool thread (101),
    /// which hands the result back: three wakeups a tick, all named after the timer's closure
    /// or the app's code that woke them.
    func testATimersTickAndTheWorkItQueues() {
        var events: [SchedulerEvent] = []
        let workerWait = [TraceFrame(module: "libc.so.6", symbol: nil), TraceFrame(module: "libdispatch.so", symbol: "_dispatch_sema4_wait")]
        events.append(Self.sleep(10, tid: 101, stack: workerWait))
        for tick in 0..<3 {
            let base = UInt64(tick + 1) * 1_000_000_000
            events.append(Self.sleep(base - 900_000_000, tid: 100))
            // The deadline passes: epoll_wait returns 0.
            events.append(Self.exit(base, tid: 100, call: Self.epollNumber, result: 0))
            // The handler reports its start to the runtime (no app frame), then queues the check.
            events.append(SchedulerEvent(time: base + 10, pid: 100, tid: 100, kind: .wake(target: 555),
                                         stack: [TraceFrame(module: "libc.so.6", symbol: "write"), Self.app("FrugalKit.EventEmitter.emit() -> ()"), Self.runLoop]))
            events.append(SchedulerEvent(time: base + 20, pid: 100, tid: 100, kind: .wake(target: 101),
                                         stack: [TraceFrame(module: "libdispatch.so", symbol: "_dispatch_root_queue_poke_slow"),
                                                 Self.check, Self.app("partial apply for closure #1 in NewsApp.Poller.start"), Self.timerClosure,
                                                 Self.app("closure #3 () -> () in FrugalKit.MainRunLoop.fireDueTimers() -> Swift.Bool"), Self.runLoop, Self.entry]))
            events.append(Self.exit(base + 25, tid: 101, call: Self.futexNumber, result: 0))
            events.append(Self.sleep(base + 30, tid: 100))
            // The worker posts the result to the main run loop: its eventfd wakes epoll_wait.
            events.append(SchedulerEvent(time: base + 40, pid: 100, tid: 101, kind: .wake(target: 100),
                                         stack: [TraceFrame(module: "libc.so.6", symbol: "write"), Self.app("FrugalKit.MainRunLoop.perform(Swift.String, () -> ()) -> ()"),
                                                 Self.app("closure #1 @Sendable () -> () in NewsApp.Feed.check() -> ()"), TraceFrame(module: "libdispatch.so", symbol: "_dispatch_call_block_and_release")]))
            events.append(Self.sleep(base + 45, tid: 101, stack: workerWait))
            events.append(Self.exit(base + 50, tid: 100, call: Self.epollNumber, result: 1))
        }
        // Preempted (state 0): not a sleep, no wakeup follows.
        events.append(Self.sleep(9_000_000_000, tid: 100, state: 0))
        let attribution = WakeupAttributor.attribute(events.shuffled(), programs: Self.programs)
        XCTAssertEqual(attribution.wakeups.count, 9)
        func count(_ kind: WakeupKind, _ symbolPart: String) -> Int {
            attribution.wakeups.filter {
                let cause = attribution.causes[$0.cause]
                return cause.kind == kind && (cause.symbol?.contains(symbolPart) ?? false)
            }.count
        }
        // The timer's tick is named after what it ran (the closure, outermost of the app's
        // frames, not the helper it called), found on the stack of the thread it woke next.
        XCTAssertEqual(count(.timer, "closure #1 (FrugalKit.RunLoopTimer) -> () in NewsApp.Poller.start"), 3)
        XCTAssertEqual(count(.thread, "closure #1 (FrugalKit.RunLoopTimer) -> () in NewsApp.Poller.start"), 3)
        XCTAssertEqual(count(.thread, "closure #1 @Sendable () -> () in NewsApp.Feed.check"), 3)
        let timer = attribution.causes.first { $0.kind == .timer }
        XCTAssertEqual(timer?.from, "handler")
        XCTAssertEqual(timer?.via, "epoll_wait")
        XCTAssertEqual(attribution.causes.first { $0.kind == .thread && $0.via == "futex" }?.from, "waker")
        // Times: a thread's wake by the run's own thread is when that thread woke it.
        XCTAssertTrue(attribution.wakeups.contains { $0.tid == 101 && $0.time == 1_000_000_020 })
    }

    func testSignalsTimeoutsAndUnnamedWaits() {
        let bare = [TraceFrame(module: "libc.so.6", symbol: nil)]
        let events = [
            Self.sleep(1, tid: 100),
            Self.exit(2, tid: 100, call: Self.epollNumber, result: -4),           // EINTR
            Self.sleep(3, tid: 100),
            Self.exit(4, tid: 100, call: Self.epollNumber, result: 2),            // two descriptors ready
            Self.sleep(5, tid: 102, stack: bare),
            Self.exit(6, tid: 102, call: Self.futexNumber, result: -110),         // ETIMEDOUT
            Self.sleep(7, tid: 102, stack: bare),                                 // still asleep at the end: no wakeup
        ]
        let attribution = WakeupAttributor.attribute(events, programs: Self.programs)
        let kinds = attribution.wakeups.map { attribution.causes[$0.cause].kind }
        XCTAssertEqual(kinds, [.signal, .io, .timer])
        // Only the run loop's entry frames on the main thread's wait: no app frame, so the cause
        // is the innermost named frame past libc's; the pool thread's wait names nothing.
        XCTAssertEqual(attribution.causes[attribution.wakeups[0].cause].from, "wait")
        XCTAssertNil(attribution.causes[attribution.wakeups[2].cause].symbol)
        let causes = RunWakeupCauses(attribution, idleSlices: [])
        XCTAssertEqual(causes.traced, 3)
        XCTAssertEqual(causes.attributed, 2)
        XCTAssertEqual(try XCTUnwrap(causes.attributedShare), 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(causes.scope, "run")
    }

    /// libdispatch's manager woken by its timerfd with nothing to hand on: the pool monitor,
    /// said to be inferred. Woken and then waking a worker: not the monitor.
    func testTheManagersLoneTimerIsThePoolMonitor() {
        let managerWait = [TraceFrame(module: "libc.so.6", symbol: "epoll_wait"), TraceFrame(module: "libdispatch.so", symbol: "_dispatch_event_loop_drain"),
                           TraceFrame(module: "libdispatch.so", symbol: "_dispatch_mgr_invoke")]
        var events: [SchedulerEvent] = []
        for second in 0..<4 {
            let base = UInt64(second) * 1_000_000_000
            events.append(Self.sleep(base + 1, tid: 103, stack: managerWait))
            events.append(Self.exit(base + 900_000_000, tid: 103, call: Self.epollNumber, result: 1))
        }
        events.append(SchedulerEvent(time: 3_900_000_100, pid: 100, tid: 103, kind: .wake(target: 104),
                                     stack: [TraceFrame(module: "libdispatch.so", symbol: "_dispatch_root_queue_poke_slow")]))
        events.append(Self.sleep(3_900_000_200, tid: 103, stack: managerWait))
        let attribution = WakeupAttributor.attribute(events, programs: Self.programs)
        let symbols = attribution.wakeups.map { attribution.causes[$0.cause].symbol }
        XCTAssertEqual(symbols.filter { $0 == "_dispatch_workq_monitor_pools" }.count, 3)
        let monitor = try? XCTUnwrap(attribution.causes.first { $0.symbol == "_dispatch_workq_monitor_pools" })
        XCTAssertEqual(monitor?.from, "inferred")
        XCTAssertEqual(monitor?.module, "libdispatch.so")
        XCTAssertNotNil(monitor?.note)
        XCTAssertEqual(symbols.last, "_dispatch_root_queue_poke_slow", "a manager wake that handed work on is not the monitor")
    }

    func testTheTopCausesAreOfTheIdleSlices() {
        let cause = { (symbol: String) in WakeupCause(kind: .timer, symbol: symbol, module: Self.program) }
        let attribution = WakeupAttribution(source: WakeupAttributor.source, causes: [cause("busy"), cause("poll")],
                                            wakeups: [AttributedWakeup(time: 5, pid: 1, tid: 1, cause: 0),
                                                      AttributedWakeup(time: 15, pid: 1, tid: 1, cause: 1),
                                                      AttributedWakeup(time: 16, pid: 1, tid: 2, cause: 1),
                                                      AttributedWakeup(time: 25, pid: 1, tid: 1, cause: 0),
                                                      AttributedWakeup(time: 30, pid: 1, tid: 1, cause: 0)])
        let causes = RunWakeupCauses(attribution, idleSlices: [(start: 10, end: 20), (start: 30, end: 31)], threadNames: [1: "main"])
        XCTAssertEqual(causes.scope, "idle")
        XCTAssertEqual(causes.scopeWakeups, 3)
        XCTAssertEqual(causes.top.map(\.cause.symbol), ["poll", "busy"])
        XCTAssertEqual(causes.top[0].count, 2)
        XCTAssertEqual(causes.top[0].share, 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(causes.top[0].threads, ["main (1)", "2"])
        XCTAssertEqual(causes.topCauseText, "timer: poll (NewsApp), 67% of 3 idle wakeups")
        XCTAssertEqual(RunWakeupCauses(.unavailable("not root"), idleSlices: []).unavailable, "not root")
    }

    func testRuntimeFramesAreNotTheApps() {
        XCTAssertTrue(WakeupAttributor.isRuntimeSymbol("closure #3 () -> () in FrugalKit.MainRunLoop.fireDueTimers() -> Swift.Bool"))
        XCTAssertTrue(WakeupAttributor.isRuntimeSymbol("static FrugalSystem.SystemCall.retrying<A where A: Swift.FixedWidthInteger>(_: Swift.String) throws -> A"))
        XCTAssertTrue(WakeupAttributor.isRuntimeSymbol("specialized Swift.Array.append(A) -> ()"))
        XCTAssertTrue(WakeupAttributor.isRuntimeSymbol("static frugal_workload_host.WorkloadHost.$main() -> ()"))
        XCTAssertFalse(WakeupAttributor.isRuntimeSymbol("closure #1 (FrugalKit.RunLoopTimer) -> () in FrugalWorkloads.PollingNewsApp.didFinishLaunching(FrugalKit.Application) -> ()"))
        XCTAssertFalse(WakeupAttributor.isRuntimeSymbol("FrugalWorkloads.NewsFeed.check(app: FrugalKit.Application) -> ()"))
        XCTAssertEqual(WakeupAttributor.owner("closure #1 in closure #2 (Swift.Int) -> () in App.Model.load() -> ()"), "App.Model.load() -> ()")
        // Names the optimizer makes in a release build.
        XCTAssertTrue(WakeupAttributor.isRuntimeSymbol("function signature specialization <Arg[1] = Dead> of static FrugalKit.Application.main(apps: [FrugalKit.AppEntry]) -> Swift.Never"))
        XCTAssertEqual(WakeupAttributor.owner("generic specialization <Swift.Int> of App.Cache.store<A>(A) -> ()"), "App.Cache.store<A>(A) -> ()")
        XCTAssertEqual(WakeupAttributor.owner("closure #1 in specialized static App.Poller.start() -> ()"), "App.Poller.start() -> ()")
    }
}

extension WakeupAttributorTests {
    /// A main-thread wakeup carries the FrugalKit handler that started right after it; other
    /// threads' do not, and neither does one with no handler within 50 ms.
    func testMainThreadWakeupsNameTheHandlerThatRan() {
        let loop = WakeupCause(kind: .timer, symbol: "closure #1 in FrugalKit.MainRunLoop.run() throws -> ()", module: Self.program, from: "wait")
        let attribution = WakeupAttribution(source: WakeupAttributor.source, causes: [loop],
                                            wakeups: [AttributedWakeup(time: 1_000_000_000, pid: 7, tid: 7, cause: 0),
                                                      AttributedWakeup(time: 2_000_000_000, pid: 7, tid: 7, cause: 0),
                                                      AttributedWakeup(time: 3_000_000_000, pid: 7, tid: 8, cause: 0),
                                                      AttributedWakeup(time: 4_000_000_000, pid: 7, tid: 7, cause: 0),
                                                      AttributedWakeup(time: 5_000_000_000, pid: 7, tid: 7, cause: 0)])
        let named = attribution.namingHandlers([(2_000_100_000, "timer:display"), (1_000_200_000, "timer:display"),
                                                (3_000_100_000, "posted:x"), (4_060_000_000, "input:late"), (5_000_000_100, "timer:display")])
        let handlers = named.wakeups.map { named.causes[$0.cause].handler }
        XCTAssertEqual(handlers, ["timer:display", "timer:display", nil, nil, "timer:display"])
        XCTAssertEqual(named.causes.count, 2, "one cause per handler, shared by its wakeups")
        let causes = RunWakeupCauses(named, idleSlices: [])
        XCTAssertEqual(causes.top.first?.count, 5, "one function: its wakeups with and without a handler together")
        XCTAssertTrue(causes.topCauseText?.contains("handler timer:display") ?? false, causes.topCauseText ?? "")
    }
}

extension WakeupAttributorTests {
    /// One function that wakes threads in two ways (a timer's tick, the worker its handler
    /// wakes) is one row with both kinds counted, ahead of a function with more wakeups of any
    /// single kind but fewer in all.
    func testCausesAreGroupedByFunction() {
        let tick = WakeupCause(kind: .timer, symbol: "closure #1 in App.Poller.start()", module: Self.program, from: "handler", handler: "timer:poll")
        let queued = WakeupCause(kind: .thread, symbol: "closure #1 in App.Poller.start()", module: Self.program, via: "futex", from: "waker")
        let other = WakeupCause(kind: .thread, symbol: "App.Feed.done()", module: Self.program, from: "waker")
        let unnamedTimer = WakeupCause(kind: .timer, symbol: nil, module: nil)
        let unnamedIO = WakeupCause(kind: .io, symbol: nil, module: nil)
        var wakeups: [AttributedWakeup] = []
        for (cause, count) in [(0, 2), (1, 2), (2, 3), (3, 1), (4, 1)] {
            for _ in 0..<count { wakeups.append(AttributedWakeup(time: UInt64(wakeups.count), pid: 1, tid: Int32(cause), cause: cause)) }
        }
        let attribution = WakeupAttribution(source: WakeupAttributor.source, causes: [tick, queued, other, unnamedTimer, unnamedIO], wakeups: wakeups)
        let causes = RunWakeupCauses(attribution, idleSlices: [])
        XCTAssertEqual(causes.top.map(\.count), [4, 3, 1, 1])
        XCTAssertEqual(causes.top[0].kinds, ["timer": 2, "another thread": 2])
        XCTAssertEqual(causes.top[0].share, 4.0 / 9.0, accuracy: 1e-12)
        XCTAssertEqual(causes.top[0].threads.count, 2)
        XCTAssertEqual(causes.top[1].cause.symbol, "App.Feed.done()")
        XCTAssertEqual(Set(causes.top.suffix(2).map(\.cause.kind)), [.timer, .io], "unnamed causes stay apart by kind")
        XCTAssertEqual(causes.topCauseText?.hasPrefix("another thread + timer: closure #1 in App.Poller.start()"), true, causes.topCauseText ?? "")
    }
}

extension WakeupAttributorTests {
    /// A thread woken while still on its way to sleep: the waker's `sched_wakeup` (one CPU)
    /// comes before the sleeper's switch (another CPU). The wakeup is still the waker's.
    func testAWakeupJustBeforeTheSwitchIsTheWakersOwn() {
        let waker = [TraceFrame(module: "libc.so.6", symbol: "sem_post"), Self.check]
        let events = [
            SchedulerEvent(time: 1_000_000, pid: 100, tid: 100, kind: .wake(target: 101), stack: waker),
            Self.sleep(1_300_000, tid: 101, stack: [TraceFrame(module: "libdispatch.so", symbol: "_dispatch_sema4_wait")]),
            Self.exit(1_400_000, tid: 101, call: Self.futexNumber, result: 0),
            // Long after a wakeup fired at it, a sleep is its own.
            SchedulerEvent(time: 5_000_000, pid: 100, tid: 100, kind: .wake(target: 101), stack: waker),
            Self.sleep(9_000_000, tid: 101, stack: [TraceFrame(module: "libdispatch.so", symbol: "_dispatch_sema4_wait")]),
            Self.exit(9_500_000, tid: 101, call: Self.futexNumber, result: 0),
        ]
        let attribution = WakeupAttributor.attribute(events, programs: Self.programs)
        let causes = attribution.wakeups.map { attribution.causes[$0.cause] }
        XCTAssertEqual(causes.map(\.kind), [.thread, .process])
        XCTAssertEqual(causes[0].symbol, "NewsApp.Feed.check() -> ()")
        XCTAssertEqual(causes[0].from, "waker")
        XCTAssertEqual(attribution.wakeups[0].time, 1_000_000)
    }
}
