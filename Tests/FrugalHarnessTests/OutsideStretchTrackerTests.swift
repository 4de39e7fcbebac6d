import XCTest
@testable import FrugalHarness
import FrugalCore

/// The outside hang watch's decisions, sample by sample: what `/proc` shows of a main thread that
/// sleeps, spins, blocks and exits, with the kernel's counting rules (the voluntary-switch count
/// goes up when the thread goes to sleep; schedstat's on-CPU time grows only while it runs).
final class OutsideStretchTrackerTests: XCTestCase {
    static let ms: UInt64 = 1_000_000
    static let none: OutsideStretchTracker.Expecting = (0, 0)

    /// Feeds 25 ms samples of a thread whose life is a list of phases.
    struct Thread {
        var tracker = OutsideStretchTracker(limitNanoseconds: 250 * OutsideStretchTrackerTests.ms)
        var time: UInt64 = 1_000 * OutsideStretchTrackerTests.ms
        var switches = 1
        var onCPU: UInt64 = 0

        mutating func sleep(_ milliseconds: UInt64, syscall: String = "230", state: String = "S") {
            switches += 1
            for _ in 0..<(milliseconds / 25) {
                time += 25 * OutsideStretchTrackerTests.ms
                sample(state: state, syscall: syscall)
            }
        }

        mutating func spin(_ milliseconds: UInt64) {
            for _ in 0..<(milliseconds / 25) {
                time += 25 * OutsideStretchTrackerTests.ms
                onCPU += 25 * OutsideStretchTrackerTests.ms
                sample(state: "R", syscall: "running")
            }
        }

        mutating func sample(state: String, syscall: String) {
            tracker.observe(.init(pid: 7, time: time, state: ThreadWaitState(state: state, wchan: state == "R" ? nil : "do_nanosleep",
                                                                                syscall: syscall, voluntaryContextSwitches: switches,
                                                                                involuntaryContextSwitches: 0, onCPUNanoseconds: onCPU)),
                            expecting: OutsideStretchTrackerTests.none)
        }
    }

    /// The kernel counted the switch when the thread went to sleep, so the sleep and the spin
    /// after it have one count: the spin is a stretch of its own, measured by its CPU time.
    func testASpinAfterASleepIsAHangOfItsLength() throws {
        var thread = Thread()
        thread.sleep(200)
        thread.spin(300)
        thread.sleep(200)
        thread.tracker.finish(exitTime: thread.time, now: thread.time, expecting: Self.none)
        XCTAssertEqual(thread.tracker.hangs.count, 1, "\(thread.tracker.hangs)")
        let hang = try XCTUnwrap(thread.tracker.hangs.first)
        XCTAssertEqual(hang.kind, "busy")
        XCTAssertEqual(hang.milliseconds, 300, accuracy: 25)
        XCTAssertEqual(Double(thread.tracker.longestBusy) / 1e6, 300, accuracy: 25)
    }

    /// The watcher slows down while the thread sleeps: a spin that starts and ends between two
    /// samples that both see it asleep is found from the one wakeup and the CPU time between them,
    /// with its length; two runs between the samples (two wakeups) are not taken for one.
    func testASpinBetweenTwoSleepingSamplesIsStillAHangOfItsLength() throws {
        var thread = Thread()
        thread.sleep(200)
        // Unseen: it wakes, spins 300 ms and sleeps again between samples 500 ms apart.
        thread.time += 500 * Self.ms
        thread.onCPU += 300 * Self.ms
        thread.switches += 1
        thread.sample(state: "S", syscall: "230")
        thread.sleep(200)
        // Two wakeups with 300 ms of CPU between them: two runs of unknown lengths, no verdict.
        thread.time += 500 * Self.ms
        thread.onCPU += 300 * Self.ms
        thread.switches += 2
        thread.sample(state: "S", syscall: "230")
        thread.sleep(100)
        thread.tracker.finish(exitTime: thread.time, now: thread.time, expecting: Self.none)
        XCTAssertEqual(thread.tracker.hangs.count, 1, "\(thread.tracker.hangs)")
        let hang = try XCTUnwrap(thread.tracker.hangs.first)
        XCTAssertEqual(hang.kind, "busy")
        XCTAssertEqual(hang.milliseconds, 300, accuracy: 1)
        XCTAssertEqual(Double(thread.tracker.longestBusy) / 1e6, 300, accuracy: 1)
    }

