import Foundation
@testable import FrugalHarness

/// A clock that moves only when told, in the spirit of swift-nio's `EmbeddedEventLoop`: a test
/// schedules what the simulated app does at given times, and the harness's own waits move the
/// clock to the next of those times or to the waited-for deadline, whichever comes first. A
/// five-second watchdog is then checked in microseconds, and at exactly five seconds.
///
/// The thread that made the clock drives it (the test's thread, on which the harness runs): its
/// waits advance the clock. Other threads (the hang watcher, the sampler) block until the driver
/// or the test moves it past their deadline.
// @unchecked: every mutable field is guarded by `lock` (below).
final class ManualClock: HarnessClock, @unchecked Sendable {
    // Every field is guarded by `lock`; actions run and conditions are signalled outside it.
    private let lock = NSLock()
    private var current: UInt64
    private var scheduled: [(time: UInt64, order: Int, action: @Sendable () -> Void)] = []
    private var nextOrder = 0
    /// The conditions other threads wait on, with how many wait on each.
    private var waiters: [ObjectIdentifier: (condition: NSCondition, count: Int)] = [:]
    private let driver = pthread_self()

    /// Starts at `start` ns (not 0: the harness reads a zero time as "none").
    init(start: UInt64 = 1_000_000_000) { current = start }

    func now() -> UInt64 { lock.withLock { current } }

    /// Seconds since `time` on this clock.
    func seconds(since time: UInt64) -> Double { Double(now() - time) / 1e9 }

    /// Runs `action` when the clock reaches `time` (at once on the next move if that has passed).
    func schedule(at time: UInt64, _ action: @escaping @Sendable () -> Void) {
        lock.withLock {
            scheduled.append((time, nextOrder, action))
            nextOrder += 1
        }
    }

    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) {
        schedule(at: now() + RunSession.nanoseconds(seconds), action)
    }

    /// Moves the clock to `target`, running each scheduled action at its own time on the way and
    /// waking every thread that waits on the clock.
    func advance(to target: UInt64) {
        while true {
            let due: (time: UInt64, order: Int, action: @Sendable () -> Void)? = lock.withLock {
                guard let index = scheduled.indices.filter({ scheduled[$0].time <= target })
                    .min(by: { (scheduled[$0].time, scheduled[$0].order) < (scheduled[$1].time, scheduled[$1].order) }) else {
                    current = max(current, target)
                    return nil
                }
                let item = scheduled.remove(at: index)
                current = max(current, item.time)
                return item
            }
            wakeWaiters()
            guard let due else { return }
            due.action()
        }
    }

    func advance(by seconds: Double) { advance(to: now() + RunSession.nanoseconds(seconds)) }

    private func wakeWaiters() {
        for condition in lock.withLock({ waiters.values.map(\.condition) }) {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    private var onDriver: Bool { pthread_equal(pthread_self(), driver) != 0 }

    func wait(_ condition: NSCondition, until deadline: UInt64) {
        if onDriver {
            // Nothing else moves while the driver waits: go to the next thing that can happen.
            condition.unlock()
            let next = lock.withLock { scheduled.map(\.time).min() }
            advance(to: min(deadline, next ?? deadline))
            condition.lock()
            return
        }
        // Registered before the deadline is read again under the caller's lock, so an advance
        // either sees this waiter or has already moved the time it reads.
        let key = ObjectIdentifier(condition)
        lock.withLock { waiters[key] = (condition, (waiters[key]?.count ?? 0) + 1) }
        defer {
            lock.withLock {
                let left = (waiters[key]?.count ?? 1) - 1
                waiters[key] = left == 0 ? nil : (condition, left)
            }
        }
        guard now() < deadline else { return }
        // The callers loop; the real-time cap only bounds a wait whose wakeup a test forgot.
        _ = condition.wait(until: Date(timeIntervalSinceNow: 5))
    }

    func sleep(until deadline: UInt64) {
        if onDriver {
            advance(to: deadline)
            return
        }
        let condition = NSCondition()
        condition.lock()
        while now() < deadline { wait(condition, until: deadline) }
        condition.unlock()
    }
}
