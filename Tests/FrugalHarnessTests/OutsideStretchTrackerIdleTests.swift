import XCTest
@testable import FrugalHarness
import FrugalCore

/// The outside watch's samples of a main queue that runs on a pool thread (`dispatchMain()`): while
/// no thread drains it the sample is idle, and the thread's own waits and other work are not the
/// main thread's.
final class OutsideStretchTrackerIdleTests: XCTestCase {
    static let ms: UInt64 = 1_000_000

    struct Pool {
        var tracker = OutsideStretchTracker(limitNanoseconds: 250 * OutsideStretchTrackerIdleTests.ms)
        var time: UInt64 = 1_000 * OutsideStretchTrackerIdleTests.ms
        var switches = 1
        var onCPU: UInt64 = 0

        mutating func step(_ milliseconds: UInt64, state: String, idle: Bool, syscall: String = "202",
                           expecting: OutsideStretchTracker.Expecting = (0, 0)) {
            if state != "R" { switches += 1 }
            for _ in 0..<(milliseconds / 25) {
                time += 25 * OutsideStretchTrackerIdleTests.ms
                if state == "R" { onCPU += 25 * OutsideStretchTrackerIdleTests.ms }
                tracker.observe(.init(pid: 8, time: time, state: ThreadWaitState(state: state, wchan: state == "R" ? nil : "futex_wait_queue",
                                                                                    syscall: state == "R" ? "running" : syscall,
                                                                                    voluntaryContextSwitches: switches,
                                                                                    involuntaryContextSwitches: 0, onCPUNanoseconds: onCPU),
                                      idle: idle), expecting: expecting)
            }
        }
    }

    /// Waiting in the pool (a futex, no event-wait call) while an answer is expected is not a hang:
    /// the main queue was idle.
    func testAPoolThreadWaitingWhileTheMainQueueIsIdleIsNoHang() {
        var pool = Pool()
        let expecting = (pool.time, pool.time + 2_000 * Self.ms)
        pool.step(600, state: "S", idle: true, expecting: expecting)
        pool.step(100, state: "S", idle: false, syscall: "230", expecting: expecting)
        pool.tracker.finish(exitTime: pool.time, now: pool.time, expecting: expecting)
        XCTAssertEqual(pool.tracker.hangs, [])
    }

    /// The drainer's spin is a hang of its length even when the thread runs on after the drain
    /// ends (the queue found idle) without sleeping; the work after it is not counted.
    func testASpinOnTheMainQueueEndsWhenTheQueueIsFoundIdle() throws {
        var pool = Pool()
        pool.step(200, state: "S", idle: true)
        pool.step(400, state: "R", idle: false)
        pool.step(500, state: "R", idle: true)
        pool.tracker.finish(exitTime: pool.time, now: pool.time, expecting: (0, 0))
        XCTAssertEqual(pool.tracker.hangs.count, 1, "\(pool.tracker.hangs)")
        XCTAssertEqual(try XCTUnwrap(pool.tracker.hangs.first).milliseconds, 400, accuracy: 30)
    }

    /// Other queues' work on the thread while the main queue is idle is no hang at all.
    func testOtherWorkOnThePoolThreadIsNotTheMainThreads() {
        var pool = Pool()
        pool.step(200, state: "S", idle: true)
        pool.step(600, state: "R", idle: true)
        pool.tracker.finish(exitTime: pool.time, now: pool.time, expecting: (0, 0))
        XCTAssertEqual(pool.tracker.hangs, [])
        XCTAssertEqual(pool.tracker.longestBusy, 0)
    }
}
