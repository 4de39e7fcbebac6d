import Foundation
import Synchronization
import XCTest
@testable import FrugalKit
@testable import FrugalCore
import FrugalProbe

/// The run loop's semantics on a real epoll loop. Timing bounds are generous (a loaded CI
/// machine can be late by tens of ms); what is asserted is order and grouping, not speed.
final class MainRunLoopTests: XCTestCase {
    /// Runs a loop on its own thread, collecting its handler records through a real pipe.
    @MainActor
    final class Harness {
        var records: [HandlerRecord] = []
        var marks: [Mark] = []
        let loop: MainRunLoop
        private let readFD: Int32
        private let writeFD: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&fds), 0)
            readFD = fds[0]
            writeFD = fds[1]
            loop = try MainRunLoop(meter: HandlerMeter(emitter: EventEmitter(fd: writeFD), preferPAPI: false))
        }

        /// Runs the loop on the calling thread for `seconds`, then decodes what it emitted.
        func run(for seconds: Double) throws {
            loop.scheduleTimer(name: "stop", interval: seconds, repeats: false) { [loop] _ in loop.stop() }
            try loop.run()
            close(writeFD)
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readFD, &buffer, buffer.count)
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            close(readFD)
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let event = try? JSONDecoder().decode(WorkloadEvent.self, from: Data(line)) else { continue }
                if case .handler(let record) = event.body { records.append(record) }
                if case .mark(let mark) = event.body { marks.append(mark) }
            }
        }

        func starts(of name: String) -> [UInt64] { records.filter { $0.name == name }.map(\.start) }
    }

    func testRepeatingTimerFiresOnSchedule() throws { try MainActor.assumeIsolated { try Self.mainRepeatingTimerFiresOnSchedule() } }

    @MainActor
    private static func mainRepeatingTimerFiresOnSchedule() throws {
        let harness = try Harness()
        let begin = MonotonicClock.now()
        harness.loop.scheduleTimer(name: "tick", interval: 0.1, repeats: true) { _ in }
        try harness.run(for: 0.55)
        let ticks = harness.starts(of: "timer:tick")
        XCTAssertEqual(ticks.count, 5, "a 100 ms timer fires 5 times in 550 ms")
        for (index, start) in ticks.enumerated() {
            XCTAssertGreaterThanOrEqual(start, begin + UInt64(index + 1) * 100_000_000, "a timer never fires early")
        }
    }

    func testToleranceLetsTwoTimersShareOneWakeup() throws { try MainActor.assumeIsolated { try Self.mainToleranceLetsTwoTimersShareOneWakeup() } }

    @MainActor
    private static func mainToleranceLetsTwoTimersShareOneWakeup() throws {
        let harness = try Harness()
        // A may fire up to 100 ms late; B is due 40 ms after A's date: the loop wakes once, at B's date.
        harness.loop.scheduleTimer(name: "a", interval: 0.1, repeats: false, tolerance: 0.1) { _ in }
        harness.loop.scheduleTimer(name: "b", interval: 0.14, repeats: false) { _ in }
        try harness.run(for: 0.4)
        let a = try XCTUnwrap(harness.starts(of: "timer:a").first), b = try XCTUnwrap(harness.starts(of: "timer:b").first)
        XCTAssertLessThan(b > a ? b - a : a - b, 5_000_000, "both fired in the same wakeup")
    }

    func testWithoutToleranceTimersFireApart() throws { try MainActor.assumeIsolated { try Self.mainWithoutToleranceTimersFireApart() } }

    @MainActor
    private static func mainWithoutToleranceTimersFireApart() throws {
        let harness = try Harness()
        let begin = MonotonicClock.now()
        harness.loop.scheduleTimer(name: "a", interval: 0.1, repeats: false) { _ in }
        harness.loop.scheduleTimer(name: "b", interval: 0.14, repeats: false) { _ in }
        try harness.run(for: 0.4)
        let b = try XCTUnwrap(harness.starts(of: "timer:b").first)
        XCTAssertNotNil(harness.starts(of: "timer:a").first)
        // Without a tolerance b is not pulled forward into a's wakeup: it fires no earlier than its
        // own date. (Comparing b with a failed beside CPU hogs: a woke 40 ms late, at b's date.)
        XCTAssertGreaterThanOrEqual(b, begin + 140_000_000, "b waited for its own date")
    }

    func testWorkPostedFromAnotherThreadRunsOnTheLoopThread() throws { try MainActor.assumeIsolated { try Self.mainWorkPostedFromAnotherThreadRunsOnTheLoopThread() } }

    @MainActor
    private static func mainWorkPostedFromAnotherThreadRunsOnTheLoopThread() throws {
        let harness = try Harness()
        let loopThread = pthread_self()
        final class RanOn: Sendable { let thread = Mutex<pthread_t?>(nil) }
        let ranOn = RanOn()
        // Posted once the loop runs (its first timer fired), so the post must wake it.
        let running = DispatchSemaphore(value: 0)
        harness.loop.scheduleTimer(name: "running", interval: 0.01, repeats: false) { _ in running.signal() }
        Thread.detachNewThread { [loop = harness.loop] in
            // Generous: the timer is due in 10 ms; 10 s only bounds a loop that never ran.
            guard running.wait(timeout: .now() + 10) == .success else { return }
            loop.perform("from-worker") { ranOn.thread.withLock { $0 = pthread_self() } }
        }
        try harness.run(for: 0.3)
        XCTAssertEqual(harness.starts(of: "posted:from-worker").count, 1)
        XCTAssertTrue(ranOn.thread.withLock { $0 }.map { pthread_equal($0, loopThread) != 0 } ?? false)
    }

    func testInvalidatedTimerStops() throws { try MainActor.assumeIsolated { try Self.mainInvalidatedTimerStops() } }

    @MainActor
    private static func mainInvalidatedTimerStops() throws {
        let harness = try Harness()
        var fired = 0
        harness.loop.scheduleTimer(name: "once-then-stop", interval: 0.05, repeats: true) { timer in
            fired += 1
            timer.invalidate()
        }
        try harness.run(for: 0.3)
        XCTAssertEqual(fired, 1)
    }
}
