import Foundation
import FrugalProbe

/// The time the harness's watchdogs, waits and samples run on: monotonic nanoseconds.
///
/// Every wait of the harness for its app (an acknowledgement, an exit, a watchdog's deadline)
/// goes through the clock, so a test can give the harness a clock that it moves by hand
/// (`ManualClock` in the tests, in the spirit of swift-nio's `EmbeddedEventLoop`) and check a
/// five-second watchdog in microseconds. The real clock is `SystemClock`.
protocol HarnessClock: Sendable {
    /// Monotonic nanoseconds now.
    func now() -> UInt64
    /// With `condition` locked: returns when it is signalled or `deadline` has come, perhaps
    /// earlier (callers re-check what they wait for, as with any condition variable).
    func wait(_ condition: NSCondition, until deadline: UInt64)
    /// Returns once `deadline` has come.
    func sleep(until deadline: UInt64)
}

extension HarnessClock {
    /// Returns once `seconds` have passed on this clock.
    func sleep(seconds: Double) { sleep(until: now() + RunSession.nanoseconds(seconds)) }
}

/// The machine's monotonic clock (`CLOCK_MONOTONIC`, the clock every event and sample is stamped with).
struct SystemClock: HarnessClock {
    func now() -> UInt64 { MonotonicClock.now() }

    func wait(_ condition: NSCondition, until deadline: UInt64) {
        let now = MonotonicClock.now()
        guard now < deadline else { return }
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
    }

    func sleep(until deadline: UInt64) {
        let now = MonotonicClock.now()
        guard now < deadline else { return }
        Thread.sleep(forTimeInterval: Double(deadline - now) / 1e9)
    }
}
