import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// The built-in pairs, run for real under their default scenario: the bad one must fail its
/// audit and the good one pass (issue 2's done-when, held by tests).
final class WorkloadPairTests: XCTestCase {
    /// Both pairs, run once as `frugal run` schedules them: the sleeping news apps beside the
    /// launches and the other pair classes' runs (``ScheduledRuns/pairs``).
    static let workloads = ["news.polling", "news.coalesced", "launch.blocking", "launch.deferred"]
    static var runs: ScheduledRuns { .pairs }

    func report(_ workload: String) throws -> RunReport {
        let record = try Self.runs.record(workload)
        XCTAssertEqual(record.scenario, ScenarioCatalogue.standard.name)
        XCTAssertEqual(record.outcome, .completed, "\(workload): \(record.outcomeDetail ?? "")")
        return ReportBuilder.runReport(record)
    }

    func testPollingFailsAndCoalescedPassesAvoidPolling() throws {
        let pollingReport = try report("news.polling"), coalescedReport = try report("news.coalesced")
        let polling = pollingReport.audits["power.avoid-polling"]
        let coalesced = coalescedReport.audits["power.avoid-polling"]
        XCTAssertLessThan(try XCTUnwrap(polling?.score), 0.5, polling?.displayValue ?? "")
        // On failure, say which thread woke in which idle slice: an occasional 0.1/s here was
        // never caught with its evidence.
        let why = (coalesced?.evidence ?? []).compactMap(\.description).filter { !$0.hasPrefix("0 wakeups") }.joined(separator: "; ")
            + " | threads: " + (coalescedReport.threads?.threads ?? []).map {
                "\($0.tid) \($0.name) \($0.role.rawValue) idle \($0.idleWakeups) platform \($0.platformWakeups) of \($0.wakeups) (\($0.evidence))"
            }.joined(separator: "; ")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(coalesced?.score), 0.9, (coalesced?.displayValue ?? "") + ": " + why)
        VerdictAssertions.assertClean(bad: pollingReport, good: coalescedReport)
    }

    func testBlockingLaunchScoresBelowDeferredLaunch() throws {
        let blocking = try report("launch.blocking"), deferred = try report("launch.deferred")
        VerdictAssertions.assertClean(bad: blocking, good: deferred)
        for audit in ["lifecycle.launch-time", "main.no-long-blocks"] {
            XCTAssertLessThan(try XCTUnwrap(blocking.audits[audit]?.score), try XCTUnwrap(deferred.audits[audit]?.score), audit)
        }
        let hangs = try XCTUnwrap(blocking.audits["main.no-long-blocks"]?.evidence)
        XCTAssertEqual(hangs.count, 1)
        // The 1.5 s of CPU work in didFinishLaunching, less any time it waited for a CPU on this
        // shared machine (not the app's): a hang (≥ 250 ms) at the least, at most its wall time.
        let hang = try XCTUnwrap(hangs.first?.durationMs)
        XCTAssertGreaterThanOrEqual(hang, Thresholds.hangMilliseconds, "the 1.5 s didFinishLaunching")
        XCTAssertLessThanOrEqual(hang, 3750 + 100, "at most the build's wall-time cap")
    }
}
