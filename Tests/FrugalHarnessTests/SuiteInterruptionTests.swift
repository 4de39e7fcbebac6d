import Foundation
import Synchronization
import XCTest
import FrugalCore
import FrugalProbe
@testable import FrugalHarness

/// The interrupt is a message: it stops registered processes and wakes sleepers, nothing more.
final class SuiteInterruptionTests: XCTestCase {
    func testInterruptStopsRegisteredProcessesOnceAndLateOnesAtOnce() {
        let interruption = SuiteInterruption()
        let stopped = Mutex<[String]>([])
        let first = interruption.register { stopped.withLock { $0.append("first") } }
        let gone = interruption.register { stopped.withLock { $0.append("gone") } }
        interruption.unregister(gone)
        XCTAssertNil(interruption.signal)
        interruption.interrupt(signal: SIGINT)
        interruption.interrupt(signal: SIGTERM)
        XCTAssertEqual(interruption.signal, SIGINT, "the first signal counts")
        _ = interruption.register { stopped.withLock { $0.append("late") } }
        interruption.unregister(first)
        XCTAssertEqual(stopped.withLock { $0 }, ["first", "first", "late"])
    }

    /// Timing: the sleep is 60 s and the interrupt comes after 0.2 s; 20 s is a generous bound.
    func testSleepEndsAtTheInterrupt() {
        let interruption = SuiteInterruption()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { interruption.interrupt(signal: SIGTERM) }
        let started = MonotonicClock.now()
        interruption.sleep(until: started + 60_000_000_000)
        XCTAssertLessThan(MonotonicClock.now() - started, 20_000_000_000)
        XCTAssertEqual(interruption.signal, SIGTERM)
    }

    /// A black-box run interrupted in the middle ends as `interrupted`, through its normal end.
    func testAnInterruptedCommandRunIsRecordedAsInterrupted() throws {
        let interruption = SuiteInterruption()
        var options = HarnessOptions(workloadHost: "/bin/false", commandTimeout: 60)
        options.interruption = interruption
        let runner = ScenarioRunner(options: options)
        let scenario = Scenario(name: "command", summary: "", steps: [.launch])
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { interruption.interrupt(signal: SIGINT) }
        let started = Date()
        let record = try runner.run(RunPlan(target: .command(["sleep", "60"]), scenario: scenario, repetition: 1))
        XCTAssertEqual(record.outcome, .interrupted, record.outcomeDetail ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "the 60 s command did not run out")
    }
}
