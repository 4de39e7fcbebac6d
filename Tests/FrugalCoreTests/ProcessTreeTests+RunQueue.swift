import XCTest
@testable import FrugalCore

/// A wrapper's own time is judged without its wait for a CPU: beside CPU hogs `perf stat` took
/// 180–420 ms of wall outside its 3 ms child for 12–16 ms of CPU, and was once taken for the
/// program (its own 250 ms and more were the run queue's).
final class ProcessTreeRunQueueTests: XCTestCase {
    func exit(_ pid: Int32, parent: Int32, _ command: String, from start: UInt64, to end: UInt64, queued: Double?) -> TaskExit {
        var exit = TaskExit(tid: pid, tgid: pid, ppid: parent, command: command, voluntarySwitches: 5, involuntarySwitches: 9,
                            cpuSeconds: 0.014, readBytes: 0, writeBytes: 0, peakResidentBytes: 0,
                            startTime: start * 1_000_000, endTime: end * 1_000_000)
        exit.runQueueWaitSeconds = queued
        return exit
    }

    func testAWrapperStretchedByTheRunQueueIsStillAWrapper() {
        // perf: 420 ms of life, 3 ms of it its child's, 330 ms waiting for a CPU: 87 ms its own.
        let loaded = [exit(10, parent: 1, "perf", from: 0, to: 420, queued: 0.330),
                      exit(11, parent: 10, "sleep", from: 200, to: 203, queued: 0.001)]
        XCTAssertEqual(ProcessTree(root: 10, exits: loaded).programChain, [10, 11])
    }

    func testTimeAsleepOutsideTheChildIsStillTheProgramsOwn() {
        // The same life with no run-queue wait: 417 ms of its own (asleep or working) is a program.
        let quiet = [exit(10, parent: 1, "sleeper", from: 0, to: 420, queued: 0.002),
                     exit(11, parent: 10, "date", from: 410, to: 413, queued: 0)]
        XCTAssertEqual(ProcessTree(root: 10, exits: quiet).programChain, [10])
        // And a record made before the wait was kept is judged on its wall time, as before.
        let old = [exit(10, parent: 1, "perf", from: 0, to: 420, queued: nil),
                   exit(11, parent: 10, "sleep", from: 200, to: 203, queued: nil)]
        XCTAssertEqual(ProcessTree(root: 10, exits: old).programChain, [10])
    }
}
