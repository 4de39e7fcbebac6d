import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore

/// Verdicts from evidence any app gives, for real (issue 30): apps that use Foundation and
/// URLSession and tell FrugalKit nothing of their drawing or their requests.
/// - A stopwatch redrawn at 25 Hz by a Foundation `Timer` while active, stopped while inactive
///   (`interruption`): its main thread's wakeups are drawing, not polling (once charged as
///   ~25 wakeups/s, a 0.00 on power.avoid-polling).
/// - An outbox sent with URLSession through a reset fault and an offline period (`flaky`): the
///   one that retries loses nothing, the one that tries once loses what it sent, judged from the
///   proxy's refused and reset connections and the origin's answers (once "not applicable":
///   only FrugalKit's NetworkClient reported operations).
final class AnyAppEvidenceRunTests: XCTestCase {
    static let runs = Mutex<[String: RunRecord]?>(nil)
    static let plans: [(app: String, scenario: String)] = [
        ("clock.foundation-timer", "interruption"), ("outbox.urlsession-retries", "flaky"), ("outbox.urlsession-gives-up", "flaky"),
    ]

    func report(_ app: String) throws -> RunReport {
        let record = try Self.runs.withLock { runs -> RunRecord in
            if runs == nil {
                let host = try XCTUnwrap(WorkloadHostLocator.locate(), "frugal-workload-host is not built beside the tests")
                let plans = try Self.plans.map { entry -> RunPlan in
                    let scenario = try XCTUnwrap(ScenarioCatalogue.named(entry.scenario))
                    var plan = RunPlan(target: try MainThreadIdiomTests.fixture(entry.app), scenario: scenario, repetition: 1)
                    plan.demand = RunDemand.builtIn(scenario: scenario, isLight: false)
                    return plan
                }
                let ran = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(plans)
                runs = Dictionary(ran.map { ($0.workload, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return try XCTUnwrap(runs?[app], "\(app) did not run")
        }
        XCTAssertEqual(record.outcome, .completed, "\(app): \(record.outcomeDetail ?? "")")
        return ReportBuilder.runReport(record)
    }

    func testAStopwatchDrawnByAFoundationTimerWhileActiveIsNotPolling() throws {
        let report = try report("clock.foundation-timer")
        let audit = try XCTUnwrap(report.audits["power.avoid-polling"])
        // 25 Hz on the main thread in both active waits (about 50 wakeups); charged: what else
        // woke in those 2 s. Generous for a loaded machine: one stray wakeup a second still
        // scores 0.2, so 0.5 separates "drawing left out" from "drawing charged" (25/s: 0.00).
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score, audit.displayValue), 0.5, audit.displayValue)
        XCTAssertTrue(audit.evidence.contains { $0.description.contains("drawing at a frame rate") },
                      audit.evidence.map(\.description).joined(separator: "\n"))
        // And it stops while inactive, as the guide asks.
        let quiesce = try XCTUnwrap(report.audits["lifecycle.quiesce-when-inactive"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(quiesce.score, quiesce.displayValue), 0.9, quiesce.displayValue)
    }

    func testAURLSessionOutboxThatRetriesLosesNothingAndOneThatGivesUpLosesItsSends() throws {
        let good = try XCTUnwrap(report("outbox.urlsession-retries").audits["network.handle-failures"])
        XCTAssertEqual(good.numericValue, 0, "\(good.displayValue)\n" + good.evidence.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(good.evidence.contains { $0.description.hasPrefix("recovered:") }, good.displayValue)
        let bad = try XCTUnwrap(report("outbox.urlsession-gives-up").audits["network.handle-failures"])
        // Two sends met a failure (the reset fault, the offline period) and neither was retried.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(bad.numericValue, bad.displayValue), 1, bad.displayValue)
        XCTAssertLessThan(try XCTUnwrap(bad.score, bad.displayValue), 0.5, bad.displayValue)
    }
}