    /// A spin that lasts until the program exits is closed at the exit, not dropped.
    func testASpinUntilTheExitIsClosedAtTheExit() throws {
        var thread = Thread()
        thread.sleep(100)
        thread.spin(400)
        // The exit came 20 ms after the last sample: the thread was on the CPU until then.
        let exit = thread.time + 20 * Self.ms
        thread.tracker.lost(at: exit + 5 * Self.ms)
        thread.tracker.finish(exitTime: exit, now: exit + 30 * Self.ms, expecting: Self.none)
        let hang = try XCTUnwrap(thread.tracker.hangs.first, "the last stretch is a hang")
        XCTAssertEqual(hang.milliseconds, 420, accuracy: 25)
        XCTAssertEqual(hang.end, exit)
    }

    /// A thread seen as a zombie (its schedstat reads 0) ends the watch of it; its on-CPU time
    /// never wraps around (a longest block of 1.8 × 10¹³ ms was once reported).
    func testAZombieSampleEndsTheStretchWithoutWrapping() throws {
        var thread = Thread()
        thread.sleep(100)
        thread.spin(300)
        thread.time += 25 * Self.ms
        thread.tracker.observe(.init(pid: 7, time: thread.time, state: ThreadWaitState(state: "Z", wchan: nil, syscall: nil,
                                                                                        voluntaryContextSwitches: thread.switches,
                                                                                        involuntaryContextSwitches: 0, onCPUNanoseconds: 0)),
                               expecting: Self.none)
        thread.tracker.finish(exitTime: thread.time, now: thread.time, expecting: Self.none)
        XCTAssertLessThan(Double(thread.tracker.longestBusy) / 1e6, 400)
        let hang = try XCTUnwrap(thread.tracker.hangs.first)
        XCTAssertEqual(hang.milliseconds, 325, accuracy: 30)
    }

    func testAShortSpinIsNotAHangAndAnIdleWaitIsNot() {
        var thread = Thread()
        thread.sleep(100)
        thread.spin(100)
        thread.sleep(600, syscall: "232")  // epoll_wait: idle, waiting for its next event
        thread.spin(100)
        thread.sleep(100)
        thread.tracker.finish(exitTime: nil, now: thread.time, expecting: Self.none)
        XCTAssertTrue(thread.tracker.hangs.isEmpty, "\(thread.tracker.hangs)")
        XCTAssertEqual(Double(thread.tracker.longestBusy) / 1e6, 100, accuracy: 25)
    }

    /// The launch's own work (before the thread first sleeps) is the launch's, not a hang.
    func testTheLaunchIsNotAHang() {
        var thread = Thread()
        thread.spin(400)
        thread.sleep(100)
        thread.tracker.finish(exitTime: nil, now: thread.time, expecting: Self.none)
        XCTAssertTrue(thread.tracker.hangs.isEmpty, "\(thread.tracker.hangs)")
    }

    /// A main thread that never waits once (a shell's `while :; do :; done`) never ends its
    /// launch: past the guide's 5 s to start handling events, on the CPU, it is one hang.
    func testALaunchThatNeverWaitsIsAHangPastFiveSeconds() throws {
        var short = Thread()
        short.spin(4_900)
        short.tracker.finish(exitTime: short.time, now: short.time, expecting: Self.none)
        XCTAssertTrue(short.tracker.hangs.isEmpty, "under 5 s it is still launch: \(short.tracker.hangs)")
        var spinner = Thread()
        spinner.spin(6_000)
        spinner.tracker.finish(exitTime: spinner.time, now: spinner.time, expecting: Self.none)
        let hang = try XCTUnwrap(spinner.tracker.hangs.first)
        XCTAssertEqual(hang.kind, OutsideHang.neverWaitedKind)
        XCTAssertEqual(hang.milliseconds, 6_000, accuracy: 50)
    }

    func testAnUninterruptibleWaitIsAHang() {
        var thread = Thread()
        thread.sleep(100)
        thread.sleep(300, syscall: "74", state: "D")
        thread.sleep(100)
        thread.tracker.finish(exitTime: nil, now: thread.time, expecting: Self.none)
        XCTAssertEqual(thread.tracker.hangs.map(\.kind), ["uninterruptible"])
    }
}
