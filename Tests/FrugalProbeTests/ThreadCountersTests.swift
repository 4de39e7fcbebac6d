import Foundation
import Synchronization
import XCTest
@testable import FrugalProbe
@testable import FrugalSystem
import FrugalCore

/// Real kernel counters: these need perf events (PAPI) or getrusage, and skip saying why where
/// the machine refuses.
final class ThreadCountersTests: XCTestCase {
    /// Runs `body` on a fresh thread (counters are per thread) and waits for it.
    func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let value = body()
            box.withLock { $0 = value }
            done.signal()
        }
        thread.start()
        done.wait()
        return box.withLock { $0 }!
    }

    static func sleepHundredTimes() {
        var request = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        for _ in 0..<100 { nanosleep(&request, nil) }
    }

    func testPAPICountsEachOneMillisecondSleepAsOneContextSwitch() throws {
        let (source, delta, reasons) = onNewThread { () -> (String, Int?, String) in
            let counters = ThreadCounters(preferPAPI: true)
            let before = counters.read()
            Self.sleepHundredTimes()
            let after = counters.read()
            let reasons = counters.availability.compactMap(\.reason).joined(separator: "; ")
            return (counters.source, after.contextSwitches.flatMap { a in before.contextSwitches.map { a - $0 } }, reasons)
        }
        guard source.hasPrefix("papi:") else {
            throw XCTSkip("PAPI cannot count here (\(reasons)); the rusage fallback is tested separately")
        }
        let count = try XCTUnwrap(delta)
        XCTAssertEqual(Double(count), 100, accuracy: 2, "100 sleeps of 1 ms through \(source)")
    }

    func testRusageFallbackCountsTheSameSleeps() throws {
        let (source, delta) = onNewThread { () -> (String, Int?) in
            let counters = ThreadCounters(preferPAPI: false)
            let before = counters.read()
            Self.sleepHundredTimes()
            let after = counters.read()
            return (counters.source, after.contextSwitches.flatMap { a in before.contextSwitches.map { a - $0 } })
        }
        XCTAssertEqual(source, "rusage:thread")
        XCTAssertEqual(Double(try XCTUnwrap(delta)), 100, accuracy: 2)
    }

    func testTaskClockSeesBusyWorkButNotSleep() throws {
        let (busy, asleep, source) = onNewThread { () -> (UInt64?, UInt64?, String) in
            let counters = ThreadCounters(preferPAPI: true)
            // The kernel's own account of this thread's CPU (getrusage), to spin until 50 ms of
            // CPU, not of wall time, have gone by: beside the other test lane a thread can get a
            // quarter of a core (12 ms of CPU in 50 ms of wall time was seen).
            let reference = ThreadCounters(preferPAPI: false)
            let start = counters.read()
            let referenceStart = reference.read().cpuNanoseconds ?? 0
            let giveUp = MonotonicClock.now() + 5_000_000_000
            var spin: UInt64 = 0
            while (reference.read().cpuNanoseconds ?? 0) - referenceStart < 50_000_000 && MonotonicClock.now() < giveUp {
                for _ in 0..<10_000 { spin &+= 1 }
            }
            let afterBusy = counters.read()
            Thread.sleep(forTimeInterval: 0.05)
            let afterSleep = counters.read()
            func delta(_ a: ThreadCounters.Reading, _ b: ThreadCounters.Reading) -> UInt64? {
                guard let x = a.cpuNanoseconds, let y = b.cpuNanoseconds else { return nil }
                return x - y
            }
            return (delta(afterBusy, start), delta(afterSleep, afterBusy), counters.source + "\(spin % 1)")
        }
        // Generous bounds: the loop ran until getrusage saw 50 ms of this thread's CPU; the task
        // clock must see at least half of that, and sleeping next to nothing.
        XCTAssertGreaterThan(try XCTUnwrap(busy), 25_000_000, source)
        XCTAssertLessThan(try XCTUnwrap(asleep), 10_000_000, "sleeping costs (almost) no CPU")
    }

    func testUnknownEventIsUnavailableWithPAPIsReason() throws {
        do { try PAPI.initialize() } catch { throw XCTSkip("PAPI does not initialise here: \(error)") }
        let probe = PAPI.probe("perf::NO-SUCH-EVENT")
        XCTAssertFalse(probe.available)
        XCTAssertTrue(probe.reason?.contains("PAPI error") ?? false, probe.reason ?? "no reason")
    }

    /// A VM that exposes no core PMU disables PAPI's whole perf_event component, software events
    /// too; PAPI then says only that the event "does not exist". The reason names the component.
    func testAnEventOfADisabledComponentSaysWhichAndWhy() throws {
        do { try PAPI.initialize() } catch { throw XCTSkip("PAPI does not initialise here: \(error)") }
        let component = PAPI.components().first { $0.name == "perf_event" }
        let probe = onNewThread { PAPI.probe("perf::TASK-CLOCK") }
        if let disabled = component?.disabledReason {
            XCTAssertFalse(probe.available)
            XCTAssertTrue(probe.reason?.contains("PAPI's perf_event component is disabled here: \(disabled)") == true, probe.reason ?? "no reason")
        } else {
            XCTAssertFalse(probe.reason?.contains("component is disabled") == true,
                           "an enabled component is not blamed: \(probe.reason ?? "available")")
        }
        XCTAssertNil(PAPI.disabledComponent(of: "PAPI_TOT_INS"), "a preset's own error already says its component is disabled")
    }

    /// The hardware events are named with `:u=1:k=0` to count user space alone beside the set's
    /// all-modes software events; PAPI (libpfm4) must accept the qualifiers. Checked on a software
    /// event, since a machine without a PMU has none of the hardware ones.
    func testThePrivilegeQualifiersAreAccepted() throws {
        do { try PAPI.initialize() } catch { throw XCTSkip("PAPI does not initialise here: \(error)") }
        let probe = onNewThread { PAPI.probe("perf::TASK-CLOCK:u=1:k=0") }
        guard PAPI.probe("perf::TASK-CLOCK").available else { throw XCTSkip("perf::TASK-CLOCK does not count here") }
        XCTAssertTrue(probe.available, probe.reason ?? "")
    }

    /// On a machine without a PMU the hardware events are unavailable with PAPI's reason, and
    /// the software events still count in their own set; with one, all share a set.
    func testHardwareEventsAreCountedOrUnavailableWithTheReason() throws {
        let (source, availability, reason, reading) = onNewThread { () -> (String, [CounterAvailability], String?, ThreadCounters.Reading) in
            let counters = ThreadCounters(preferPAPI: true)
            return (counters.source, counters.availability, counters.hardwareUnavailableReason, counters.read())
        }
        guard source.hasPrefix("papi:") else { throw XCTSkip("PAPI cannot count here: \(availability)") }
        let hardware = availability.filter { ThreadCounters.papiHardwareEvents.contains($0.name) }
        XCTAssertEqual(hardware.count, ThreadCounters.papiHardwareEvents.count, "\(availability)")
        if let reason {
            XCTAssertTrue(hardware.allSatisfy { !$0.available && $0.reason != nil }, "\(hardware)")
            XCTAssertTrue(reason.contains("PAPI"), reason)
            XCTAssertNil(reading.hardware, "no counts, not zeros")
            XCTAssertNotNil(reading.cpuNanoseconds, "the software events still count")
        } else {
            XCTAssertNotNil(reading.hardware?.instructions)
            XCTAssertTrue(source.contains("perf::INSTRUCTIONS"), source)
        }
    }
}
