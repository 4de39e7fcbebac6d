import Foundation

/// `frugal-workload-host --block spin|poll|main-queue|runloop LEAD SECONDS TAIL`: a plain program
/// (no FrugalKit) whose main thread sleeps LEAD seconds, then blocks for SECONDS — on the CPU without
/// yielding (`spin`) or off it in one `poll` with no descriptors (`poll`) — then sleeps TAIL seconds
/// (0: exits as the block ends) and exits 0. A known answer for the outside hang watch.
/// `main-queue` and `runloop` spin the same way in a block on the main queue, as a Swift program
/// does: `main-queue` under `dispatchMain()` (the first thread parks in `rt_sigsuspend` and a
/// libdispatch pool thread drains the main queue), `runloop` in a `Timer` on `RunLoop.main.run()`
/// (the first thread runs the run loop).
enum Blocker {
    static func run(kind: String, lead: Double, seconds: Double, tail: Double) -> Never {
        switch kind {
        case "main-queue":
            DispatchQueue.main.asyncAfter(deadline: .now() + lead) {
                spin(seconds)
                DispatchQueue.main.asyncAfter(deadline: .now() + tail) { exit(0) }
            }
            dispatchMain()
        case "runloop":
            // `scheduledTimer`: swift-corelibs-foundation's `Timer(timeInterval:repeats:block:)` added
            // with `RunLoop.add` fires at once (seen with 6.3.1), not after its interval.
            _ = Timer.scheduledTimer(withTimeInterval: lead, repeats: false) { _ in
                spin(seconds)
                _ = Timer.scheduledTimer(withTimeInterval: tail, repeats: false) { _ in exit(0) }
            }
            while true { RunLoop.main.run() }
        default: break
        }
        sleep(seconds: lead)
        switch kind {
        case "spin":
            spin(seconds)
        default:
            _ = poll(nil, 0, Int32(seconds * 1000))
        }
        if tail > 0 { sleep(seconds: tail) }
        exit(0)
    }

    /// Burns `seconds` of the thread's own CPU clock, so a preempted spin still burns them all.
    private static func spin(_ seconds: Double) {
        let start = threadCPUSeconds()
        var sink: UInt64 = 0
        while threadCPUSeconds() - start < seconds { sink &+= 1 }
        if sink == 42 { print("") }
    }

    private static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - floor(seconds)) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) != 0 && errno == EINTR { pause = remaining }
    }

    private static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
