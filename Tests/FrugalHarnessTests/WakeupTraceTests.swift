import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// Wakeups traced to their causes for real: the scheduler tracepoints on each run's cgroup,
/// symbolized from the workload host's own symbol table. Needs root (or CAP_PERFMON) and
/// tracefs; the test skips with the tracer's own reason where the machine has neither.
final class WakeupTraceTests: XCTestCase {
    static let runs = ScheduledWakeupRuns(["news.polling", "threads.global-queue-once"])

    func record(_ workload: String) throws -> RunRecord {
        if ProcessInfo.processInfo.environment["FRUGAL_WAKEUP_TRACE"] == "0" { throw XCTSkip("FRUGAL_WAKEUP_TRACE=0 turns the tracer off") }
        let record = try Self.runs.record(workload)
        XCTAssertEqual(record.outcome, .completed, "\(workload): \(record.outcomeDetail ?? "")")
        let wakeups = try XCTUnwrap(record.wakeups, "\(workload): the harness traced no wakeups and said nothing")
        if let reason = wakeups.unavailable { throw XCTSkip("wakeups cannot be traced here: \(reason)") }
        return record
    }

    /// news.polling's 1 s zero-tolerance timer: the top idle-wakeup cause is its handler, the
    /// closure it passed to `scheduleTimer` in `PollingNewsApp.didFinishLaunching`.
    func testThePollingTimersClosureIsTheTopIdleCause() throws {
        let report = ReportBuilder.runReport(try record("news.polling"))
        let causes = try XCTUnwrap(report.wakeupCauses)
        XCTAssertEqual(causes.scope, "idle")
        // ~10 s of idle at 1 Hz wakes the main thread, a pool thread and the main thread again
        // each second; at least half the ticks' worth even on a loaded machine.
        XCTAssertGreaterThanOrEqual(causes.scopeWakeups, 5)
        let top = try XCTUnwrap(causes.top.first)
        let symbol = try XCTUnwrap(top.cause.symbol)
        XCTAssertTrue(symbol.contains("PollingNewsApp.didFinishLaunching"), "top cause: \(top.cause)")
        XCTAssertEqual(top.cause.module, "frugal-workload-host")
        // The timer's own wakeup of the main thread and the pool thread its handler wakes both
        // name the closure: one row of two kinds, measured 0.46–0.78 of the idle wakeups (the
        // rest is mostly the main thread woken for the check's result, which it is not when it
        // is still awake: how often depends on the machine's load), so a third is asked for.
        XCTAssertGreaterThan(top.kinds[WakeupKind.timer.rawValue] ?? 0, 0, "\(top)")
        XCTAssertGreaterThan(top.kinds[WakeupKind.thread.rawValue] ?? 0, 0, "\(top)")
        XCTAssertGreaterThanOrEqual(top.share, 0.33, "\(causes.top)")
        // The audit cites it.
        let evidence = try XCTUnwrap(report.audits["power.avoid-polling"]).evidence.map(\.description)
        XCTAssertTrue(evidence.contains { $0.hasPrefix("top idle-wakeup cause") && $0.contains("PollingNewsApp") }, "\(evidence)")
        // Issue 25's 90% is over the whole suite (93% measured with the default suite); one run of
        // ~35 wakeups beside two CPU hogs named 88% (29 of 33), so one run is held to three
        // quarters: a floor against a tracer that names little, not the suite's goal. (Lost
        // wakers, as with sched_wakeup, show in the top cause and its kinds above.)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(causes.attributedShare), 0.75, "\(causes.top)")
    }

    /// One job on a global queue, then idle: what is left is libdispatch's pool monitor on its
    /// manager thread.
    func testAfterOneGCDJobThePoolMonitorIsWhatWakes() throws {
        let report = ReportBuilder.runReport(try record("threads.global-queue-once"))
        let causes = try XCTUnwrap(report.wakeupCauses)
        XCTAssertGreaterThanOrEqual(causes.scopeWakeups, 5, "the monitor ticks ~1/s over ~10 s of idle")
        let top = try XCTUnwrap(causes.top.first)
        XCTAssertEqual(top.cause.symbol, "_dispatch_workq_monitor_pools", "\(causes.top)")
        XCTAssertEqual(top.cause.module?.hasPrefix("libdispatch"), true)
        XCTAssertGreaterThanOrEqual(top.share, 0.7, "\(causes.top)")
    }
}

/// The two runs, side by side under the thread workloads' 10 s idle, once for the class.
final class ScheduledWakeupRuns: Sendable {
    let workloads: [String]
    private let records = Mutex<[String: RunRecord]?>(nil)

    init(_ workloads: [String]) { self.workloads = workloads }

    func record(_ workload: String) throws -> RunRecord {
        try records.withLock { records in
            if records == nil {
                let host = try XCTUnwrap(WorkloadHostLocator.locate(), "frugal-workload-host is not built beside the tests")
                let plans = workloads.map { name in
                    var plan = RunPlan(target: .builtIn(name: name), scenario: ScenarioCatalogue.shortIdle, repetition: 1)
                    plan.demand = RunDemand.builtIn(scenario: ScenarioCatalogue.shortIdle, isLight: true)
                    return plan
                }
                let ran = try ResourceScheduler(options: HarnessOptions(workloadHost: host)).run(plans)
                records = Dictionary(ran.map { ($0.workload, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return try XCTUnwrap(records?[workload], "\(workload) is not among this class's runs")
        }
    }
}
