import Foundation

/// `frugal-workload-host --wake RATE SECONDS`: a plain program (no FrugalKit) whose main thread
/// sleeps and wakes RATE times a second for SECONDS, then exits 0: RATE × SECONDS wakeups, a known
/// answer for black-box measurements (`perf stat -e context-switches` counts the same, plus one
/// for the exec).
enum Waker {
    static func run(rate: Double, seconds: Double) -> Never {
        let count = Int((rate * seconds).rounded())
        let period = 1 / rate
        let start = Date()
        for index in 1...max(1, count) {
            // Sleep to the next tick of a fixed schedule, so a slow wakeup does not stretch the run.
            let due = start.addingTimeInterval(Double(index) * period)
            // Exactly one real sleep per tick, even when the tick is already due (100 µs at least:
            // a sleep that has expired before it starts does not leave the CPU), so one wakeup each.
            let left = max(0.0001, due.timeIntervalSinceNow)
            var pause = timespec(tv_sec: Int(left), tv_nsec: Int((left - floor(left)) * 1e9))
            var remaining = timespec()
            while nanosleep(&pause, &remaining) != 0 && errno == EINTR { pause = remaining }
        }
        exit(0)
    }
}
