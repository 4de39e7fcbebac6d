import Foundation
import FrugalProbe

/// The user's request to stop the suite (SIGINT, SIGTERM), shared by the runner's threads.
///
/// It is a message, not a state change made from another thread: `interrupt(signal:)` records
/// the signal and kills the workload processes the runs registered, so whatever step each run
/// is waiting in returns at once; each run then sees `signal` on its own thread, records itself
/// as `interrupted` and ends through its normal teardown (reap, cgroup, proxy, sandbox). The
/// suite starts no new run once interrupted.
// @unchecked: `received`, `next` and `stoppers` are read and written only holding `lock` (an
// NSCondition: a run can wait on it).
public final class SuiteInterruption: @unchecked Sendable {
    private let lock = NSCondition()
    private var received: Int32?
    private var next = 0
    private var stoppers: [Int: @Sendable () -> Void] = [:]

    public init() {}

    /// The first signal received, or nil while the suite may go on.
    public var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Records `signal` (the first one counts) and stops every registered process.
    public func interrupt(signal: Int32) {
        lock.lock()
        if received == nil { received = signal }
        let stopping = Array(stoppers.values)
        lock.broadcast()
        lock.unlock()
        for stop in stopping { stop() }
    }

    /// Registers how to stop a live process; returns a token for `unregister`. Registered after
    /// an interrupt, it is stopped at once.
    func register(_ stop: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        next += 1
        let token = next
        stoppers[token] = stop
        let interrupted = received != nil
        lock.unlock()
        if interrupted { stop() }
        return token
    }

    func unregister(_ token: Int) {
        lock.lock()
        stoppers[token] = nil
        lock.unlock()
    }

    /// Sleeps until `deadline` (ns on `clock`) or an interrupt, whichever comes first.
    func sleep(until deadline: UInt64, clock: any HarnessClock = SystemClock()) {
        lock.lock()
        defer { lock.unlock() }
        while received == nil {
            if clock.now() >= deadline { return }
            clock.wait(lock, until: deadline)
        }
    }

    /// What an interrupted run's outcome detail says.
    static func detail(_ signal: Int32) -> String {
        "interrupted by \(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)") before the scenario ended"
    }
}
