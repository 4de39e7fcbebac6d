import Foundation
import XCTest
import Synchronization
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// A hardware counter session that counts its reads and closes: a test double of the perf
/// events a real process gets (`HardwareCounters+Linux.swift`).
final class CountingHardwareSession: HardwareCounterSession {
    let instructions: UInt64
    let reads = Atomic<Int>(0)
    let closes = Atomic<Int>(0)
    init(instructions: UInt64) { self.instructions = instructions }
    func read() -> HardwareCounterReading {
        reads.add(1, ordering: .relaxed)
        return HardwareCounterReading(instructions: instructions, cycles: 2 * instructions, cacheMisses: 0, branchMisses: 0,
                                      timeEnabledNanoseconds: 1, timeRunningNanoseconds: 1)
    }
    func close() { closes.add(1, ordering: .relaxed) }
}

extension RunSessionStateTests {
    /// Each process's counters are read once, after its reap, closed, and added to the run's
    /// totals; a process whose counters could not be opened adds its reason; a failed start
    /// closes them unread.
    func testEachProcessesCountersAreReadOnceAndAddedUp() {
        var counters = ProcessCounters()
        let first = CountingHardwareSession(instructions: 1_000), second = CountingHardwareSession(instructions: 500)
        counters.attach(hardware: .success(first), syncs: nil)
        counters.fold()
        XCTAssertNil(counters.hardware, "nothing attached between a reap and the next spawn")
        counters.fold()
        XCTAssertEqual(first.reads.load(ordering: .relaxed), 1, "read once, however often fold is called")
        XCTAssertEqual(first.closes.load(ordering: .relaxed), 1)
        counters.attach(hardware: .success(second), syncs: .failure(HardwareCountersUnavailable("no tracepoints here")))
        counters.fold()
        XCTAssertEqual(counters.hardwareTotal?.instructions, 1_500, "the processes' counts added up")
        XCTAssertEqual(counters.syncTotal?.unavailable, "no tracepoints here", "unavailable with its reason, not 0")

        var abandoned = ProcessCounters()
        let unread = CountingHardwareSession(instructions: 7)
        abandoned.attach(hardware: .success(unread), syncs: nil)
        abandoned.abandon()
        XCTAssertEqual(unread.reads.load(ordering: .relaxed), 0)
        XCTAssertEqual(unread.closes.load(ordering: .relaxed), 1)
        XCTAssertNil(abandoned.hardwareTotal, "a run that did not start counted nothing")
    }

    /// The run-wide watches end once: a finished one gives its facts the first time and nil
    /// after (teardown's `stopAll` after `finish` ends nothing twice); one that could not start
    /// says why.
    func testRunWatchesEndOnceAndSayWhyWhenTheyCouldNotStart() throws {
        var watches = RunWatches(files: .failure(SystemCallError(call: "inotify_init1", errno: EMFILE)), resources: nil,
                                 wakeups: .failure(WakeupTraceUnavailable("no cgroup")),
                                 energy: .failure(HardwareCountersUnavailable("no powercap")))
        XCTAssertEqual(watches.finishFiles()?.unavailable?.contains("inotify_init1"), true)
        XCTAssertNil(watches.finishFiles(), "ended once")
        let wakeups = try XCTUnwrap(watches.finishWakeups())
        XCTAssertNotNil(wakeups.unavailable)
        XCTAssertNil(watches.finishWakeups())
        XCTAssertEqual(watches.endEnergy()?.unavailable, "no powercap")
        XCTAssertNil(watches.endEnergy())
        watches.stopAll()
        XCTAssertNil(watches.files)
        XCTAssertNil(watches.resources)
    }
}
