import Foundation
import Synchronization
import XCTest
@testable import FrugalKit
@testable import FrugalCore
import FrugalProbe
import CFrugalMainLoop

/// The main queue, the main actor and `RunLoop.main` inside FrugalKit's loop, in-process (the
/// real-run matrix is FrugalHarnessTests/MainThreadIdiomTests). Each piece of work waits 20 ms,
/// so it is reported even where brief passes are not (1 ms), with room for a loaded machine.
final class MainRunLoopPlatformTests: XCTestCase {
    final class Ran: Sendable { let names = Mutex<[String]>([]) }

    func testMainQueueMainActorAndRunLoopMainWorkRunInTheLoopAsNamedHandlers() throws {
        try MainActor.assumeIsolated { try Self.mainPlatformWorkRunsAsNamedHandlers() }
    }

    @MainActor
    private static func mainPlatformWorkRunsAsNamedHandlers() throws {
        let harness = try MainRunLoopTests.Harness()
        let ran = Ran()
        let work: @Sendable (String) -> Void = { name in
            dispatchPrecondition(condition: .onQueue(.main))
            ran.names.withLock { $0.append(name) }
            usleep(20_000)
        }
        DispatchQueue.main.async { work("main.async") }
        DispatchQueue.global().async { DispatchQueue.main.sync { work("main.sync") } }
        Task { @MainActor in work("task") }
        _ = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: false) { _ in work("timer") }
        harness.loop.scheduleTimer(name: "queue-perform", interval: 0.2, repeats: false) { _ in
            RunLoop.main.perform { work("perform") }
        }
        try harness.run(for: 0.5)
        XCTAssertEqual(Set(ran.names.withLock { $0 }), ["main.async", "main.sync", "task", "timer", "perform"])
        let names = Set(harness.records.map(\.name))
        XCTAssertTrue(names.isSuperset(of: ["main-queue", "runloop.main:timer", "runloop.main:perform"]), "\(names)")
        for record in harness.records where record.name == "runloop.main:timer" || record.name == "runloop.main:perform" {
            XCTAssertGreaterThanOrEqual(record.end - record.start, 20_000_000, "\(record.name) holds its 20 ms")
        }
    }

    func testWorkLeftWhenTheLoopStopsIsAFindingWithItsName() throws {
        try MainActor.assumeIsolated { try Self.mainWorkLeftIsAFinding() }
    }

    @MainActor
    private static func mainWorkLeftIsAFinding() throws {
        let harness = try MainRunLoopTests.Harness()
        let loop = harness.loop
        let ran = Ran()
        // Both posted at once: the first stops the loop, the second never runs. The main-queue
        // block is queued as the loop stops.
        harness.loop.scheduleTimer(name: "post", interval: 0.05, repeats: false) { _ in
            loop.perform("stopper") {
                loop.stop()
                // A later test's loop drains it: it only notes that it ran.
                DispatchQueue.main.async { ran.names.withLock { $0.append("main-queue block") } }
            }
            loop.perform("late-save") { XCTFail("posted work ran after stop") }
        }
        try harness.run(for: 5)
        XCTAssertEqual(ran.names.withLock { $0 }, [], "the block queued as the loop stopped did not run in it")
        let findings = harness.marks.filter { $0.name == "work-never-ran" }.compactMap(\.detail)
        XCTAssertTrue(findings.contains { $0.contains("late-save") }, "\(findings)")
        XCTAssertTrue(findings.contains { $0.hasPrefix("main-queue") }, "\(findings)")
    }

    /// A Foundation timer stopped on the main thread, as the guide asks of an app leaving the
    /// active state, wakes the loop no more: CoreFoundation on Linux left its timerfd armed at the
    /// stopped timer's next fire date (`frugal_cf_disarm_stale_timer`), one wakeup with nothing to
    /// do, which the harness judged a timer still running while inactive. A timer added afterwards
    /// from another thread must still fire. Order, not speed: the window is from the stop to the
    /// next timer, whatever the machine's load made them.
    func testATimerStoppedOnTheMainThreadWakesTheLoopNoMore() throws {
        try MainActor.assumeIsolated { try Self.mainStoppedTimerWakesNoMore() }
    }

    @MainActor
    private static func mainStoppedTimerWakesNoMore() throws {
        try XCTSkipUnless(frugal_cf_seconds_to_next_timer() == -.infinity,
                          "RunLoop.main already holds a timer from elsewhere in this process, which keeps its timerfd armed by right")
        let harness = try MainRunLoopTests.Harness()
        let ran = Ran()
        let stoppedAt = Mutex<UInt64>(0)
        let addedAt = Mutex<UInt64>(0)
        // The loop's thread's voluntary switches, from the kernel: each sleep in epoll_wait is one.
        let switches = Mutex<[Int]>([])
        let readSwitches = { switches.withLock { $0.append(Self.voluntarySwitchesOfThisThread()) } }
        let ticker = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { _ in ran.names.withLock { $0.append("tick") } }
        harness.loop.scheduleTimer(name: "resign", interval: 0.15, repeats: false) { _ in
            ticker.invalidate()
            stoppedAt.withLock { $0 = MonotonicClock.now() }
            readSwitches()
        }
        harness.loop.scheduleTimer(name: "later", interval: 0.45, repeats: false) { _ in
            addedAt.withLock { $0 = MonotonicClock.now() }
            readSwitches()
            DispatchQueue.global().async {
                RunLoop.main.add(Timer(timeInterval: 0.1, repeats: false) { _ in ran.names.withLock { $0.append("added") } }, forMode: .default)
            }
        }
        try harness.run(for: 0.9)
        let names = ran.names.withLock { $0 }
        XCTAssertGreaterThanOrEqual(names.filter { $0 == "tick" }.count, 1, "\(names)")
        XCTAssertTrue(names.contains("added"), "a timer added from another thread after the disarm fired: \(names)")
        let stopped = stoppedAt.withLock { $0 }, added = addedAt.withLock { $0 }
        XCTAssertGreaterThan(stopped, 0)
        let passes = harness.records.filter { $0.name.hasPrefix("runloop.main") && $0.start > stopped && $0.start < added }
        XCTAssertEqual(passes.map(\.name), [], "RunLoop.main woke between the timer's stop and the next timer")
        // One sleep from the stop to the next timer (two with the stale deadline's wakeup).
        let counted = switches.withLock { $0 }
        XCTAssertEqual(counted.count, 2)
        if counted.count == 2 { XCTAssertLessThanOrEqual(counted[1] - counted[0], 1, "voluntary switches of the loop's thread") }
    }

    /// `voluntary_ctxt_switches` of the calling thread (`/proc/thread-self/status`).
    private static func voluntarySwitchesOfThisThread() -> Int {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? -1
    }
}
