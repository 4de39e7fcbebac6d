import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
@testable import FrugalProbe
import CFrugalSystem

/// The outside watch's read beside a sleeping thread (issue 31, "a lighter harness"): `schedstat`
/// first, and `status` only when the thread has run since. It must read what the full read reads
/// whenever the thread has run, and the same sleep while it has not.
final class ThreadWaitReaderQuietTests: XCTestCase {
    func testAQuietReadSeesEveryRunAndEveryNewWait() throws {
        let move = DispatchSemaphore(value: 0)
        let spin = DispatchSemaphore(value: 0)
        let spinning = Atomic<Bool>(true)
        let watched = HarnessLightnessTests.startThread {
            move.wait()                 // futex
            var pause = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            nanosleep(&pause, nil)      // another wait
            spin.wait()
            while spinning.load(ordering: .relaxed) {}  // on the CPU until told
        }
        let quiet = try XCTUnwrap(ThreadWaitReader(pid: getpid(), tid: watched))
        let full = try XCTUnwrap(ThreadWaitReader(pid: getpid(), tid: watched))
        let deadline = Date().addingTimeInterval(10)
        var first = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        while (first.state != "S" || first.syscall != full.read()?.syscall) && Date() < deadline {
            usleep(10_000)
            first = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        }
        for _ in 0..<3 {
            let again = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
            XCTAssertEqual(again, first, "a thread that has not run reads as the same sleep")
            let long = try XCTUnwrap(full.read())
            XCTAssertEqual(long.state, again.state)
            XCTAssertEqual(long.voluntaryContextSwitches, again.voluntaryContextSwitches)
            XCTAssertEqual(long.onCPUNanoseconds, again.onCPUNanoseconds)
            XCTAssertEqual(long.syscall, again.syscall)
        }
        move.signal()
        var moved = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        while (moved.state != "S" || moved.syscall == first.syscall) && Date() < deadline {
            usleep(5_000)
            moved = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        }
        XCTAssertNotEqual(moved.syscall, first.syscall, "the new wait is read, not the old sleep")
        XCTAssertGreaterThan(moved.voluntaryContextSwitches, first.voluntaryContextSwitches)
        // Not greater: the run between the two waits lasts microseconds, and schedstat's on-CPU
        // time once read the same 51,919 ns across it (on CI); the switch count above is what
        // proves the thread ran.
        XCTAssertGreaterThanOrEqual(moved.onCPUNanoseconds, first.onCPUNanoseconds)
        // After the nanosleep it waits on the semaphore, then spins: a spin is read as running.
        while Date() < deadline {
            usleep(20_000)
            if let now = quiet.read(quietWhileAsleep: true), now.syscall != moved.syscall, now.state == "S" { break }
        }
        spin.signal()
        var running = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        while running.state != "R" && Date() < deadline {
            usleep(5_000)
            running = try XCTUnwrap(quiet.read(quietWhileAsleep: true))
        }
        spinning.store(false, ordering: .relaxed)
        XCTAssertEqual(running.state, "R", "a thread on the CPU is never read as asleep")
    }

    /// The third field of schedstat (times scheduled in) is what the quiet read compares.
    func testTimeslicesAreSchedstatsThirdField() {
        XCTAssertEqual(ThreadWaitReader.timeslices("123456 789 42\n"), 42)
        XCTAssertNil(ThreadWaitReader.timeslices("123456 789"))
    }
}
