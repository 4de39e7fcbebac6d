import Foundation

/// `frugal-workload-host --block spin|poll LEAD SECONDS TAIL`: a plain program (no FrugalKit)
/// whose main thread sleeps LEAD seconds, then blocks for SECONDS — on the CPU without yielding
/// (`spin`) or off it in one `poll` with no descriptors (`poll`) — then sleeps TAIL seconds (0:
/// exits as the block ends) and exits 0. A known answer for the outside hang watch.
enum Blocker {
    static func run(kind: String, lead: Double, seconds: Double, tail: Double) -> Never {
        sleep(seconds: lead)
        switch kind {
        case "spin":
            // The thread's own CPU clock, so a preempted spin still burns SECONDS of CPU.
            let start = threadCPUSeconds()
            var sink: UInt64 = 0
            while threadCPUSeconds() - start < seconds { sink &+= 1 }
            if sink == 42 { print("") }
        default:
            _ = poll(nil, 0, Int32(seconds * 1000))
        }
        if tail > 0 { sleep(seconds: tail) }
        exit(0)
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
