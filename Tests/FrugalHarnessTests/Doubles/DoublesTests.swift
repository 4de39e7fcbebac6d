import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The test doubles themselves: a watchdog test is only as good as the app and clock it runs on.
final class DoublesTests: XCTestCase {
    func testTheManualClockRunsScheduledActionsInTimeOrderAtTheirOwnTimes() {
        let clock = ManualClock(start: 0)
        // @unchecked: `entries` is only touched holding `lock`.
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var entries: [(String, UInt64)] = []
            func add(_ name: String, _ time: UInt64) { lock.withLock { entries.append((name, time)) } }
        }
        let log = Log()
        clock.schedule(at: 300) { log.add("c", clock.now()) }
        clock.schedule(at: 100) { log.add("a", clock.now()) }
        clock.schedule(at: 200) { log.add("b", clock.now()) }
        clock.advance(to: 250)
        XCTAssertEqual(log.entries.map(\.0), ["a", "b"])
        XCTAssertEqual(log.entries.map(\.1), [100, 200])
        XCTAssertEqual(clock.now(), 250)
        clock.advance(to: 1000)
        XCTAssertEqual(log.entries.map(\.0), ["a", "b", "c"])
    }

    /// The driver's wait moves the clock to the next scheduled action, not past it.
    func testAWaitOnTheDriverStopsAtTheNextScheduledAction() {
        let clock = ManualClock(start: 0)
        let condition = NSCondition()
        clock.schedule(at: 40) {}
        condition.lock()
        clock.wait(condition, until: 100)
        XCTAssertEqual(clock.now(), 40)
        clock.wait(condition, until: 100)
        XCTAssertEqual(clock.now(), 100)
        condition.unlock()
    }

    /// Another thread's wait ends when the clock is moved past its deadline.
    func testAnotherThreadsWaitEndsWhenTheClockPassesItsDeadline() {
        let clock = ManualClock(start: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            clock.sleep(until: 500)
            done.signal()
        }
        clock.advance(to: 499)
        XCTAssertEqual(done.wait(timeout: .now() + 0.05), .timedOut, "woke before its deadline")
        clock.advance(to: 500)
        // Generous: the thread only has to wake; 10 s bounds a wait that never ends.
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    }

    /// A message waits for the main thread, and for SIGCONT while the app is stopped.
    func testTheSimulatedAppHandlesOneThingAtATimeAndNothingWhileStopped() throws {
        let clock = ManualClock()
        let reader = EventStreamReader(fedOn: clock)
        let app = SimulatedApp(pid: Int32.max, clock: clock, events: reader, answer: nil, onEndOfControl: nil)
        app.runHandler("didFinishLaunching", taking: 2)
        try app.send(ControlMessage(sequence: 1, command: .ping))
        XCTAssertFalse(reader.waitForAck(1, until: clock.now() + 1_000_000_000), "answered while its main thread was busy")
        XCTAssertTrue(reader.waitForAck(1, until: clock.now() + 5_000_000_000))
        app.kill(SIGSTOP)
        try app.send(ControlMessage(sequence: 2, command: .ping))
        XCTAssertFalse(reader.waitForAck(2, until: clock.now() + 60_000_000_000), "answered while stopped")
        app.kill(SIGCONT)
        XCTAssertTrue(reader.waitForAck(2, until: clock.now()))
        app.kill(SIGKILL)
        XCTAssertEqual(app.waitForExit(until: clock.now())?.status.signal, SIGKILL)
        XCTAssertThrowsError(try app.send(ControlMessage(sequence: 3, command: .ping)), "a dead app's pipe is closed")
    }
}
