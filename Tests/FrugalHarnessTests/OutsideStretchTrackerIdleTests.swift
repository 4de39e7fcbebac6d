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

    /// Another pool thread takes the main queue between two 100 ms samples and spins 400 ms: with its
    /// baseline from the sample before (read though it was not the one watched), the hang is 400 ms,
    /// not the 300 ms from the first sample that watched it.
    func testASpinOnANewPoolThreadCountsFromItsBaseline() throws {
        var tracker = OutsideStretchTracker(limitNanoseconds: 250 * Self.ms)
        func state(_ letter: String, _ switches: Int, _ onCPU: UInt64) -> ThreadWaitState {
            ThreadWaitState(state: letter, wchan: nil, syscall: letter == "R" ? "running" : "202", voluntaryContextSwitches: switches,
                            involuntaryContextSwitches: 0, onCPUNanoseconds: onCPU)
        }
        var time: UInt64 = 1_000 * Self.ms
        for _ in 0..<5 {
            time += 100 * Self.ms
            tracker.observe(.init(pid: 8, time: time, state: state("S", 3, 0), idle: true), expecting: (0, 0))
        }
        // Thread 9 at that last sample: asleep in the pool, 5 ms on the CPU so far.
        let baseline = OutsideStretchTracker.Sample(pid: 9, time: time, state: state("S", 4, 5 * Self.ms))
        for step in 1...4 {
            time += 100 * Self.ms
            if step == 1 { tracker.assumePrevious(baseline) }
            tracker.observe(.init(pid: 9, time: time, state: state("R", 4, 5 * Self.ms + UInt64(step) * 100 * Self.ms)), expecting: (0, 0))
        }
        time += 100 * Self.ms
        tracker.observe(.init(pid: 9, time: time, state: state("S", 5, 405 * Self.ms), idle: true), expecting: (0, 0))
        tracker.finish(exitTime: time, now: time, expecting: (0, 0))
        XCTAssertEqual(tracker.hangs.count, 1, "\(tracker.hangs)")
        XCTAssertEqual(try XCTUnwrap(tracker.hangs.first).milliseconds, 400, accuracy: 1)
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
