import Foundation
import FrugalProtocol
import FrugalSystem
import CFrugalSystem
import CFrugalMainLoop

/// What the main thread services besides FrugalKit's own sources: libdispatch's main queue and
/// CoreFoundation's main run loop (Foundation's `RunLoop.main`).
///
/// Why FrugalKit's epoll wait stays the outer one, with the platform's two descriptors in it
/// (rather than CFRunLoop as the outer wait with FrugalKit's epoll set as a version-1 source, or
/// a custom Swift main executor):
/// - it is the wait every FrugalKit app already has, so an app that uses none of this wakes
///   exactly as before (no extra wakeup, nothing new in its handlers), and FrugalKit's timer
///   tolerance keeps its coalescing (CoreFoundation's Linux timers arm their timerfd at the
///   earliest fire date, ignoring tolerance);
/// - the main queue is drained by this loop, through the hook CoreFoundation itself uses
///   (`_dispatch_main_queue_callback_4CF`), so each drain is one handler named `main-queue`
///   instead of an anonymous slice of a CFRunLoop pass. Swift concurrency's main executor on
///   Linux enqueues on that queue (libswift_Concurrency's main executor calls
///   `dispatch_async_f` on `_dispatch_main_q`), so main-actor jobs come the same way; a custom
///   executor would cover only them, not `DispatchQueue.main`;
/// - CoreFoundation's own waits come through its epoll set (CFRunLoop.c on Linux: each mode's
///   port set is an epoll descriptor holding the run loop's wake-up eventfd and its timerfd),
///   so a timer added from any thread or a `CFRunLoopWakeUp` wakes this loop, which then runs
///   one non-blocking pass (`CFRunLoopRunInMode(default, 0, true)`; a 0 timeout creates no
///   dispatch timer, so it starts no libdispatch thread).
///
/// libdispatch binds the main queue to the main thread when it initialises (`libdispatch_init`
/// calls `_dispatch_queue_set_bound_thread(&_dispatch_main_q)`), so
/// `dispatchPrecondition(condition: .onQueue(.main))` holds in every handler of this loop.
@MainActor
final class PlatformQueues {
    /// libdispatch's main-queue eventfd, written on every enqueue to the main queue.
    nonisolated let mainQueueFD: Int32
    /// The epoll set CoreFoundation's main run loop waits on in the default mode; nil when it
    /// could not be found (then `RunLoop.main` runs only after this loop's other wakeups).
    nonisolated let runLoopWaitSetFD: Int32?

    /// Why `runLoopWaitSetFD` is nil, when it is.
    nonisolated let runLoopWaitSetProblem: String?
    /// The default mode's timerfd in that set (`disarmStaleRunLoopTimer`); nil when not found.
    private let runLoopTimerFD: Int32?

    init() {
        mainQueueFD = frugal_main_queue_handle()
        let waitSet = frugal_cf_main_wait_set()
        runLoopWaitSetFD = waitSet >= 0 ? waitSet : nil
        runLoopWaitSetProblem = waitSet >= 0 ? nil
            : "CoreFoundation's main run-loop wait set was not found (\(String(cString: strerror(errno)))): RunLoop.main's timers and wake-ups run only when the main thread wakes for something else"
        let timer = waitSet >= 0 ? frugal_cf_wait_set_timer(waitSet) : -1
        runLoopTimerFD = timer >= 0 ? timer : nil
    }

    /// After main-thread work: when `RunLoop.main` has no timer left, its timerfd is disarmed, as
    /// CoreFoundation does on Darwin and not on Linux (`frugal_cf_disarm_stale_timer` says why).
    /// Without this, an app that stops its timers in `willResignActive` or `didEnterBackground`,
    /// as the guide asks ("Stop timers and other periodic tasks"), woke once more at the next
    /// fire date of the timer it had invalidated: 1 wakeup in a 1 s interruption, judged as a
    /// timer still running while inactive (measured on a Foundation `Timer`, 1 s interval).
    func disarmStaleRunLoopTimer() {
        if let runLoopTimerFD { _ = frugal_cf_disarm_stale_timer(runLoopTimerFD) }
    }

    /// Acknowledges the main queue's wakeup (as CoreFoundation does) and runs every block queued
    /// so far, as one handler.
    func drainMainQueue(meter: HandlerMeter) {
        var value: UInt64 = 0
        // EAGAIN: a pass of the run loop consumed this wakeup already; draining an empty queue is cheap.
        _ = try? SystemCall.retrying("read", subject: "main queue eventfd") { read(mainQueueFD, &value, 8) }
        meter.measure("main-queue") { frugal_drain_main_queue() }
    }

    /// One pass of `RunLoop.main`: its wake-up port or its timerfd is readable.
    func runLoopPass(meter: HandlerMeter) {
        meter.measure(timerIsDue ? "runloop.main:timer" : "runloop.main") { _ = frugal_cf_run_pass() }
    }

    /// Whether one of `RunLoop.main`'s timers is due (CFRunLoop's API names no timer, so the
    /// handler is named for the kind of work, not the timer).
    private var timerIsDue: Bool {
        let untilTimer = frugal_cf_seconds_to_next_timer()
        return untilTimer <= 0 && untilTimer > -.infinity
    }

    /// `RunLoop.main.perform` (CFRunLoopPerformBlock) wakes nothing, on Darwin too: there the
    /// block runs later in the same run-loop iteration as the code that queued it. So after a
    /// wakeup that ran app code, one non-blocking pass runs what it queued. Reported only when
    /// it took 1 ms or more: it runs after nearly every wakeup and almost always finds nothing.
    func runPerformedBlocks(meter: HandlerMeter) {
        // Main-queue work goes first, as its own handler (the next epoll_wait returns at once);
        // the pass would otherwise drain it inside itself.
        if mainQueueHasWork() { return }
        // A timer already due (one added with a past fire date: swift-corelibs-foundation's
        // `Timer(timeInterval:repeats:block:)` fires at once) is known work: reported from its start.
        if timerIsDue {
            meter.measure("runloop.main:timer") { _ = frugal_cf_run_pass() }
        } else {
            meter.measure("runloop.main:perform", unlessShorterThan: 1_000_000) { _ = frugal_cf_run_pass() }
        }
    }

    /// Whether blocks are waiting on the main queue (its eventfd is readable).
    nonisolated func mainQueueHasWork() -> Bool {
        var descriptor = pollfd(fd: mainQueueFD, events: Int16(POLLIN), revents: 0)
        return (try? SystemCall.retrying("poll", subject: "main queue eventfd") { poll(&descriptor, 1, 0) }) == 1
    }
}
